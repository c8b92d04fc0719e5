"""What an app sends is what the person sees: real notifications (corpus.py) sent over a private session
bus to presentd-notify, drawn by presentd-wayland on a headless sway, read back by grim and
tesseract; and alerts, sheets, toasts and dialogs with fields from presentctl, at scales 1
and 2 and right to left.

For each one: OCR finds the title's words and the message's first words; a text is either
drawn whole or ends in an ellipsis (glass.ellipsised: as tesseract reads pango's "…"); the
card lies inside its output and covers no other card (frames from presentd's stack). One
desktop serves a whole module: notifications are sent four at a time, shot once, and each
card's crop read on its own, so the suite takes about a minute.

Each test collects every problem of its card and reports them together, with the OCR text
and the crop's path."""

from __future__ import annotations

import pytest
from conftest import _skip_reason
from corpus import CORPUS, PNG, icon_png, variants
from glass import Glass, found, inside, overlap, plain, text_problems, words

BATCH = 4  # notifications on screen at once: four cards fit a 1080 px column at any height up to 250 pt


def _batches(corpus: list[dict]) -> list[list[dict]]:
    """BATCH entries a batch, a replacement in the batch of the entry it replaces."""
    batches: list[list[dict]] = []
    for n in corpus:
        if n.get("replaces"):
            batches[-1].append(n)
        elif batches and sum(not m.get("replaces") for m in batches[-1]) < BATCH:
            batches[-1].append(n)
        else:
            batches.append([n])
    return batches


@pytest.fixture(scope="module")
def notifications(tmp_path_factory):
    """Every corpus entry sent, on glass, read: name → (entry, its card's reading, its frame,
    the batch's frames, the D-Bus id, the id it replaced or None)."""
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    png = str(tmp_path_factory.mktemp("icons") / "icon.png")
    icon_png(png)
    results: dict[str, dict] = {}
    with Glass(1920, 1080, 1, notifications=True, pictures=str(tmp_path_factory.mktemp("cards"))) as glass:
        for batch in _batches(CORPUS):
            ids: dict[str, int] = {}
            for n in batch:
                replaces = ids[n["replaces"]] if n.get("replaces") else 0
                ids[n["name"]] = glass.notify(n["app"], replaces, png if n["icon"] == PNG else n["icon"], n["summary"],
                                              n["body"], n["actions"], variants(n["hints"], png), n["timeout"])
            cards = len(set(ids.values()))
            entries, shot = glass.settle(cards)
            frames = {id: e["frame"] for id, e in entries.items()}
            for n in batch:
                id = glass.bridge.entry(ids[n["name"]])
                entry = entries.get(id)
                results[n["name"]] = dict(
                    dbus_id=ids[n["name"]], replaced=ids.get(n.get("replaces")), entry=entry,
                    others=[f for other, f in frames.items() if other != id],
                    reading=glass.read(shot, entry["frame"], n["name"]) if entry else None,
                    output=(glass.width / glass.scale, glass.height / glass.scale))
            glass.close_all()
        yield results


def _card_problems(result: dict) -> list[str]:
    """Where the card is: inside its output, over no other card."""
    frame = result["entry"]["frame"]
    problems = []
    if not inside(frame, *result["output"]):
        problems.append(f"card {frame} is not inside the {result['output'][0]:g}x{result['output'][1]:g} output")
    for other in result["others"]:
        if overlap(frame, other):
            problems.append(f"card {frame} covers another card {other}")
    return problems


# A notification that another replaces in its batch shows the replacement's text by the shot:
# its card is read as the replacement (test_a_replacement_updates_the_card_in_place has both).
SHOWN = [n for n in CORPUS if not any(other.get("replaces") == n["name"] for other in CORPUS)]


