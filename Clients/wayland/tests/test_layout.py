"""The shapes presentd-wayland lays content out in (docs/WAYLAND.md, "What it draws"), on a real
headless sway, read back with grim and tesseract: a toast is a pill sized to its text, a banner
shows its icon, title, body and buttons in a 360-point card as tall as its text, a sheet has
its title at the top, an alert's paddings are libadwaita's. At scale 1 and 2, and right to left.

LAYOUT_SHOTS=DIR keeps each card's picture there, to look at."""

from __future__ import annotations

import os
import subprocess

import pytest
from PIL import Image, ImageDraw

from presentd import Client
from presentd.daemon import wait_until

from test_input import ACCENT, click, find_colour, owner_event, screen  # noqa: F401 (screen is a fixture)
from conftest import CARD, drawn_at_rest, pixel
from test_wayland import close, rest_frame, screen_ready, wait_pixels

# The layout's numbers (src/card.c, the table M), as docs/WAYLAND.md gives them.
TOAST_MAX_WIDTH = 600
TOAST_MIN_HEIGHT = 36
ALERT_TOP, ALERT_BOTTOM = 32, 24
SHEET_HEADER = 44


def card_picture(sway, f, scale, name):
    """The card's pixels (its frame times the scale), kept under $LAYOUT_SHOTS when set."""
    box = tuple(pixel(v, scale) for v in (f["x"], f["y"], f["x"] + f["width"], f["y"] + f["height"]))
    image = sway.screenshot().crop(box)
    if os.environ.get("LAYOUT_SHOTS"):
        os.makedirs(os.environ["LAYOUT_SHOTS"], exist_ok=True)
        image.save(os.path.join(os.environ["LAYOUT_SHOTS"], f"{name}.png"))
    return image


def ocr_words(sway, image, scale):
    """The words tesseract reads on image, each with its box in points of the card: {text, top, left}.
    The picture is enlarged to about 3 pixels a point first (tesseract reads 13 px text poorly)."""
    k = max(1, round(3 / scale))
    flat = image.copy()
    # What shows through the rounded corners is painted the card's colour: dark wedges read as letters.
    for corner in ((0, 0), (flat.width - 1, 0), (0, flat.height - 1), (flat.width - 1, flat.height - 1)):
        if not close(flat.getpixel(corner), CARD):
            ImageDraw.floodfill(flat, corner, CARD, thresh=60)
    big = flat.resize((flat.width * k, flat.height * k), Image.LANCZOS)
    path = os.path.join(sway.dir, "ocr.png")
    big.save(path)
    # Sparse text (psm 11): a card is lines and buttons, not one block.
    out = subprocess.run(["tesseract", path, "-", "--psm", "11", "tsv"], capture_output=True, text=True, timeout=60).stdout
    words = []
    for line in out.splitlines()[1:]:
        cells = line.split("\t")
        if len(cells) == 12 and cells[11].strip():
            words.append({"text": cells[11].strip(), "left": int(cells[6]) / k / scale, "top": int(cells[7]) / k / scale})
    return words


def text_of(words) -> str:
    return " ".join(w["text"] for w in words)


def at_rest(app, renderer, sway, id, scale, sized=()):
    """Advances until entry id rests, with a size in the dimensions `sized`, and its card is
    drawn at its frame, edge to edge (a measure that comes after it rested glides it to its
    size, on the manual clock only as the clock moves); its frame."""
    def measured():
        entry = next(e for e in app.call("stack")["entries"] if e["id"] == id)
        size = entry.get("preferredContentSize") or {}
        return all(size.get(d) for d in sized) and entry
    wait_until(measured, f"presentd-wayland to measure {id}'s {' and '.join(sized)}", timeout=60, context=renderer.context)
    app.call("advance", {"seconds": 2})

    frames, _ = drawn_at_rest(app, sway, scale, lambda: {id: rest_frame(app, id)},
                              f"{id} drawn at rest at its frame, edge to edge", context=renderer.context)
    return frames[id]


