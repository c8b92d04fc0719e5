"""Do not disturb, dry runs and explain with the Python client against the real daemon
(manual clock): a held entry, what explain and a dry run say, the drain when it ends, a
droppable toast refused naming its field."""

from __future__ import annotations

import pytest

from presentd import Client
from presentd.errors import RPCError


def test_held_then_released_and_the_dry_run_said_when(manual):
    from waiting import lifecycle_event

    with Client(manual.path) as c:
        c.subscribe(["lifecycle"])
        mode = c.do_not_disturb(duration=2, allow_priority_above=300)
        assert mode["doNotDisturb"]["until"] == 2.0
        assert c.present(id="held", style="popup", priority=300).state == "queued"
        forecast = c.dry_run(style="alert", priority=301)
        assert (forecast["outcome"], forecast["startsAt"]) == ("presenting", 0.0)
        why = c.explain("held")
        assert why["blockers"]["heldBy"] == "doNotDisturb" and why["startsAt"] == 2.0
        with pytest.raises(RPCError) as refused:
            c.present(style="popup", level="overlay", priority=100, droppable=True)
        assert refused.value.code == -32006 and refused.value.field == "droppable"
        c.advance(3)
        assert lifecycle_event(c, "held", "willPresent").time == 2.0
        assert c.end_do_not_disturb()["doNotDisturb"] is None


def test_mode_notifications_arrive_typed(manual):
    from presentd import ModeChange
    from waiting import wait_for

    with Client(manual.path) as c:
        c.subscribe(["modes"])
        c.do_not_disturb(duration=2, allow_priority_above=300)
        on = wait_for(c, "mode: do not disturb on", lambda e: isinstance(e, ModeChange))
        assert (on.reason, on.do_not_disturb["until"], on.reduced_motion, on.released) == ("request", 2.0, False, ())
        assert on.output == "main" and on.seq > 0
        c.present(id="held", style="popup", priority=300)
        c.advance(3)
        off = wait_for(c, "mode: do not disturb over", lambda e: isinstance(e, ModeChange))
        assert (off.reason, off.do_not_disturb, off.time, off.released) == ("until", None, 2.0, ("held",))
        c.reduced_motion(True)
        reduced = wait_for(c, "mode: reduced motion on", lambda e: isinstance(e, ModeChange))
        assert reduced.reduced_motion is True and reduced.seq > off.seq


def test_animations_arrive_typed_with_their_segments(manual):
    from presentd import MotionChange
    from waiting import wait_for

    with Client(manual.path) as c:
        c.subscribe(["animations"])
        c.present(id="a", style="alert", transition={"type": "coverVertical", "duration": 0.4})
        motion = wait_for(c, "animations with the alert", lambda e: isinstance(e, MotionChange) and e.layers)
        content = [i for i, l in enumerate(motion.layers) if (l.id, l.role) == ("a", "content")]
        assert content, f"no content layer of a in {motion.layers}"
        [segment] = motion.segments[content[0]]
        assert segment["duration"] == 0.4 and segment["from"]["frame"]["y"] > 0
        assert motion.end == motion.time + 0.4 and len(motion.segments) == len(motion.layers)
