"""Levels, taps that pass through and presentation contexts with the sync and asyncio
clients, against the real daemon on the manual clock: a toast above a modal that leaves on
its own, a forwarded tap, a context that confines its sheet and takes it along when it goes."""

from __future__ import annotations

import asyncio

import presentd
from presentd import AsyncClient, Client, Frame, InvalidParams, Layer, Lifecycle, Rect, TapResult
from test_aio import run
from waiting import DEADLINE, drain, lifecycle_event

import pytest

QUICK = {"type": "crossDissolve", "duration": 0}


def last_frame(events) -> Frame:
    frames = [e for e in events if isinstance(e, Frame)]
    assert frames, f"no frame among {events}"
    return frames[-1]


# MARK: - The types


def test_toast_builds_an_overlay_with_an_auto_dismiss():
    t = presentd.toast("Saved", after=3, position="bottom", margin=12, id="t")
    assert (t["level"], t["position"], t["margin"], t["autoDismiss"], t["id"]) == ("overlay", "bottom", 12,
                                                                                    {"after": 3}, "t")
    assert t["style"] == {"type": "custom", "width": "content", "height": "content"}, "sized to its text"
    assert presentd.toast("x", height=48)["style"] == {"type": "custom", "width": "content", "height": {"points": 48}}
    assert t["transition"]["type"] == "coverVertical"
    assert presentd.toast("x")["transition"]["type"] == "coverVerticalFromTop"
    assert presentd.toast("x", position="center")["transition"]["type"] == "crossDissolve"
    assert "autoDismiss" not in presentd.toast("x", after=None)


def test_layers_entries_and_taps_read_the_new_fields():
    layer = Layer.from_json({"id": "a", "role": "content", "level": "overlay",
                             "clip": {"x": 0, "y": 100, "width": 390, "height": 600}, "frame": {}})
    assert (layer.level, layer.clip) == ("overlay", Rect(0, 100, 390, 600))
    assert Layer.from_json({"id": "a", "role": "dimming"}).level == "normal"
    assert Layer.from_json({"id": "a", "role": "dimming"}).clip is None
    entry = presentd.StackEntry.from_json({"id": "t", "level": "overlay", "position": "top", "context": "mail"})
    assert (entry.level, entry.position, entry.context) == ("overlay", "top", "mail")
    assert TapResult.from_json({"part": "none", "dismissed": False, "forwarded": True}).forwarded
    hit = TapResult.from_json({"part": "content", "dismissed": False, "id": "t", "role": "content", "level": "alert"})
    assert (hit.id, hit.role, hit.level, hit.forwarded) == ("t", "content", "alert", False)
    assert Rect.of((1, 2, 3, 4)) == Rect.of({"x": 1, "y": 2, "width": 3, "height": 4}) == Rect(1, 2, 3, 4)
    assert Rect(0, 100, 390, 600).contains(0, 100) and not Rect(0, 100, 390, 600).contains(390, 100)


# MARK: - Against the daemon


def test_a_toast_above_a_modal_presents_at_once_draws_above_it_and_leaves_on_its_own(manual):
    with Client(manual.path) as app, Client(manual.path) as screen:
        screen.subscribe(["frames", "lifecycle"])
        app.present(id="modal", style="alert", interaction="absorb",
                    transition={"type": "crossDissolve", "duration": 1})
        app.advance(0.2)
        toast = app.toast("Saved", id="saved", after=2)
        assert toast.state == "presenting", "an overlay does not wait for the modal's transition"
        modal, saved = app.stack()
        assert (modal.level, modal.position, saved.level, saved.position) == ("normal", None, "overlay", "top")
        # The safe area is 390 wide from y 47: the toast, a 300 x 36 pill until a renderer
        # measures its text, sits 8 below its top, centred.
        assert saved.frame == Rect(45, 55, 300, 36)
        app.advance(0.3)
        frame = last_frame(drain(screen))
        assert [(l.id, l.role, l.level) for l in frame.layers] == [
            ("modal", "dimming", "normal"), ("modal", "content", "normal"), ("saved", "content", "overlay")]
        assert frame.layer("saved", "dimming") is None, "an overlay never dims"
        # A tap on the toast hits it; one beside it falls to the modal's dimming.
        hit = screen.tap(195, 70)
        assert (hit.part, hit.id, hit.role, hit.level, hit.forwarded) == ("content", "saved", "content", "overlay", False)
        below = screen.tap(5, 300)
        assert (below.part, below.id, below.level, below.dismissed) == ("dimming", "modal", "normal", False)
        # Presented at 0.45 s (0.25 s in), it leaves 2 s later by itself; the modal stays.
        app.advance(2.0)
        gone = lifecycle_event(screen, "saved", "willDismiss")
        assert gone.reason == "timeout" and gone.time == pytest.approx(2.45)
        app.advance(0.5)
        lifecycle_event(screen, "saved", "didDismiss")
        assert [(e.id, e.state) for e in app.stack()] == [("modal", "presented")]