@pytest.mark.parametrize("n", SHOWN, ids=lambda n: n["name"])
def test_notification_reaches_the_glass(notifications, n):
    result = notifications[n["name"]]
    assert result["entry"], f"{n['name']}: no entry on presentd's stack"
    reading = result["reading"]
    problems = _card_problems(result)
    problems += text_problems("summary", n["summary"], reading)
    body = plain(n["body"])
    if n.get("ocr", True):
        problems += text_problems("body", body, reading)
        if "<" in n["body"] and any(tag in reading.text for tag in ("<b>", "</", "<i>", "<a ", "&amp;", "&lt;")):
            problems.append("body: markup drawn as text")
    # The buttons: every action but "default" (the click on the card) and inline-reply (a field).
    pairs = list(zip(n["actions"][::2], n["actions"][1::2]))
    drawn_elsewhere = set(words(n["summary"] + " " + body))
    for key, label in pairs:
        if key == "inline-reply":
            placeholder = n["hints"].get("x-kde-reply-placeholder-text", ("s", ""))[1]
            if placeholder and not all(found(w, reading) for w in words(placeholder)):
                problems.append(f"the reply field's placeholder {placeholder!r} is not drawn")
        elif key == "default":
            # An empty label: a button would show the key, as today's does ("default").
            shown = label or key
            others = set(words(" ".join(l for k, l in pairs if k != "default"))) | drawn_elsewhere
            if not set(words(shown)) & others and all(found(w, reading) for w in words(shown)):
                problems.append(f"the default action is drawn as a button {shown!r} (it is the click on the card)")
        elif not all(found(w, reading) for w in words(label)):
            problems.append(f"the action {label!r} is not drawn")
    # The app's name, the last in the order of importance, is still drawn (whole or elided).
    problems += text_problems("app name", n["app"], reading, first=1)
    if problems and n.get("known"):
        # A reading that is known to go wrong for a reason of the test's own, not the card's
        # (the card was looked at): reported as such, with what was read, until it is fixed.
        pytest.xfail(f"{n['name']}: {n['known']}: " + "; ".join(problems))
    assert not problems, f"{n['name']} ({n['note']}):\n  " + "\n  ".join(problems) + f"\n{reading!r}"


def test_a_replacement_updates_the_card_in_place(notifications):
    old, new = notifications["download-start"], notifications["download-progress"]
    assert new["dbus_id"] == old["dbus_id"], "replaces_id did not keep the notification's id"
    assert old["entry"]["id"] == new["entry"]["id"]
    assert found("2.4", new["reading"]) and not found("120", new["reading"]), \
        f"the card does not show the replacement's body: {new['reading']!r}"


def test_the_text_rules_tell_whole_cut_and_lost_apart():
    """glass's rules on what tesseract read of today's renderer's cards (ellipses as pango
    draws them, read at scale 1): drawn whole, cut with an ellipsis, cut silently, lost."""
    from glass import Reading
    title = "This is a very long title that will certainly not fit on a single line"
    assert text_problems("t", title, Reading("This is a very long title th...", [], "-")) == []
    body = ("alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november "
            "oscar papa quebec romeo sierra tango")
    assert text_problems("b", body, Reading("alpha bravo charlie\ndelta echo fo...", [], "-")) == []
    assert text_problems("b", body, Reading("alpha bravo charlie delta\necho foxtrot g.", [], "-")) == []
    assert text_problems("b", body, Reading("alpha bravo charlie delta", [], "-")) == [
        "b: 4 of 20 words drawn and no ellipsis: cut silently"]
    assert text_problems("b", body, Reading("alpha charlie delta …", [], "-")) == [
        "b: its first words ['alpha', 'bravo', 'charlie'] are not all drawn (missing ['bravo'])"]
    assert text_problems("b", "Only 1.2 GB left.", Reading("Only 1.2 GB left.", [], "-")) == []
    assert text_problems("s", "Title here", Reading("Open", [], "-")) == ["s: not drawn at all (2 words)"]
    assert plain('<b>Build</b> &amp; <a href="x">log</a>') == "Build & log"


# --- presentctl's dialogs, sheets, toasts --------------------------------------------------

KINDS = {
    "alert": dict(args=["present", "--title", "Delete file?", "--message", "It cannot be undone",
                        "--action", "ok:Delete:destructive", "--action", "no:Cancel:cancel", "--wait"],
                  texts=["Delete file?", "It cannot be undone"], buttons=["Delete", "Cancel"]),
    "sheet": dict(args=["present", "--title", "Share photo", "--message", "Send this photo to your contacts",
                        "--detents", "medium,large", "--grabber", "--action", "ok:Send:default",
                        "--action", "no:Cancel:cancel", "--wait"],
                  texts=["Share photo", "Send this photo to your contacts"], buttons=["Send", "Cancel"]),
    "toast": dict(args=["toast", "Saved to ~/Documents/report.pdf", "--after", "600"],
                  texts=["Saved to ~/Documents/report.pdf"], buttons=[]),
    "dialog": dict(args=["present", "--title", "Rename file", "--message", "Choose a new name for the file",
                         "--field", "name:text:New name", "--value", "name=draft.txt",
                         "--action", "ok:Rename:default", "--action", "no:Cancel:cancel", "--wait"],
                   # The value, draft.txt, is drawn selected (the accent's tint behind it, as GTK
                   # selects an entry's text on focus), which tesseract does not read reliably:
                   # test_focus.py checks the selection's pixels, test_wayland.py reads a value.
                   texts=["Rename file", "Choose a new name for the file"], buttons=["Rename", "Cancel"]),
}

