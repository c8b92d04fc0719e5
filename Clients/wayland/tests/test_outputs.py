"""Outputs that go away under presentd-wayland (docs/WAYLAND.md, "Screens"): when main's output
leaves, main moves to a remaining output with its entries, is drawn there and answers a click;
an output that comes later is a screen of its own, and main stays; the --main output takes main
back when it comes.

sway 1.7's headless backend can neither disable an output (`output HEADLESS-1 disable` answers
success, logs "Failed to commit output" and changes nothing) nor destroy one, so these tests run
a sway nested in the headless one, on wlroots' Wayland backend: its outputs are windows of the
outer sway, and closing one's window unplugs the output, wl_output global and all."""

from __future__ import annotations

import os
import subprocess

import pytest

from presentd import Client
from presentd.daemon import find_binary, wait_until

from test_input import HELPER, Helper, click, find_colour, owner_event
from conftest import CARD
from test_wayland import close, present_measured, rest_frame, screen_ready, wait_pixels

BUTTON = (230, 230, 230)   # the theme's plain button (src/theme.c)


@pytest.fixture
def nested(sway_factory):
    """A headless sway, and a sway in it whose only output is WL-1. Each output is a floating
    window of 800x600 in the outer sway, so one that remains keeps its size when another leaves:
    presentd sends no new picture then, and main's must move with it."""
    if not HELPER.exists():
        pytest.skip(f"{HELPER} is not built (make -C Clients/wayland)")
    outer = sway_factory(width=1800, height=1000,
                         extra_config='for_window [title="^wlroots - WL-"] floating enable, resize set 800 600\n')
    inner = sway_factory(nested_in=outer)
    wait_until(lambda: list(inner.outputs()) == ["WL-1"], "the nested sway's one output, WL-1", context=inner.context)
    return inner


def size_of(sway, output: str):
    """An output's logical size now, as sway lays it out (the outer sway's tiling sizes it)."""
    rect = sway.outputs()[output]["rect"]
    return rect["width"], rect["height"]


def screens(app: Client) -> dict[str, tuple]:
    return {s["name"]: (s["container"]["width"], s["container"]["height"]) for s in app.call("outputs")["outputs"]}


def wait_screens(app: Client, sway, renderer, want: dict[str, str], what: str):
    """Until presentd's screens are exactly `want` (screen: the output it has the size of)."""
    def told():
        have = screens(app)
        return have == {name: size_of(sway, output) for name, output in want.items()} and have
    return wait_until(told, f"presentd's screens to be {want} at those outputs' sizes ({what})", timeout=60,
                      context=lambda: f"presentd has {screens(app)}, sway {[(n, size_of(sway, n)) for n in sway.outputs()]}; "
                                      f"{renderer.context()}")


def card_drawn(sway, output: str, f, renderer, what: str):
    """The card's colour inside the frame presentd reports, clear of its text."""
    points = ((f["x"] + 6, f["y"] + f["height"] / 2), (f["x"] + f["width"] - 6, f["y"] + f["height"] / 2),
              (f["x"] + f["width"] / 2, f["y"] + 4))

    def drawn(image):
        for x, y in points:
            pixel = image.getpixel((round(x), round(y)))
            assert close(pixel, CARD), f"the card at {x:g},{y:g} on {output}: {pixel}, want {CARD}"
    wait_pixels(sway, output, drawn, what, renderer)


