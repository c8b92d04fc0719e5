"""Content and conversation with the synchronous client, against the real daemon: what an
entry shows, `update`, `activate`, `key`, `focus`, the owner's `action` events and `ask()`.

`ask()` blocks its connection, so each test runs it in a thread on the owner's client and
plays the person at the screen from a second connection; every wait is for an event, with
a deadline and a message saying what it waited for."""

from __future__ import annotations

import concurrent.futures

import pytest

import presentd
from presentd import (Action, ActionEvent, Client, Content, Contents, Field, Frame, InvalidParams, Lifecycle,
                      StackChanged)
from waiting import DEADLINE, drain, lifecycle_event, wait_for

QUESTION = Content(
    title="Save changes?", message="Your edits to report.txt will be lost otherwise.", icon="document-save",
    actions=[Action("save", "Save", role="default"), Action("discard", "Discard", role="destructive"),
             Action("cancel", "Cancel", role="cancel")],
    fields=[Field("name", "text", placeholder="File name", value="report.txt"), Field("copies", "number")])


@pytest.fixture
def pool():
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as executor:
        yield executor


def answer_of(future: concurrent.futures.Future, what: str):
    try:
        return future.result(timeout=DEADLINE)
    except concurrent.futures.TimeoutError:
        raise AssertionError(f"ask() did not return within {DEADLINE} s of {what}") from None


# MARK: - The types


def test_content_round_trips_through_its_json():
    wire = QUESTION.to_json()
    assert wire["icon"] == {"name": "document-save"}
    assert wire["actions"][0] == {"id": "save", "title": "Save", "role": "default"}
    assert wire["fields"][1] == {"id": "copies", "kind": "number"}
    assert Content.from_json(wire) == QUESTION
    assert QUESTION.default_action.id == "save" and QUESTION.cancel_action.id == "cancel"
    assert QUESTION.action("discard").role == "destructive" and QUESTION.action("nope") is None
    assert Content(icon="/usr/share/icons/x.svg").icon == presentd.Icon(path="/usr/share/icons/x.svg")
    # progress: a fraction, indeterminate (null on the wire), or no bar (absent).
    assert Content(progress=0.25).to_json() == {"progress": 0.25}
    assert Content(progress=presentd.INDETERMINATE).to_json() == {"progress": None}
    assert Content.from_json({"progress": None}).progress == presentd.INDETERMINATE
    assert Content.from_json({}).progress is None and Content().to_json() == {}
    s = Content(surface=presentd.Surface(app_id="org.example.Editor"),
                accessibility=presentd.Accessibility(label="Save", announce="assertive"))
    assert s.to_json() == {"surface": {"appId": "org.example.Editor"},
                           "accessibility": {"label": "Save", "announce": "assertive"}}
    assert Content.from_json(s.to_json()) == s
    # A banner's parts: the message's markup (with the plain message) and the app's name.
    m = Content(title="3 new messages", message="From Alice", message_markup="From <b>Alice</b>", app_name="Mail")
    assert m.to_json() == {"title": "3 new messages", "message": "From Alice", "messageMarkup": "From <b>Alice</b>",
                           "appName": "Mail"}
    assert Content.from_json(m.to_json()) == m
    # Built from JSON-shaped pieces too.
    assert Content(actions=[{"id": "ok", "title": "OK"}]).actions == (Action("ok", "OK"),)
    assert Action("later", "Later", dismisses=False).to_json() == {"id": "later", "title": "Later",
                                                                  "dismisses": False}


