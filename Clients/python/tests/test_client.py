"""The synchronous client against the real daemon."""

from __future__ import annotations

import threading

import pytest

import presentd
from presentd import (Client, Disconnected, Frame, InvalidParams, InvalidRequest, LimitExceeded, Lifecycle,
                      MethodNotFound, NotFound, NotOwner, Shutdown, StackChanged, StatusBarChange, WrongClockMode)
from presentd.daemon import Daemon
from waiting import drain


def lifecycle(events, id=None):
    return [(e.id, e.event) for e in events if isinstance(e, Lifecycle) and (id is None or e.id == id)]


def test_socket_path_order(monkeypatch):
    monkeypatch.setenv("PRESENTD_SOCKET", "/a.sock")
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/7")
    assert presentd.socket_path("/x.sock") == "/x.sock"
    assert presentd.socket_path() == "/a.sock"
    monkeypatch.delenv("PRESENTD_SOCKET")
    assert presentd.socket_path() == "/run/user/7/presentd/presentd.sock"
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    assert presentd.socket_path() == "/run/presentd/presentd.sock"


def test_cannot_connect_is_a_connect_error(tmp_path):
    with pytest.raises(presentd.ConnectError) as e:
        Client(str(tmp_path / "nobody.sock"))
    assert isinstance(e.value, OSError) and e.value.path.endswith("nobody.sock")


def test_hello_ping_and_typed_results(daemon):
    with Client(daemon.path) as c:
        h = c.hello("pytest")
        assert (h.server, h.protocol, h.clock) == ("presentd", 1, "monotonic")
        assert h.container.width == 390 and h.container.height == 844
        assert h.limits["maxNameLength"] == 256
        assert c.ping() is None
        p = c.present(style="alert", id="a1", kind="k")
        assert p == presentd.Presented("a1", "presenting", False)
        again = c.present({"style": "alert", "kind": "k"})
        assert again.deduplicated and again.id == "a1"
        [entry] = c.stack()
        assert (entry.id, entry.kind, entry.style, entry.owner > 0) == ("a1", "k", "alert", True)
        assert entry.frame.width > 0 and entry.state in ("presenting", "presented")
        container = c.set_container(844, 390, duration=0)
        assert (container.width, container.height, container.vertical_size_class) == (844, 390, "compact")
        assert c.keyboard(300, duration=0) is None
        assert c.sync({"n": 1}) == {"n": 1}
        assert c.dismiss_all(animated=False) == ["a1"]
        assert c.stack() == []


def test_every_error_code_carries_code_and_field_and_the_connection_keeps_working(daemon):
    with Client(daemon.path) as c, Client(daemon.path) as other:
        with pytest.raises(InvalidParams) as e:
            c.present(style="alert", transition={"type": "zoom", "timing": {"bezier": [0.1, "x", 0.2, 1]}})
        assert e.value.code == -32602 and e.value.field == "transition.timing.bezier[1]"
        assert e.value.reason
        with pytest.raises(InvalidParams) as e:
            c.present(style="alert", id="x" * 257)
        assert e.value.field == "id"
        with pytest.raises(InvalidParams) as e:
            c.present(style="alert", transition={"duration": 61})
        assert e.value.field == "transition.duration"
        with pytest.raises(MethodNotFound) as e:
            c.call("teleport")
        assert e.value.code == -32601
        with pytest.raises(InvalidRequest) as e:
            c.call("ping", 5)  # params must be an object or an array
        assert e.value.code == -32600
        with pytest.raises(NotFound) as e:
            c.dismiss("nope")
        assert e.value.code == -32001 and e.value.field == "id"
        with pytest.raises(WrongClockMode) as e:
            c.advance(1)
        assert e.value.code == -32004
        for i in range(64):
            c.present(style="popup", id=f"p{i}", transition={"duration": 0})
        with pytest.raises(LimitExceeded) as e:
            c.present(style="popup", id="one-too-many")
        assert e.value.code == -32003 and e.value.data["limit"] == 64
        assert isinstance(e.value, presentd.RPCError) and isinstance(e.value, presentd.PresentdError)
        c.ping()  # still working after all of that
        assert len(other.stack()) == 64


