"""Sheets as apps use them, with the Python client against the real daemon (manual clock): a sheet with
detents (``presentd.sheet``), its grabber layer, a swipe that settles it at another detent
and ``update(selectedDetent=…)``, each a ``detentChanged`` event; reduced motion on and off
(``reduced_motion``, ``modes``); a right-to-left container and ``slideIn`` ``leading``; and
the topics the package names are the daemon's."""

from __future__ import annotations

import re
import typing

import pytest

import presentd
from presentd import Client, Frame, Lifecycle
from presentd.errors import InvalidParams
from presentd.types import Topic

from waiting import drain, lifecycle_event, wait_for


def detent_changed(client: Client, id: str) -> Lifecycle:
    return wait_for(client, f"detentChanged of {id}",
                    lambda e: isinstance(e, Lifecycle) and e.id == id and e.event == "detentChanged")


def test_a_sheet_rests_at_a_detent_and_moves_between_them(manual):
    with Client(manual.path) as c:
        c.subscribe(["lifecycle", "frames"])
        style = presentd.sheet("medium", "large", presentd.detent("peek", 120), undimmed="medium", grabber=True)
        assert style == {"type": "sheet", "detents": ["medium", "large", {"id": "peek", "height": 120}],
                         "largestUndimmedDetent": "medium", "grabber": True}
        c.present(id="s", style=style)
        c.advance(1)
        [entry] = c.stack()
        assert (entry.detent, entry.frame.height) == ("peek", 120)  # the smallest, none being selected
        assert entry.style["detents"][2] == {"id": "peek", "height": 120.0}
        frame = [e for e in drain(c) if isinstance(e, Frame)][-1]
        grabber = frame.layer("s", "grabber")
        assert grabber is not None and [l.role for l in frame.layers] == ["dimming", "content", "grabber"]
        content = frame.layer("s")
        assert (grabber.frame.width, grabber.frame.height) == (36, 5)
        assert grabber.frame.y == content.frame.y + 5 and grabber.color is not None

        # A flick up from peek: the projection passes medium, the nearest detent is large.
        assert c.swipe("began", 0, 0).outcome == "tracking"
        c.swipe("changed", 0, -100)
        released = c.swipe("ended", 0, -100, vy=-1500)
        assert (released.outcome, released.id, released.detent) == ("settled", "s", "large")
        assert detent_changed(c, "s").detent == "large"
        c.advance(1)
        assert c.stack()[0].detent == "large"

        c.update("s", selectedDetent="medium")
        assert detent_changed(c, "s").detent == "medium"
        with pytest.raises(InvalidParams) as refused:
            c.update("s", selectedDetent="tiny")
        assert refused.value.field == "selectedDetent"


def test_reduced_motion_cross_fades_until_it_is_turned_off(manual):
    with Client(manual.path) as c:
        c.subscribe(["lifecycle"])
        assert c.modes()["reducedMotion"] is False
        assert c.reduced_motion(True)["reducedMotion"] is True
        assert c.modes()["reducedMotion"] is True
        c.present(id="quiet", style="bottomHalf", transition={"type": "coverVertical", "duration": 0.3})
        faded = lifecycle_event(c, "quiet", "willPresent").animation
        assert faded.from_state.frame == faded.to_state.frame and faded.from_state.alpha == 0
        assert faded.to_state.alpha == 1
        assert c.reduced_motion(False)["reducedMotion"] is False
        c.advance(1)
        c.present(id="moving", style="bottomHalf", transition={"type": "coverVertical", "duration": 0.3})
        slid = lifecycle_event(c, "moving", "willPresent").animation
        assert slid.from_state.frame.y > slid.to_state.frame.y, "full motion again: it slides up"


def test_right_to_left_puts_leading_on_the_right(manual):
    with Client(manual.path) as c:
        assert c.hello().container.layout_direction == "leftToRight"
        container = c.set_container(390, 844, layout_direction="rightToLeft")
        assert container.layout_direction == "rightToLeft"
        c.present(id="panel", style={"type": "slideIn", "direction": "leading", "fraction": 0.5})
        c.advance(1)
        [entry] = c.stack()
        assert (entry.frame.x, entry.frame.width) == (195, 195), "leading is the right edge in right-to-left"
        outputs = c.add_output("side", 800, 600, layout_direction="rightToLeft")
        assert outputs["side"].container.layout_direction == "rightToLeft"
        assert outputs["main"].container.layout_direction == "rightToLeft"


def test_the_topics_are_the_daemons(manual):
    with Client(manual.path) as c:
        with pytest.raises(InvalidParams) as refused:
            c.subscribe(["no-such-topic"])  # type: ignore[list-item]
        named = set(re.findall(r'"(\w+)"', refused.value.message.split("expected one of", 1)[1].split("got")[0]))
        assert set(presentd.ALL_TOPICS) == named == set(typing.get_args(Topic)), refused.value.message
        assert set(presentd.DEFAULT_TOPICS) < set(presentd.ALL_TOPICS)
        c.subscribe(presentd.ALL_TOPICS)  # every one accepted