def test_content_travels_in_entries_and_lifecycle_and_frames_carry_only_the_revision(manual):
    with Client(manual.path) as app, Client(manual.path) as renderer:
        sub = renderer.subscribe(["frames", "lifecycle", "stack"])
        contents = Contents(sub.snapshot)
        app.present(id="q", style="alert", content=QUESTION, preferredContentSize={"width": 300})
        app.present(id="label", style="popup", content="share-sheet", transition={"duration": 0})
        app.advance(0.5)
        events = drain(renderer)
        for e in events:
            contents.see(e)
        will = next(e for e in events if isinstance(e, Lifecycle) and e.id == "q" and e.event == "willPresent")
        assert will.carries_content and will.content == QUESTION and will.content_revision == 1
        # Whatever the renderer sends for a number field comes back as text.
        [q, label] = app.stack()
        assert q.content == QUESTION and q.content_revision == 1
        assert q.preferred_content_size == {"width": 300.0}
        assert label.content == "share-sheet"
        frames = [e for e in events if isinstance(e, Frame)]
        layer = frames[-1].layer("q")
        assert layer.content_revision == 1 and frames[-1].layer("q", "dimming").content_revision is None
        assert all("content" not in l for f in frames for l in f.raw["layers"])
        assert contents.for_layer(layer) == QUESTION and contents.is_current(layer)
        assert contents.get("label") == "share-sheet"
        assert any(isinstance(e, StackChanged) and e.entries[0].content == QUESTION for e in events)


def test_bad_content_is_refused_with_its_field(daemon):
    with Client(daemon.path) as c:
        with pytest.raises(InvalidParams) as e:
            c.present(style="alert", content=Content(actions=[Action("a", "A", role="default"),
                                                              Action("b", "B", role="default")]))
        assert e.value.field.startswith("content.actions")
        with pytest.raises(InvalidParams) as e:
            c.present(style="alert", content=Content(fields=[Field("f", "colour")]))  # type: ignore[arg-type]
        assert e.value.field == "content.fields[0].kind"
        assert c.stack() == []


# MARK: - update


def test_update_changes_the_content_and_announces_it(manual):
    with Client(manual.path) as app, Client(manual.path) as renderer:
        sub = renderer.subscribe(["frames", "lifecycle"])
        contents = Contents(sub.snapshot)
        app.present(id="save", style="alert", content=Content(title="Saving…", progress=presentd.INDETERMINATE))
        app.advance(0.5)
        for e in drain(renderer):
            contents.see(e)
        assert contents.get("save").progress == presentd.INDETERMINATE

        saved = Content(title="Saved", progress=1.0)
        result = app.update("save", content=saved, autoDismiss={"after": 2})
        assert result == presentd.Updated("save", "presented", 2)
        updated = lifecycle_event(renderer, "save", "updated")
        assert updated.content == saved and updated.content_revision == 2
        contents.see(updated)
        assert contents.get("save") == saved and contents.revision("save") == 2
        [entry] = app.stack()
        assert entry.content == saved and entry.content_revision == 2
        assert entry.auto_dismiss == {"after": 2.0, "pauseWhileInteracting": True}
        app.advance(0.1)  # the next tick redraws the entry with its new content
        frame = wait_for(renderer, "a frame drawing revision 2",
                         lambda e: isinstance(e, Frame) and e.layer("save").content_revision == 2)
        assert contents.is_current(frame.layer("save"))

        # None is JSON null: it clears the content (and the countdown).
        assert app.update("save", content=None, autoDismiss=None).content_revision == 3
        cleared = lifecycle_event(renderer, "save", "updated")
        assert cleared.carries_content and cleared.content is None and cleared.content_revision == 3
        [entry] = app.stack()
        assert entry.content is None and entry.auto_dismiss is None


# MARK: - The owner's action events


def test_the_owner_gets_action_events_without_subscribing(manual):
    with Client(manual.path) as owner, Client(manual.path) as screen:
        owner.present(id="q", style="alert", content=QUESTION)
        owner.advance(0.5)
        result = screen.activate("q", "discard", {"copies": 2})
        assert result == presentd.Activated("q", "discard", True)
        event = wait_for(owner, "the owner's action event", lambda e: isinstance(e, ActionEvent))
        assert (event.id, event.action) == ("q", "discard")
        assert event.fields == {"name": "report.txt", "copies": "2"}  # the field's own value, else ""
        assert event.seq > 0
        with pytest.raises(InvalidParams) as e:
            screen.activate("q", "save")  # leaving: it takes no more answers
        assert e.value.field == "id"