def test_not_owner(tmp_path):
    with Daemon(args=["--dismiss-policy", "owner"]) as d, Client(d.path) as a, Client(d.path) as b:
        a.present(style="popup", id="mine")
        with pytest.raises(NotOwner) as e:
            b.dismiss("mine")
        assert e.value.code == -32002 and e.value.field == "id"
        assert a.dismiss("mine") == ["mine"]


def test_rpc_error_classes_by_code():
    for code, cls in [(-32700, presentd.ParseError), (-32600, InvalidRequest), (-32601, MethodNotFound),
                      (-32602, InvalidParams), (-32603, presentd.InternalError), (-32001, NotFound),
                      (-32002, NotOwner), (-32003, LimitExceeded), (-32004, WrongClockMode)]:
        err = presentd.RPCError.from_json({"code": code, "message": "m", "data": {"field": "f"}})
        assert type(err) is cls and err.code == code and err.field == "f"
    other = presentd.RPCError.from_json({"code": -1, "message": "?"})
    assert type(other) is presentd.RPCError and other.field is None


def test_subscription_is_an_iterator_of_typed_events(manual):
    with Client(manual.path) as c, Client(manual.path) as app:
        with c.subscribe() as sub:
            assert sub.snapshot.entries == () and sub.snapshot.layers == ()
            assert sub.snapshot.container.width == 390 and sub.snapshot.status_bar["style"] == "default"
            app.present(style="alert", id="z", statusBar={"style": "lightContent"},
                        transition=presentd.transition("zoom", 0.3, "linear"))
            app.advance(0.5)
            app.sync()
            seen = []
            for event in sub:
                seen.append(event)
                if isinstance(event, Frame) and not event.animating:
                    break
        will = next(e for e in seen if isinstance(e, Lifecycle) and e.event == "willPresent")
        assert will.animation is not None and will.animation.duration == pytest.approx(0.3)
        assert will.animation.from_state.scale == pytest.approx(0.1) and will.animation.to_state.scale == 1
        assert any(isinstance(e, StatusBarChange) and e.style == "lightContent" for e in seen)
        assert any(isinstance(e, StackChanged) and [x.id for x in e.entries] == ["z"] for e in seen)
        frames = [e for e in seen if isinstance(e, Frame)]
        assert [f.time for f in frames] == pytest.approx([0.1, 0.2, 0.3])
        # Linear zoom 0.1 → 1 over 0.3 s: the content scale at each frame is the core's.
        for f in frames:
            layer = f.layer("z")
            assert layer.scale == pytest.approx(0.1 + 0.9 * min(1, f.time / 0.3), abs=1e-9)
            assert f.layer("z", "dimming").alpha > 0
        assert lifecycle(seen) == [("z", "willPresent"), ("z", "didPresent")]
        # Unsubscribed on leaving the block: nothing more arrives.
        app.dismiss("z")
        app.advance(1)
        assert drain(c) == []


def test_frame_layers_match_the_stack(manual):
    with Client(manual.path) as c:
        c.subscribe(["frames"])
        c.present(style="bottomHalf", id="sheet", transition={"type": "coverVertical", "duration": 0.2})
        c.advance(0.2)
        frames = [e for e in drain(c) if isinstance(e, Frame)]
        [entry] = c.stack()
        final = frames[-1].layer("sheet")
        assert final.frame == entry.frame and final.visible_frame == entry.frame
        assert frames[0].layer("sheet").frame.y > entry.frame.y  # coming up from below


def test_should_dismiss_answered_by_the_callback(daemon):
    asked = []
    answers = iter([False, True])

    def should_dismiss(q: presentd.ShouldDismiss) -> bool:
        asked.append(q)
        return next(answers)

    with Client(daemon.path, should_dismiss=should_dismiss) as owner:
        owner.present(style="alert", id="guarded", confirmDismiss=True, transition={"duration": 0})
        # The owner taps its own dimming: the question arrives while it waits for the reply.
        vetoed = owner.tap(5, 5)
        assert (vetoed.part, vetoed.dismissed, vetoed.confirmation) == ("dimming", False, "vetoed")
        allowed = owner.tap(5, 5)
        assert (allowed.dismissed, allowed.confirmation, allowed.id) == (True, "allowed", "guarded")
    assert [(q.id, q.reason, q.keyboard_visible) for q in asked] == [("guarded", "tap", False)] * 2