def test_main_moves_to_the_remaining_output_is_drawn_there_and_a_click_answers_its_wait(daemon, nested,
                                                                                         renderer_factory):
    sway = nested
    helper = Helper(sway)
    renderer = renderer_factory(sway, daemon.path)
    asker = None
    try:
        with Client(daemon.path) as app:
            screen_ready(app, renderer, "main", *size_of(sway, "WL-1"), 1)
            asker = subprocess.Popen([find_binary("presentctl"), "--socket", daemon.path, "present", "--title", "Still here",
                                      "--action", "ok:OK", "--wait"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            entry = wait_until(lambda: next((e for e in app.call("stack")["entries"] if e["state"] == "presented"), None),
                               "presentctl's alert presented on main", timeout=60, context=renderer.context)
            card_drawn(sway, "WL-1", rest_frame(app, entry["id"]), renderer, "the alert drawn on WL-1, main's output")

            sway.msg("create_output")
            wait_until(lambda: "WL-2" in sway.outputs(), "the nested sway's second output, WL-2", context=sway.context)
            wait_screens(app, sway, renderer, {"main": "WL-1", "WL-2": "WL-2"}, "WL-2 plugged in")
            # Something on WL-2's own screen: it leaves with that screen when main moves there.
            app.call("subscribe", {"topics": ["lifecycle"], "outputs": ["WL-2"]})
            present_measured(app, {"id": "other", "style": "alert", "output": "WL-2",
                                   "content": {"title": "Elsewhere"}}, renderer)

            sway.unplug("WL-1")
            wait_until(lambda: "WL-1" not in sway.outputs(), "WL-1 unplugged", context=sway.context)
            wait_screens(app, sway, renderer, {"main": "WL-2"}, "main moved to WL-2, whose own screen went")
            assert [e["id"] for e in app.call("stack")["entries"]] == [entry["id"]], "main kept its alert"
            gone = owner_event(app, "WL-2's own alert leaving with its screen",
                               lambda e: getattr(e, "id", None) == "other" and getattr(e, "event", None) == "willDismiss",
                               renderer)
            assert gone.reason == "outputGone", gone
            f = wait_until(lambda: entry["state"] == "presented" and rest_frame(app, entry["id"]), "the alert's frame")
            card_drawn(sway, "WL-2", f, renderer, "the alert drawn on WL-2, where main moved")
            card = sway.screenshot("WL-2").crop(tuple(round(v) for v in (f["x"], f["y"], f["x"] + f["width"],
                                                                         f["y"] + f["height"])))
            path = os.path.join(sway.dir, "moved.png")
            card.save(path)
            text = subprocess.run(["tesseract", path, "-", "--psm", "6"], capture_output=True, text=True, timeout=60).stdout
            assert "Still" in text and "here" in text, f"OCR of the moved card found no title: {text!r}"

            # In the card's lower half, below the title (whose edges have grey pixels too).
            button = find_colour(sway.screenshot("WL-2"), (f["x"], f["y"] + f["height"] / 2, f["x"] + f["width"],
                                                           f["y"] + f["height"]), BUTTON)
            assert button, "the OK button is drawn in its colour on WL-2"
            at = sway.outputs()["WL-2"]["rect"]   # the cursor is set in the layout's coordinates
            click(sway, at["x"] + (button[0] + button[2]) / 2, at["y"] + (button[1] + button[3]) / 2)
            out, err = asker.communicate(timeout=60)
            assert (asker.returncode, out.strip()) == (0, "ok"), f"presentctl --wait: {asker.returncode} {out!r} {err!r}"

            sway.msg("create_output")
            wait_until(lambda: "WL-3" in sway.outputs(), "the nested sway's third output, WL-3", context=sway.context)
            wait_screens(app, sway, renderer, {"main": "WL-2", "WL-3": "WL-3"}, "WL-3 plugged in: its own screen, main stays")
        assert renderer.process.poll() is None, renderer.context()
    finally:
        if asker and asker.poll() is None:
            asker.kill()
            asker.communicate()
        helper.stop()


def test_the_main_output_takes_main_back_when_it_comes(manual, nested, renderer_factory):
    sway = nested
    renderer = renderer_factory(sway, manual.path, "--main", "WL-2")
    with Client(manual.path) as app:
        # WL-2 is not there yet: main is not left without an output meanwhile.
        wait_screens(app, sway, renderer, {"main": "WL-1"}, "main on WL-1 until WL-2 comes")
        present_measured(app, {"id": "m", "style": "alert", "content": {"title": "Moved"},
                               "background": {"opacity": 0}}, renderer)
        app.call("advance", {"seconds": 1})
        sway.msg("create_output")
        wait_until(lambda: "WL-2" in sway.outputs(), "the nested sway's second output, WL-2", context=sway.context)
        wait_screens(app, sway, renderer, {"main": "WL-2", "WL-1": "WL-1"}, "WL-2 takes main, WL-1 its own screen")
        assert [e["id"] for e in app.call("stack")["entries"]] == ["m"], "main kept its alert"
        app.call("advance", {"seconds": 1})
        card_drawn(sway, "WL-2", rest_frame(app, "m"), renderer, "main's alert drawn on WL-2")


def test_with_no_output_left_main_keeps_its_entries_and_the_next_output_is_main(manual, nested, renderer_factory):
    sway = nested
    renderer = renderer_factory(sway, manual.path)
    with Client(manual.path) as app:
        wait_screens(app, sway, renderer, {"main": "WL-1"}, "main on WL-1")
        present_measured(app, {"id": "k", "style": "alert", "content": {"title": "Kept"},
                               "background": {"opacity": 0}}, renderer)
        app.call("advance", {"seconds": 1})
        sway.unplug("WL-1")
        wait_until(lambda: not sway.outputs(), "the nested sway without outputs", context=sway.context)
        sway.msg("create_output")
        wait_until(lambda: "WL-2" in sway.outputs(), "the nested sway's next output, WL-2", context=sway.context)
        wait_screens(app, sway, renderer, {"main": "WL-2"}, "the next output to come is main")
        assert [e["id"] for e in app.call("stack")["entries"]] == ["k"], "main kept its alert"
        card_drawn(sway, "WL-2", rest_frame(app, "k"), renderer, "main's alert drawn on WL-2")