def test_focus_holds_the_countdown(manual):
    with Client(manual.path) as owner, Client(manual.path) as screen:
        screen.subscribe(["lifecycle"])
        owner.present(id="q", style="alert", content=QUESTION, autoDismiss={"after": 1},
                      transition={"duration": 0})
        lifecycle_event(screen, "q", "didPresent")
        screen.focus("q", "name")
        screen.advance(5)
        assert [e.id for e in owner.stack()] == ["q"]  # held while the field has focus
        screen.focus("q")
        screen.advance(1.05)
        gone = lifecycle_event(screen, "q", "willDismiss")
        assert gone.reason == "timeout" and gone.time == pytest.approx(6.0)


# MARK: - ask()


def test_ask_returns_the_action_activated_from_another_connection_with_the_field_values(manual, pool):
    with Client(manual.path) as owner, Client(manual.path) as screen:
        screen.subscribe(["lifecycle"])
        asked = pool.submit(owner.ask, QUESTION, id="q", wait=DEADLINE)
        lifecycle_event(screen, "q", "willPresent")
        assert screen.activate("q", "save", {"name": "final.txt", "copies": 3}).dismissed
        answer = answer_of(asked, "the activate")
        assert isinstance(answer, ActionEvent)
        assert (answer.id, answer.action) == ("q", "save")
        assert answer.fields == {"name": "final.txt", "copies": "3"}
        left = lifecycle_event(screen, "q", "willDismiss")
        assert (left.reason, left.action) == ("action", "save")
        # The owner never subscribed: the lifecycle events ask() needed are not left for it.
        assert drain(owner) == []
        owner.present(id="after", style="popup")
        assert drain(owner) == []  # and its borrowed subscription is over


def test_ask_escape_activates_the_cancel_action_and_enter_the_default(manual, pool):
    with Client(manual.path) as owner, Client(manual.path) as screen:
        screen.subscribe(["lifecycle"])
        asked = pool.submit(owner.ask, QUESTION, id="esc", wait=DEADLINE)
        lifecycle_event(screen, "esc", "willPresent")
        pressed = screen.key("escape")
        assert (pressed.handled, pressed.id, pressed.action, pressed.dismissed) == (True, "esc", "cancel", True)
        assert answer_of(asked, "the escape key").action == "cancel"

        asked = pool.submit(owner.ask, QUESTION, id="enter", wait=DEADLINE)
        lifecycle_event(screen, "enter", "willPresent")
        stale = screen.key("enter", {"name": "for another"}, id="esc")  # a key meant for an entry gone
        assert (stale.handled, stale.id) == (False, "enter")
        assert screen.key("enter", {"name": "typed.txt"}, id="enter").action == "save"
        answer = answer_of(asked, "the enter key")
        assert (answer.action, answer.fields["name"]) == ("save", "typed.txt")


def test_ask_returns_none_when_its_timeout_runs_out_on_the_manual_clock(manual, pool):
    with Client(manual.path) as owner, Client(manual.path) as screen:
        screen.subscribe(["lifecycle"])
        asked = pool.submit(owner.ask, QUESTION, id="t", timeout=2, wait=DEADLINE)
        lifecycle_event(screen, "t", "willPresent")
        screen.advance(0.4)
        presented = lifecycle_event(screen, "t", "didPresent")
        screen.advance(1.9)  # 0.1 s short of the deadline
        assert not any(isinstance(e, Lifecycle) and e.id == "t" for e in drain(screen))
        assert not asked.done()  # nothing was written that could have answered it
        screen.advance(0.2)
        gone = lifecycle_event(screen, "t", "willDismiss")
        assert gone.reason == "timeout" and gone.time == pytest.approx(presented.time + 2)
        assert answer_of(asked, "the timeout") is None


def test_ask_returns_none_when_the_entry_is_dismissed_without_an_action(manual, pool):
    with Client(manual.path) as owner, Client(manual.path) as screen:
        screen.subscribe(["lifecycle"])
        asked = pool.submit(owner.ask, Content(title="Tap outside"), id="tap", wait=DEADLINE)
        lifecycle_event(screen, "tap", "willPresent")
        assert screen.tap(2, 2).dismissed
        assert answer_of(asked, "the tap on the dimming") is None