def test_should_dismiss_from_another_client_while_the_owner_reads_events(daemon):
    tapped = threading.Event()

    def read_until_tapped():
        # Reading is what answers the question: keep at it until the tap has its reply
        # (a fixed read time could end before a slow machine even asks).
        while not tapped.is_set():
            owner.next_event(timeout=0.05)

    with Client(daemon.path, should_dismiss=lambda q: q.reason != "tap") as owner, Client(daemon.path) as screen:
        owner.present(style="popup", id="p", confirmDismiss=True, transition={"duration": 0})
        owner.subscribe(["lifecycle"])
        reader = threading.Thread(target=read_until_tapped)
        reader.start()
        try:
            result = screen.tap(1, 1)
        finally:
            tapped.set()
            reader.join()
        assert (result.dismissed, result.confirmation) == (False, "vetoed")


def test_a_callback_that_raises_propagates_and_the_daemon_allows(daemon):
    def broken(q):
        raise RuntimeError("boom")

    with Client(daemon.path, should_dismiss=broken) as owner:
        owner.present(style="popup", id="p", confirmDismiss=True, transition={"duration": 0})
        owner.subscribe(["lifecycle"])
        with pytest.raises(RuntimeError, match="boom"):
            owner.tap(1, 1)
        assert ("p", "willDismiss") in lifecycle(drain(owner))


def test_swipe_to_dismiss(manual):
    with Client(manual.path) as c:
        c.present(style="bottomHalf", id="s", dismissOnSwipe=True, transition={"duration": 0})
        c.advance(0.1)
        assert c.swipe("began", 0, 0).outcome == "tracking"
        step = c.swipe("changed", 0, 300)
        assert step.outcome == "tracking" and 0 < step.progress <= 1
        done = c.swipe("ended", 0, 400, 0, 2000)
        assert (done.outcome, done.id) == ("dismissed", "s")


def test_owner_gone_dismisses_its_entries(daemon):
    with Client(daemon.path) as watcher:
        watcher.subscribe(["lifecycle"])
        app = Client(daemon.path)
        app.present(style="popup", id="orphan", transition={"duration": 0})
        app.close()
        # Until the entry is gone (on the real clock its dismissal takes a while), not until
        # a quiet spell: a loaded machine can be quiet for seconds in between.
        events = []
        for e in watcher.events(timeout=30):
            events.append(e)
            if (e.id, e.event) == ("orphan", "didDismiss"):
                break
        gone = [e for e in events if e.event == "willDismiss"]
        assert gone and gone[0].reason == "ownerGone"
        assert ("orphan", "didDismiss") in lifecycle(events)


def test_shutdown_ends_the_event_stream(daemon):
    c = Client(daemon.path, reconnect=0)  # test_reconnect.py: what a reconnecting client does
    c.subscribe(["lifecycle"])
    daemon.process.terminate()
    events = list(c.events(timeout=30))  # ends when the daemon closes the connection
    assert events == [Shutdown("SIGTERM")]
    with pytest.raises(Disconnected) as e:
        c.ping()
    assert e.value.reason == "SIGTERM"
    c.close()


def test_next_event_times_out_when_idle(daemon):
    with Client(daemon.path) as c:
        c.subscribe(["lifecycle"])
        assert c.next_event(timeout=0.05) is None  # nothing can come: a short look will do


def test_pump_for_poll_loops(manual):
    import select

    with Client(manual.path) as c, Client(manual.path) as app:
        c.subscribe(["lifecycle"])
        app.present(style="popup", id="p")
        readable, _, _ = select.select([c], [], [], 2)
        assert readable == [c]
        assert c.pump() >= 1
        assert isinstance(c.next_event(timeout=0), Lifecycle)


def test_event_queue_coalesces_frames_but_keeps_everything_else():
    from presentd._wire import EventQueue

    q = EventQueue(coalesce_frames=True)
    f1, f2 = Frame(1, 0.1, (), True), Frame(2, 0.2, (), False)
    life = Lifecycle(1, "a", "didPresent", 0.1, 1)
    for e in (f1, life, f2):
        q.push(e)
    assert [q.pop(), q.pop(), q.pop()] == [life, f2, None]
    assert q.dropped_frames == 1
