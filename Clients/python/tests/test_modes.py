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