SCREENS = {"scale1": (1920, 1080, 1, "leftToRight"), "scale2": (2560, 1440, 2, "leftToRight"),
           "rtl": (1920, 1080, 1, "rightToLeft")}


@pytest.fixture(scope="module")
def presented(tmp_path_factory):
    """Each kind presented alone with presentctl on each screen, at rest, read:
    (screen, kind) → {entry, reading, output}."""
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    results, pictures = {}, str(tmp_path_factory.mktemp("presented"))
    glasses: dict[tuple, Glass] = {}
    try:
        for screen, (w, h, scale, direction) in SCREENS.items():
            glass = glasses.get((w, h, scale))
            if glass is None:
                glass = glasses[(w, h, scale)] = Glass(w, h, scale, pictures=pictures)
            glass.set_direction(direction)
            for kind, spec in KINDS.items():
                ctl = glass.presentctl(*spec["args"])
                try:
                    entries, shot = glass.settle(1)
                    entry = next(iter(entries.values()))
                    results[(screen, kind)] = dict(entry=entry, output=(w / scale, h / scale),
                                                   reading=glass.read(shot, entry["frame"], f"{screen}-{kind}"))
                    glass.close_all()
                finally:
                    ctl.terminate()
                    ctl.wait(30)
        yield results
    finally:
        for glass in glasses.values():
            glass.stop()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("screen", SCREENS)
def test_presentation_reaches_the_glass(presented, screen, kind):
    result, spec = presented[(screen, kind)], KINDS[kind]
    frame, reading = result["entry"]["frame"], result["reading"]
    problems = [] if inside(frame, *result["output"]) else [f"card {frame} is not inside the output {result['output']}"]
    for i, text in enumerate(spec["texts"]):
        problems += text_problems("title" if i == 0 else f"text {text!r}", text, reading)
    problems += [f"button {b!r} is not drawn" for b in spec["buttons"] if not found(b, reading)]
    if kind == "toast" and frame["width"] > 600:
        # libadwaita's toast is a pill sized to its title (desktop-layout anchors, "Toasts").
        problems.append(f"the toast is {frame['width']:g} pt wide for one short line: a bar, not a pill")
    if kind == "sheet":
        top = reading.top_of("Share")
        if top is None or top > 56:
            problems.append(f"the sheet's title is {top} pt below its top: not a header bar (56 pt at most)")
    if kind == "alert":
        top = reading.top_of("Delete")
        # libadwaita's AdwAlertDialog: 32 pt of padding above the heading (desktop-layout
        # anchors, "Alerts"; docs/WAYLAND.md): its glyphs' top a few points lower. Before,
        # the title was centred in a fixed card, 47 pt down.
        if top is None or top > 40:
            problems.append(f"the alert's title begins {top} pt below its top (libadwaita: 32 and the line's leading, 40 at most)")
    assert not problems, f"{kind} on {screen}:\n  " + "\n  ".join(problems) + f"\n{reading!r}"


# --- the README's pictures --------------------------------------------------------------

@pytest.mark.parametrize("mode", ["--alert", "--sheet", "--notification", "--toast"])
def test_each_screenshot_mode_takes_its_picture(tmp_path, mode):
    """screenshot.py's modes run to a picture: the whole screen, or cut to the overlay's
    frame; with the card in it (its light fill, where the wallpaper is dark throughout).
    How the card looks is the tests' above; this is that the integrator's command works."""
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    import screenshot
    from PIL import Image
    out = tmp_path / "picture.png"
    screenshot.shoot(str(out), mode, scale=1)
    picture = Image.open(out).convert("RGB")
    if mode in screenshot.CUT:
        assert picture.width < 800 or picture.height < 500, f"{mode}: {picture.size}, not cut to the overlay"
    else:
        assert picture.size == (800, 500), f"{mode}: {picture.size}, not the whole 800x500 screen"
    light = sum(1 for p in picture.getdata() if min(p) > 230)
    assert light > 0.05 * picture.width * picture.height, f"{mode}: no card in the picture ({light} light pixels)"
