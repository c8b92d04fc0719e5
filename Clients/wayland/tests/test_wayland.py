"""presentd-wayland on a real headless sway, read back with grim: the dimming, the card in the
frame the daemon reports (times the output's scale), the title by OCR, the card's edge
mid-transition on the manual clock, two outputs each with its own screen, idle without
wake-ups, a daemon restart, and the compositor going away."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from presentd import Client
from presentd.daemon import wait_until

# The theme's default card colour (src/theme.c) and what counts as "that colour".
CARD = (250, 250, 250)
TOLERANCE = 4
ALERT = {
    "title": "Delete file?", "message": "It cannot be undone",
    "actions": [{"id": "ok", "title": "Delete", "role": "destructive"}, {"id": "no", "title": "Cancel", "role": "cancel"}],
}


def close(pixel, expected, tolerance=TOLERANCE) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, expected))


def over(color, alpha, base):
    """color at alpha over base, rounded as an 8-bit compositor rounds."""
    return tuple(round(c * alpha + b * (1 - alpha)) for c, b in zip(color, base))


def hex_rgb(text):
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


def screen_ready(client: Client, renderer, name: str, width: float, height: float, scale: float):
    """Waits until the daemon's screen `name` has the output's size: the renderer told it."""
    def told():
        o = client.call("outputs")["outputs"]
        screen = next((s for s in o if s["name"] == name), None)
        c = screen and screen["container"]
        return c and (c["width"], c["height"], c["scale"]) == (width, height, scale) and screen
    return wait_until(told, f"presentd's screen {name} to be {width:g}x{height:g} at scale {scale:g}",
                      timeout=60, context=renderer.context)


def rest_frame(client: Client, id: str, output: str = "main"):
    entry = next(e for e in client.call("stack", {"output": output})["entries"] if e["id"] == id)
    return entry["frame"]


def wait_pixels(sway, output, check, what, renderer):
    """Screenshots until check(image) holds (it raises AssertionError saying what it saw)."""
    return wait_until(lambda: check(sway.screenshot(output)) or True, what, timeout=60, context=renderer.context,
                      interval=0.05)


def test_help_names_every_option():
    from conftest import RENDERER
    out = subprocess.run([str(RENDERER), "--help"], capture_output=True, text=True, timeout=10)
    assert out.returncode == 0
    for option in ("--socket", "--main", "--theme"):
        assert option in out.stdout


def test_an_alert_dims_the_output_and_draws_its_card_and_title_at_scale_2(manual, sway_factory, renderer_factory):
    sway = sway_factory(width=1280, height=720, scale=2)
    renderer = renderer_factory(sway, manual.path)
    with Client(manual.path) as app:
        screen_ready(app, renderer, "main", 640, 360, 2)
        base = wait_until(lambda: sway.screenshot().getpixel((2, 2)), "a first screenshot")
        app.call("present", {"id": "a", "style": "alert", "content": ALERT,
                             "background": {"color": "#3366cc", "opacity": 0.5}})
        app.call("advance", {"seconds": 1})
        f = rest_frame(app, "a")
        dimmed = over(hex_rgb("#3366cc"), 0.5, base)

        def drawn(image):
            w, h = image.size
            for corner in ((1, 1), (w - 2, 1), (1, h - 2), (w - 2, h - 2)):
                assert close(image.getpixel(corner), dimmed), f"corner {corner}: {image.getpixel(corner)}, want {dimmed}"
            # Inside the card, clear of its text and buttons: left and right margins, mid-height; the top margin.
            for px, py in ((f["x"] + 6, f["y"] + f["height"] / 2), (f["x"] + f["width"] - 6, f["y"] + f["height"] / 2),
                           (f["x"] + f["width"] / 2, f["y"] + 6)):
                pixel = image.getpixel((round(px * 2), round(py * 2)))
                assert close(pixel, CARD), f"card at {px:g},{py:g} (points): {pixel}, want {CARD}"
            # Just outside the frame (beyond the shadow): dimmed.
            outside = image.getpixel((round((f["x"] - 30) * 2), round((f["y"] + f["height"] / 2) * 2)))
            assert close(outside, dimmed, 12), f"left of the card: {outside}, want {dimmed}"

        wait_pixels(sway, "HEADLESS-1", drawn, "the alert drawn at rest, dimmed around", renderer)
        card = sway.screenshot().crop(tuple(round(v * 2) for v in (f["x"], f["y"], f["x"] + f["width"], f["y"] + f["height"])))
        path = os.path.join(sway.dir, "card.png")
        card.save(path)
        text = subprocess.run(["tesseract", path, "-", "--psm", "6"], capture_output=True, text=True, timeout=60).stdout
        for word in ("Delete", "file?", "cannot", "undone"):
            assert word in text, f"OCR of the card found no {word!r}: {text!r}"


def _edge(image, along, fixed, start, stop, background, card):
    """Where the card begins along a line from start (outside it) to stop (inside), to a
    fraction of a pixel: the first pixel the card covers at all, less its coverage (pixel i
    spans [i, i+1), so an edge at e covers i + 1 - e of it)."""
    def coverage(i):
        p = image.getpixel((i, fixed) if along == "x" else (fixed, i))
        return (sum(p) - sum(background)) / (sum(card) - sum(background))
    for i in range(start, stop):
        c = coverage(i)
        if c > 0.05:
            return i + 1 - min(c, 1.0)
    raise AssertionError(f"no card edge along {along} at {fixed} from {start} to {stop}")


@pytest.mark.parametrize("transition, measure", [
    ({"type": "coverVertical", "duration": 1, "timing": "linear"}, "top"),
    ({"type": "zoom", "duration": 1, "timing": "easeInEaseOut"}, "left"),
    ({"type": "coverVertical", "timing": {"spring": {"mass": 1, "stiffness": 60, "damping": 9}}}, "top"),
], ids=["slide", "zoom", "spring"])
def test_mid_transition_the_card_edge_is_the_daemons_frame(manual, sway_factory, renderer_factory, transition, measure):
    sway = sway_factory(width=800, height=600, scale=1)
    renderer = renderer_factory(sway, manual.path)
    with Client(manual.path) as app, Client(manual.path) as watcher:
        screen_ready(app, renderer, "main", 800, 600, 1)
        base = wait_until(lambda: sway.screenshot().getpixel((2, 2)), "a first screenshot")
        watcher.subscribe(["frames"])
        app.call("present", {"id": "m", "style": "alert", "content": {"title": "Moving"}, "transition": transition,
                             "background": {"color": "#000000", "opacity": 0.4}})
        t = app.call("advance", {"seconds": 0.3})["time"]
        frame = None
        while frame is None or frame.time < t - 1e-9:
            event = watcher.next_event(timeout=30)
            assert event is not None, f"no frame at {t} from the daemon"
            if getattr(event, "layers", None) is not None:
                frame = event
        layer = frame.layer("m")
        dim = frame.layer("m", "dimming")
        f, s = layer.frame, layer.scale
        assert layer.alpha > 0.5 and 0 < s, f"mid-transition the card is visible: {layer}"
        left, top = f.x + f.width / 2 - f.width * s / 2, f.y + f.height / 2 - f.height * s / 2
        background = over((0, 0, 0), dim.alpha, base)
        rest = rest_frame(app, "m")
        rest_edge = rest["y"] if measure == "top" else rest["x"]
        assert abs((top if measure == "top" else left) - rest_edge) > 10, "at 0.3 s the card is still well away from rest"

        def at_frame(image):
            assert close(image.getpixel((2, 2)), background, 6), f"the dimming at {t}: {image.getpixel((2, 2))}"
            card = over(CARD, layer.alpha, background)
            if measure == "top":
                line, want, size = round(f.x + f.width / 2), top, image.size[1]
            else:
                line, want, size = round(f.y + f.height / 2), left, image.size[0]
            edge = _edge(image, "y" if measure == "top" else "x", line, max(0, int(want) - 40), min(size, int(want) + 40),
                         background, card)
            assert abs(edge - want) <= 1, f"the card's {measure} edge at {t}: {edge:.2f} px, the daemon's frame says {want:.2f}"
            print(f"{transition['type']} {measure} edge at t={t}: drawn {edge:.2f} px, daemon {want:.2f} px (rest {rest_edge:g})")

        wait_pixels(sway, "HEADLESS-1", at_frame, f"the card drawn at the daemon's frame for t={t}", renderer)