@pytest.mark.parametrize("scale", [1, 2])
def test_presentctl_toast_is_a_pill_sized_to_its_text(manual, sway_factory, renderer_factory, scale):
    sway = sway_factory(width=1920, height=1080, scale=scale)
    renderer = renderer_factory(sway, manual.path)
    text = "The report was saved in Documents"
    with Client(manual.path) as app:
        screen_ready(app, renderer, "main", 1920 / scale, 1080 / scale, scale)
        out = subprocess.run([os.environ["PRESENTCTL"], "--socket", manual.path, "toast", text, "--id", "t", "--after", "60"],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        f = at_rest(app, renderer, sway, "t", scale, sized=("width", "height"))
        assert 150 < f["width"] < TOAST_MAX_WIDTH, f"a pill as wide as its text, under {TOAST_MAX_WIDTH}: {f}"
        assert TOAST_MIN_HEIGHT <= f["height"] <= TOAST_MIN_HEIGHT + 4, f"one line tall: {f}"
        image = card_picture(sway, f, scale, f"toast-scale{scale}")
        h, w = image.height, image.width
        # Fully rounded ends: the corners are not the card, the ends' middles and the top edge are.
        for corner in ((1, 1), (w - 2, 1), (1, h - 2), (w - 2, h - 2)):
            assert not close(image.getpixel(corner), CARD), f"the corner {corner} is the card's: not a pill"
        for inside in ((3 * scale, h // 2), (w - 3 * scale, h // 2), (w // 2, 2 * scale)):
            assert close(image.getpixel(inside), CARD), f"{inside} is not the card's: {image.getpixel(inside)}"
        read = text_of(ocr_words(sway, image, scale))
        for word in ("report", "saved", "Documents"):  # the last word too: not ellipsised
            assert word in read, f"OCR of the toast found no {word!r}: {read!r}"


BANNER = {
    "icon": {"name": "dialog-information"}, "title": "Backup finished",
    "message": "Your files were copied to the external disk in four minutes",
    "actions": [{"id": "default", "title": "Open", "role": "default"}, {"id": "eject", "title": "Eject"},
                {"id": "later", "title": "Later"}],
}


def banner(height, content=BANNER, id="n"):
    """A notification as presentd-notify presents one: an overlay at the trailing top corner."""
    return {"id": id, "level": "overlay", "position": "trailing", "content": content,
            "style": {"type": "custom", "width": {"points": 360}, "height": height}}


@pytest.mark.parametrize("height, scale", [({"points": 96}, 1), ("content", 1), ("content", 2)],
                         ids=["fixed-96", "content", "content-scale2"])
def test_a_banner_shows_icon_title_body_and_its_buttons_but_not_the_default(manual, sway_factory, renderer_factory,
                                                                          height, scale):
    sway = sway_factory(width=1280, height=720, scale=scale)
    renderer = renderer_factory(sway, manual.path)
    with Client(manual.path) as app:
        screen_ready(app, renderer, "main", 1280 / scale, 720 / scale, scale)
        app.call("present", banner(height))
        f = at_rest(app, renderer, sway, "n", scale, sized=("height",) if height == "content" else ())
        if height == "content":
            assert 64 <= f["height"] <= 140, f"as tall as its content, at least 64: {f}"
        image = card_picture(sway, f, scale, f"banner-{'fixed' if height != 'content' else 'content'}-scale{scale}")
        words = ocr_words(sway, image, scale)
        read = text_of(words)
        for word in ("Backup", "finished", "files", "copied", "Eject", "Later"):
            assert word in read, f"OCR of the banner found no {word!r}: {read!r}"
        assert "Open" not in read, f"the default action is the body's click, not a button: {read!r}"
        # The text column starts right of the 48-point icon; the icon is at the leading edge.
        title = next(w for w in words if w["text"] == "Backup")
        assert 56 <= title["left"] <= 76, f"the title beside the icon: {title}"
        icon = find_colour(image, (8 * scale, 8 * scale, 56 * scale, 56 * scale), CARD, 40)
        assert icon is not None and sum(1 for x in range(8 * scale, 56 * scale)
                                        if not close(image.getpixel((x, 32 * scale)), CARD, 40)) > 10 * scale, \
            "no icon drawn at the leading edge"


def test_a_right_to_left_banner_mirrors_the_icon_to_the_right(manual, sway_factory, renderer_factory):
    sway = sway_factory(width=1280, height=720, scale=1)
    renderer = renderer_factory(sway, manual.path)
    content = dict(BANNER, title="اكتمل النسخ الاحتياطي", message="نُسخت ملفاتك إلى القرص الخارجي")
    with Client(manual.path) as app:
        screen_ready(app, renderer, "main", 1280, 720, 1)
        app.call("present", banner("content", content))
        f = at_rest(app, renderer, sway, "n", 1, sized=("height",))
        image = card_picture(sway, f, 1, "banner-rtl")
        w = image.width

        def marked(x0, x1, y):
            return sum(1 for x in range(x0, x1) if not close(image.getpixel((x, y)), CARD, 40))
        # The icon's middle row: inked on the right (the icon), blank on the left's first 48 points.
        assert marked(w - 56, w - 8, 32) > 10, "no icon at the trailing (right) edge"
        assert marked(8, 56, 32) == 0 or marked(8, 56, 32) < marked(w - 56, w - 8, 32) / 4, "the icon was left on the left"


def test_a_tap_on_a_banner_body_activates_its_default_action(screen):
    sway, renderer, helper, app = screen
    app.subscribe(["lifecycle"])
    app.call("present", banner("content"))
    f = at_rest(app, renderer, sway, "n", 1, sized=("height",))
    # The body, between the title and the buttons, beside the icon.
    click(sway, f["x"] + 200, f["y"] + 30)
    event = owner_event(app, "the default action, activated by a tap on the banner's body",
                        lambda e: getattr(e, "action", None) is not None, renderer)
    assert event.action == "default", event


@pytest.mark.parametrize("style", ["popup", "bottomHalf"])
def test_a_sheet_has_its_title_in_a_header_bar_and_its_content_from_the_top(manual, sway_factory, renderer_factory, style):
    sway = sway_factory(width=1280, height=720, scale=1)
    renderer = renderer_factory(sway, manual.path)
    with Client(manual.path) as app:
        screen_ready(app, renderer, "main", 1280, 720, 1)
        app.call("present", {"id": "s", "style": style, "background": {"opacity": 0.3},
                             "content": {"title": "Preferences", "message": "Choose where downloads are saved",
                                         "actions": [{"id": "no", "title": "Cancel", "role": "cancel"},
                                                     {"id": "ok", "title": "Save", "role": "default"}]}})
        f = at_rest(app, renderer, sway, "s", 1)
        image = card_picture(sway, f, 1, f"sheet-{style}")
        words = ocr_words(sway, image, 1)
        title = next((w for w in words if w["text"] == "Preferences"), None)
        assert title, f"OCR found no title: {text_of(words)!r}"
        assert title["top"] < 0.2 * f["height"] and title["top"] < SHEET_HEADER, f"the title in the top 20 %: {title}, {f}"
        assert abs(title["left"] + 45 - f["width"] / 2) < 40, f"the title centred: {title}, {f}"
        message = next((w for w in words if w["text"] == "Choose"), None)
        assert message and SHEET_HEADER < message["top"] < SHEET_HEADER + 40, f"the message under the header: {message}"
        # The separator under the header bar: a line across, darker than the card (a frame on a
        # half point lands a pixel either way).
        def across(y):
            return all(not close(image.getpixel((x, y)), CARD) for x in range(20, image.width - 20))
        assert any(across(y) for y in range(SHEET_HEADER - 3, SHEET_HEADER + 2)), "no separator under the header bar"


@pytest.mark.parametrize("scale", [1, 2])
def test_an_alert_has_libadwaitas_paddings(manual, sway_factory, renderer_factory, scale):
    sway = sway_factory(width=1280, height=720, scale=scale)
    renderer = renderer_factory(sway, manual.path)
    with Client(manual.path) as app:
        screen_ready(app, renderer, "main", 1280 / scale, 720 / scale, scale)
        app.call("present", {"id": "a", "style": "alert", "background": {"opacity": 0.3},
                             "content": {"title": "Delete file?", "message": "It cannot be undone",
                                         "actions": [{"id": "ok", "title": "Delete", "role": "destructive"},
                                                     {"id": "no", "title": "Cancel", "role": "cancel"}]}})
        f = at_rest(app, renderer, sway, "a", scale, sized=("height",))
        measured = next(e for e in app.call("stack")["entries"] if e["id"] == "a")["preferredContentSize"]["height"]
        # A daemon that sizes the alert to its measure leaves no room over; one that keeps 180
        # shares what is over above and below the parts.
        over = (f["height"] - measured) / 2
        image = card_picture(sway, f, scale, f"alert-scale{scale}")
        rows = [[image.getpixel((x, y)) for x in range(image.width)] for y in range(image.height)]
        # Clear of the rounded corners, where the dimming shows.
        ink = [y for y, row in enumerate(rows) if any(sum(p) < 300 for p in row[20 * scale:-20 * scale])]
        buttons = [y for y, row in enumerate(rows) if sum(1 for p in row if close(p, (230, 230, 230), 6)) > 40 * scale]
        assert ink and buttons, "neither text nor buttons found on the alert"
        top, bottom = ink[0] / scale, (image.height - 1 - buttons[-1]) / scale
        # The title's first ink is a few points under its line's top (the font's ascent over its capitals).
        assert ALERT_TOP + over <= top <= ALERT_TOP + over + 6, f"top padding {top:g}, want {ALERT_TOP} (+{over:g}) to the line"
        assert abs(bottom - (ALERT_BOTTOM + over)) <= 2, f"bottom padding {bottom:g}, want {ALERT_BOTTOM} (+{over:g})"
        read = text_of(ocr_words(sway, image, scale))
        for word in ("Delete", "file?", "cannot", "undone", "Cancel"):
            assert word in read, f"OCR of the alert found no {word!r}: {read!r}"