def test_a_forwarding_dimming_lets_the_tap_through_to_the_app_underneath(manual):
    with Client(manual.path) as app:
        app.present(id="hint", style="bottomHalf", interaction="forward", transition=QUICK)
        app.advance(0.1)
        through = app.tap(10, 100)
        assert (through.part, through.dismissed, through.forwarded, through.id) == ("none", False, True, None)
        on = app.tap(195, 700)
        assert (on.part, on.id, on.role, on.level, on.forwarded) == ("content", "hint", "content", "normal", False)
        assert [e.id for e in app.stack()] == ["hint"]
        with pytest.raises(InvalidParams) as e:
            app.present(style="alert", level="overlay", interaction="absorb")
        assert e.value.field == "interaction"


def test_a_context_confines_its_sheet_and_taking_it_away_dismisses_it(manual):
    with Client(manual.path) as shell, Client(manual.path) as app:
        sub = shell.subscribe(["frames", "lifecycle"])
        assert sub.snapshot.contexts == {}
        assert shell.define_context("mail", (0, 100, 390, 600)) == {"mail": Rect(0, 100, 390, 600)}
        assert app.contexts() == {"mail": Rect(0, 100, 390, 600)}
        app.present(id="compose", style="bottomHalf", context="mail", transition=QUICK)
        app.advance(0.1)
        [entry] = app.stack()
        assert entry.context == "mail"
        assert entry.frame.y >= 100 and entry.frame.max_y <= 700, f"laid out inside the context: {entry.frame}"
        frame = last_frame(drain(shell))
        assert {l.role: l.clip for l in frame.layers if l.id == "compose"} == {
            "dimming": Rect(0, 100, 390, 600), "content": Rect(0, 100, 390, 600)}
        assert frame.layer("compose", "dimming").frame == Rect(0, 100, 390, 600), "its dimming covers only the context"
        # Outside the context nothing takes the tap.
        assert shell.tap(10, 50).forwarded
        with Client(manual.path) as late:
            assert late.subscribe(["stack"]).snapshot.contexts == {"mail": Rect(0, 100, 390, 600)}
        # Moving the context takes the sheet along.
        shell.define_context("mail", {"x": 0, "y": 200, "width": 390, "height": 500}, duration=0)
        app.advance(0.1)
        assert app.stack()[0].frame.max_y <= 700 and app.stack()[0].frame.y >= 200
        assert shell.remove_context("mail") == ["compose"]
        assert lifecycle_event(shell, "compose", "willDismiss").reason == "contextGone"
        assert app.contexts() == {}
        with pytest.raises(InvalidParams) as e:
            app.present(style="popup", context="mail")
        assert e.value.field == "context"


@run
async def test_asyncio_toast_tap_and_context(manual):
    async with await AsyncClient.connect(manual.path) as shell, await AsyncClient.connect(manual.path) as app:
        async with await shell.subscribe(["lifecycle"]) as sub:
            assert await shell.define_context("side", Rect(0, 0, 195, 844)) == {"side": Rect(0, 0, 195, 844)}
            presented, _ = await asyncio.gather(app.toast("Copied", id="copied", position="bottom", after=1),
                                                app.present(id="panel", style="popup", context="side",
                                                            transition=QUICK))
            assert presented.state == "presenting"
            await app.advance(0.5)
            entries = {e.id: e for e in await app.stack()}
            assert (entries["copied"].level, entries["copied"].position) == ("overlay", "bottom")
            assert entries["panel"].context == "side"
            # The safe area ends 34 above the bottom: the toast sits 8 above that.
            assert entries["copied"].frame.max_y == 844 - 34 - 8
            assert (await shell.tap(300, 400)).forwarded, "right of the context, nothing takes it"
            assert await shell.remove_context("side") == ["panel"]
            await app.advance(1.0)
            reasons = {}
            while len(reasons) < 2:
                event = await asyncio.wait_for(sub.client.next_event(), DEADLINE)
                if isinstance(event, Lifecycle) and event.event == "willDismiss":
                    reasons[event.id] = event.reason
            assert reasons == {"panel": "contextGone", "copied": "timeout"}
            assert await app.contexts() == {}