def test_ask_with_an_action_that_does_not_dismiss_leaves_the_entry(manual, pool):
    retry = Content(title="Offline", actions=[Action("retry", "Retry", dismisses=False), Action("ok", "OK")])
    with Client(manual.path) as owner, Client(manual.path) as screen:
        screen.subscribe(["lifecycle"])
        asked = pool.submit(owner.ask, retry, id="net", wait=DEADLINE)
        lifecycle_event(screen, "net", "willPresent")
        assert not screen.activate("net", "retry").dismissed
        assert answer_of(asked, "the retry").action == "retry"
        assert [e.id for e in owner.stack()] == ["net"]


def test_ask_keeps_the_callers_own_lifecycle_events_and_asks_should_dismiss(manual, pool):
    asked_owner = []

    def should_dismiss(q: presentd.ShouldDismiss) -> bool:
        asked_owner.append(q)
        return q.action != "discard"

    with Client(manual.path, should_dismiss=should_dismiss) as owner, Client(manual.path) as screen:
        owner.subscribe(["lifecycle"])
        screen.subscribe(["lifecycle"])
        asked = pool.submit(owner.ask, QUESTION, id="c", confirmDismiss=True, wait=DEADLINE)
        lifecycle_event(screen, "c", "willPresent")
        # The owner is inside ask(): it answers the question while it waits.
        vetoed = screen.activate("c", "discard")
        assert (vetoed.dismissed, vetoed.confirmation) == (False, "vetoed")
        assert answer_of(asked, "the vetoed discard").action == "discard"
        assert [(q.id, q.reason, q.action) for q in asked_owner] == [("c", "action", "discard")]
        # Subscribed on its own account, the owner keeps its lifecycle events; the answer
        # was ask()'s, not left in the queue.
        kept = drain(owner)
        assert ("c", "willPresent") in [(e.id, e.event) for e in kept if isinstance(e, Lifecycle)]
        assert not any(isinstance(e, ActionEvent) for e in kept)


def test_ask_gives_up_after_wait_and_withdraws_the_entry(manual):
    with Client(manual.path) as owner, Client(manual.path) as screen:
        with pytest.raises(TimeoutError):
            owner.ask(QUESTION, id="w", wait=0.2)
        assert screen.stack() == [] or [e.state for e in screen.stack()] == ["dismissing"]
        assert drain(owner) == []


def test_an_answer_read_before_the_present_reply_is_not_lost():
    """A busy asker can read the screen's key press (the owner's ``action``) and the entry
    leaving before the reply to its own present: the answer is still the one it returns,
    and it is taken back from the caller's events, where it was queued while unclaimed."""
    from presentd import ActionEvent, Lifecycle
    from presentd._wire import AskWatch, EventQueue
    from presentd.types import parse_event

    watch, events = AskWatch(), EventQueue(coalesce_frames=False)
    for event in (parse_event("lifecycle", {"seq": 1, "id": "two", "event": "willPresent", "time": 0}),
                  ActionEvent(2, "two", "cancel", {}),
                  parse_event("lifecycle", {"seq": 3, "id": "two", "event": "willDismiss", "time": 0})):
        assert isinstance(event, (ActionEvent, Lifecycle))
        if not watch.see(event):
            events.push(event)
    assert not watch.done and len(events) == 3
    watch.started("two", events)
    assert watch.done and watch.answer is not None and watch.answer.action == "cancel"
    left = [events.pop() for _ in range(len(events))]
    assert [type(e) for e in left] == [Lifecycle, Lifecycle], f"the answer stayed queued: {left}"
    other, theirs = AskWatch(), EventQueue(coalesce_frames=False)
    someone_elses = ActionEvent(1, "one", "ok", {})
    other.see(someone_elses)
    theirs.push(someone_elses)
    other.started("two", theirs)
    assert theirs.pop() is someone_elses, "an answer that is not this ask's stays the caller's"
    assert not other.done, "someone else's answer is not this ask's"
