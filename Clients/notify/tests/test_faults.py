"""Bad input and faults: D-Bus errors or documented fallbacks, never a crash; the queue and
its bound (past it one notification expires: Notify never fails for it); presentd restarting
under the bridge; start-up and the name."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from gi.repository import Gio, GLib

from conftest import BRIDGE, NAME, PATH, Bridge, entry, start_bridge, gone, run, shown, stack
from presentd.daemon import wait_until


def dbus_error(call) -> str:
    with pytest.raises(GLib.Error) as caught:
        call()
    return caught.value.message


def test_an_odd_number_of_action_strings_is_an_error(bridge, observer):
    message = dbus_error(lambda: observer.notify("odd", actions=["a", "A", "b"]))
    assert "org.freedesktop.DBus.Error.InvalidArgs" in message
    assert "actions: 3 strings, an odd number: they are pairs of key and label" in message
    assert observer.notify("fine", actions=["a", "A"]) >= 1


def test_an_action_key_over_1024_bytes_is_an_error(bridge, observer):
    message = dbus_error(lambda: observer.notify("key", actions=["k" * 1025, "K"]))
    assert "actions[0]: the key is over 1024 bytes" in message


def test_a_call_with_the_wrong_signature_is_refused_by_sd_bus(bridge, observer):
    message = dbus_error(lambda: observer.call("Notify", "(sus)", ("a", 0, "b")))
    assert "InvalidArgs" in message
    assert bridge.process.poll() is None


def test_invalid_utf8_never_reaches_the_bridge(bridge, observer):
    # D-Bus strings are UTF-8: the caller's library or the bus refuses before the bridge
    # sees it. python3-dbus, a binding of its own, is the caller here.
    import dbus
    session = dbus.bus.BusConnection(bridge.env["DBUS_SESSION_BUS_ADDRESS"])
    proxy = session.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
    notify = proxy.get_dbus_method("Notify", "org.freedesktop.Notifications")
    with pytest.raises((UnicodeError, TypeError, ValueError, dbus.exceptions.DBusException)):
        notify("app", dbus.UInt32(0), "", b"\xff\xfe bad".decode("latin-1").encode("latin-1"), "", [], {}, -1,
               signature="susssasa{sv}i")
    ok = notify("app", dbus.UInt32(0), "", "still here", "", [], {}, -1, signature="susssasa{sv}i")
    assert int(ok) >= 1
    session.close()


def test_at_most_n_visible_the_rest_wait_in_order_and_past_the_bound_the_oldest_expires(make_bridge, pd, observer):
    bridge = make_bridge("--max-visible", "2", "--max-waiting", "2")
    ids = [observer.notify(f"n{i}", timeout=0) for i in range(4)]
    entry(pd, bridge, ids[1])
    mine = lambda: sorted(k for k in stack(pd) if k.startswith(f"notify.{bridge.pid}."))
    assert mine() == [bridge.entry(ids[0]), bridge.entry(ids[1])]
    more = observer.notify("one too many", timeout=0)  # answered: the oldest waiting one leaves
    assert more > ids[3]
    assert observer.closed(ids[2]) == 1
    critical = observer.notify("critical passes", hints={"urgency": GLib.Variant("y", 2)})
    entry(pd, bridge, critical)
    observer.close(ids[0])
    assert observer.closed(ids[0]) == 3
    assert bridge.entry(ids[3]) not in stack(pd)  # the critical one counts as visible: still 2
    observer.close(critical)
    entry(pd, bridge, ids[3])  # the first that waited and is still there
    observer.close(more)  # still waiting: closed at once
    assert observer.closed(more) == 3
    pd.advance(1)
    assert bridge.entry(more) not in stack(pd)
    assert bridge.entry(ids[2]) not in stack(pd)  # it never reached presentd
    assert observer.named("NotificationClosed", ids[2]) == [(ids[2], 1)]


URGENCY = {"low": 0, "normal": 1, "critical": 2}


def post(observer, summary: str, urgency: str) -> int:
    return observer.notify(summary, timeout=0, hints={"urgency": GLib.Variant("y", URGENCY[urgency])})


def live(observer) -> list[tuple[str, str]]:
    """The bridge's live notifications (org.presentd.NotificationHistory.Live): summary and state."""
    reply = observer.conn.call_sync(NAME, PATH, "org.presentd.NotificationHistory", "Live", None, None,
                                    Gio.DBusCallFlags.NONE, 20000, None)
    return [(summary, state) for _, _, summary, _, state in reply.unpack()[0]]


def ended(observer) -> list[tuple[str, int]]:
    """The bridge's history (org.presentd.NotificationHistory.History): summary and reason."""
    reply = observer.conn.call_sync(NAME, PATH, "org.presentd.NotificationHistory", "History", None, None,
                                    Gio.DBusCallFlags.NONE, 20000, None)
    return [(summary, reason) for _, _, summary, _, _, reason in reply.unpack()[0]]


def test_past_the_bound_the_oldest_of_the_lowest_urgency_expires(make_bridge, pd, observer):
    bridge = make_bridge("--max-visible", "1", "--max-waiting", "3")
    shown_id = post(observer, "shown", "normal")
    entry(pd, bridge, shown_id)
    ids = {name: post(observer, name, urgency) for name, urgency in
           [("n1", "normal"), ("l1", "low"), ("l2", "low")]}
    # Each new one past the bound takes the place of the oldest waiting one of the lowest urgency.
    for name, leaves in [("n2", "l1"), ("n3", "l2"), ("n4", "n1")]:
        ids[name] = post(observer, name, "normal")
        assert observer.closed(ids[leaves]) == 1, name
    assert live(observer) == [("shown", "showing"), ("n2", "waiting"), ("n3", "waiting"), ("n4", "waiting")]
    # A new low one when every waiting one is of a higher urgency: it is the one that expires,
    # at once, with an id of its own.
    ids["l3"] = post(observer, "l3", "low")
    assert ids["l3"] > ids["n4"]
    assert observer.closed(ids["l3"]) == 1
    assert live(observer) == [("shown", "showing"), ("n2", "waiting"), ("n3", "waiting"), ("n4", "waiting")]
    assert ended(observer) == [("l1", 1), ("l2", 1), ("n1", 1), ("l3", 1)]
    for id in ids.values():
        assert len(observer.named("NotificationClosed", id)) <= 1
    observer.close(shown_id)
    entry(pd, bridge, ids["n2"])  # the oldest that is still waiting goes on screen
    assert bridge.entry(ids["n1"]) not in stack(pd)


@pytest.fixture
def one_entry(tmp_path):
    """presentd on the manual clock letting one connection own a single entry: critical
    notifications wait too once the bridge has one on screen."""
    import json
    from presentd.daemon import Daemon
    config = tmp_path / "one-entry.json"
    config.write_text(json.dumps({"shouldDismissTimeout": 30, "limits": {"maxEntriesPerClient": 1}}))
    with Daemon(clock="manual", fps=10, args=["--config", str(config)]) as d:
        yield d


def test_critical_ones_never_leave_for_a_lower_one_and_the_oldest_critical_leaves_last(
        bus, runtime, observer, one_entry):
    from presentd import Client
    bridge = start_bridge(bus, one_entry, runtime, observer, ["--max-visible", "1", "--max-waiting", "2"])
    try:
        with Client(one_entry.path) as pd:
            pd.hello("tests")
            shown_id = post(observer, "shown", "normal")
            entry(pd, bridge, shown_id)
            c1 = post(observer, "c1", "critical")  # presentd takes no second entry of the bridge's: it waits
            l1 = post(observer, "l1", "low")
            assert live(observer) == [("shown", "showing"), ("c1", "waiting"), ("l1", "waiting")]
            c2 = post(observer, "c2", "critical")  # the low one leaves, not the older critical one
            assert observer.closed(l1) == 1
            n1 = post(observer, "n1", "normal")  # every waiting one is critical: the new one leaves
            assert observer.closed(n1) == 1
            assert live(observer) == [("shown", "showing"), ("c1", "waiting"), ("c2", "waiting")]
            c3 = post(observer, "c3", "critical")  # all critical: the oldest critical one leaves
            assert observer.closed(c1) == 1
            assert live(observer) == [("shown", "showing"), ("c2", "waiting"), ("c3", "waiting")]
            assert ended(observer) == [("l1", 1), ("n1", 1), ("c1", 1)]
            observer.close(shown_id)
            assert observer.closed(shown_id) == 3
            pd.advance(1)
            entry(pd, bridge, c2)
            for id in (l1, n1, c1):
                assert observer.named("NotificationClosed", id) == [(id, 1)]
            assert observer.named("NotificationClosed", c3) == []
    finally:
        bridge.stop()


def test_a_place_freed_on_screen_is_filled_once_a_frame_not_at_each_close(make_bridge, pd, observer, monkeypatch):
    """An app that closes its notifications one after another, each call answered before the
    next (as a mail client clearing its list does), does not make every waiting one enter
    presentd only to be dismissed a moment later: a place freed is filled once a frame at most."""
    # The frame made long (the setting is for tests) so that a slow machine does not let one
    # pass during the closes; each that does pass may let one waiting notification in.
    frame_s = 5.0
    monkeypatch.setenv("PRESENTD_NOTIFY_PROMOTE_DELAY_MS", str(int(frame_s * 1000)))
    bridge = make_bridge("--max-visible", "1")
    ids = [observer.notify(f"n{i}", timeout=0) for i in range(12)]
    entry(pd, bridge, ids[0])
    presents = lambda: pd.call("stats")["requests"]["byMethod"].get("present", 0)
    before = presents()
    started = time.monotonic()
    for id in ids:
        observer.close(id)
    frames_passed = int((time.monotonic() - started) / frame_s)
    assert [observer.closed(id) for id in ids] == [3] * len(ids)
    # Without the frame's wait each close lets the next one in before it is closed: 11 presents.
    assert presents() - before <= frames_passed, bridge.log
    after = observer.notify("after", timeout=0)
    entry(pd, bridge, after)  # the place is free: the next one goes on screen at once


def memory_kib(pid: int) -> dict[str, int]:
    """The bridge's resident and private dirty memory (KiB), from /proc."""
    with open(f"/proc/{pid}/status") as f:
        rss = int(next(line for line in f if line.startswith("VmRSS")).split()[1])
    with open(f"/proc/{pid}/smaps_rollup") as f:
        dirty = int(next(line for line in f if line.startswith("Private_Dirty")).split()[1])
    return {"rss": rss, "dirty": dirty}


def burst(observer, count: int, first: int = 0) -> tuple[list[int], list[str]]:
    """`count` Notify calls sent at once, without waiting between them: the ids answered, and
    the errors (none expected)."""
    ids: list[int] = []
    errors: list[str] = []
    context = GLib.MainContext.default()

    def done(conn, result, _):
        try:
            ids.append(conn.call_finish(result).unpack()[0])
        except GLib.Error as e:
            errors.append(e.message)

    for i in range(first, first + count):
        params = GLib.Variant("(susssasa{sv}i)", ("burst", 0, "", f"n{i}", "", [], {}, 0))
        observer.conn.call("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                           "org.freedesktop.Notifications", "Notify", params, None, Gio.DBusCallFlags.NONE, 120000,
                           None, done, None)
        if i % 256 == 0:  # take the answers as they come: the bus would queue them all otherwise
            while context.iteration(False):
                pass

    def all_answered():
        while context.iteration(False):
            pass
        return len(ids) + len(errors) == count
    wait_until(all_answered, f"answers to {count} Notify calls", timeout=300,
               context=lambda: f"{len(ids)} ids, {len(errors)} errors")
    return ids, errors


BURST = int(os.environ.get("PRESENTD_NOTIFY_BURST", "100000"))


def test_a_burst_of_notify_calls_is_answered_each_ends_once_and_memory_stays_flat(make_bridge, pd, observer):
    """A burst of BURST (100,000; $PRESENTD_NOTIFY_BURST) Notify calls of persistent
    notifications (expire_timeout 0), in two halves: 5 fill the screen and 50 wait, and every
    other one expires as the queue is full. Every call is answered with an id, every id but
    those still live ends in exactly one NotificationClosed of reason 1, and the bridge's
    memory after the second half is what it was after the first."""
    bridge = make_bridge("--max-waiting", "50")
    half = BURST // 2
    started = time.monotonic()
    first, errors = burst(observer, half)
    assert errors == []
    wait_until(lambda: len(observer.named("NotificationClosed")) >= half - 55, "the first half's NotificationClosed",
               timeout=120, context=lambda: f"{len(observer.signals)} signals")
    after_first = memory_kib(bridge.pid)
    second, errors = burst(observer, BURST - half, half)
    assert errors == []
    ids = first + second
    assert len(ids) == len(set(ids)) == BURST, "every call got an id of its own"
    wait_until(lambda: len(observer.named("NotificationClosed")) >= BURST - 55, "every NotificationClosed",
               timeout=120, context=lambda: f"{len(observer.signals)} signals")
    elapsed = time.monotonic() - started
    after_second = memory_kib(bridge.pid)
    closed = observer.named("NotificationClosed")
    reasons: dict[int, int] = {}
    for _, reason in closed:
        reasons[reason] = reasons.get(reason, 0) + 1
    per_id: dict[int, int] = {}
    for id, _ in closed:
        per_id[id] = per_id.get(id, 0) + 1
    assert reasons == {1: BURST - 55}, reasons
    assert max(per_id.values()) == 1, "an id closed twice"
    still = [id for id in ids if id not in per_id]
    assert len(still) == 55  # 5 on screen, the 50 newest waiting
    assert len([k for k in stack(pd) if k.startswith(f"notify.{bridge.pid}.")]) == 5
    assert sorted(still)[5:] == sorted(ids)[-50:]
    print(f"burst of {BURST}: {elapsed:.1f} s; memory after the first half {after_first}, "
          f"after the second {after_second} (KiB)")
    assert after_second["rss"] - after_first["rss"] < 2048, "the bridge grew by 2 MiB or more over the second half"
    assert after_second["dirty"] - after_first["dirty"] < 2048, "the bridge's private dirty memory grew by 2 MiB"
    assert bridge.process.poll() is None
    assert bridge.stop() == 0
    for id in still:
        assert observer.closed(id) == 4


def test_a_client_that_disconnects_mid_call_changes_nothing(bridge, pd, observer):
    address = bridge.env["DBUS_SESSION_BUS_ADDRESS"]
    code = (
        "from gi.repository import Gio, GLib\n"
        f"c = Gio.DBusConnection.new_for_address_sync({address!r}, "
        "Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)\n"
        "p = GLib.Variant('(susssasa{sv}i)', ('gone', 0, '', 'left', '', [], {}, 0))\n"
        "c.call('org.freedesktop.Notifications', '/org/freedesktop/Notifications', "
        "'org.freedesktop.Notifications', 'Notify', p, None, Gio.DBusCallFlags.NONE, -1, None, None, None)\n"
        "c.flush_sync(None)\n"
    )
    out = subprocess.run(["/usr/bin/python3", "-c", code], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    id = observer.notify("after")
    assert id >= 2
    entry(pd, bridge, id)
    assert bridge.process.poll() is None


def test_presentd_restarting_keeps_the_notifications(bridge, pd, observer, manual):
    id = observer.notify("survives", timeout=0)
    shown(pd, bridge, id)
    manual.restart()  # kill -9, then presentd again on the same socket: it restores its stack
    from presentd import Client
    with Client(manual.path) as fresh:
        fresh.hello("tests-after-restart")
        wait_until(lambda: "presentd is back" in bridge.log, "the bridge to reconnect to presentd",
                   context=lambda: bridge.log)
        assert bridge.entry(id) in stack(fresh)
        later = observer.notify("after the restart", timeout=0)
        entry(fresh, bridge, later)
        observer.close(id)
        assert observer.closed(id) == 3
        fresh.advance(1)
        gone(fresh, bridge, id)
    assert observer.named("NotificationClosed", id) == [(id, 3)]
    assert bridge.process.poll() is None


def test_stopping_the_bridge_closes_every_notification_with_reason_4(bridge, pd, observer):
    shown_id = observer.notify("a", timeout=0)
    waiting = [observer.notify(f"w{i}", timeout=0) for i in range(6)]  # the 6th waits in the bridge
    entry(pd, bridge, shown_id)
    assert bridge.stop() == 0
    for id in [shown_id, *waiting]:
        assert observer.closed(id) == 4
    leftovers = list((bridge.log_path.parent / "presentd-notify").glob("*.png"))
    assert leftovers == []


def test_another_server_owning_the_name_is_named_and_the_bridge_exits_1(bridge, bus, manual, runtime):
    second = Bridge(bus, manual.path, runtime)
    assert second.process.wait(30) == 1
    assert ("org.freedesktop.Notifications is owned by presentd" in second.log and
            "(presentd, spec 1.2), pid " in second.log and "run presentd-notify --replace" in second.log), second.log
    second.stop()


def test_replace_takes_the_name_and_the_old_bridge_exits(bridge, bus, manual, runtime, observer, pd):
    old = observer.notify("old", timeout=0)
    new_bridge = Bridge(bus, manual.path, runtime, ["--replace"])
    try:
        assert bridge.process.wait(30) == 0
        assert observer.closed(old) == 4
        assert "another server took org.freedesktop.Notifications" in bridge.log
        id = observer.notify("new")
        entry(pd, new_bridge, id)
    finally:
        new_bridge.stop()


def test_presentd_not_running_is_a_clear_error(bus, runtime, tmp_path):
    b = Bridge(bus, str(tmp_path / "nothing.sock"), runtime)
    assert b.process.wait(30) == 1
    assert f"cannot connect to presentd at {tmp_path / 'nothing.sock'}" in b.log
    b.stop()


def test_without_the_app_role_the_bridge_says_so_and_exits_1_before_taking_the_name(bus, runtime, observer, tmp_path):
    # Every notification would be refused (-32005) and closed with reason 4: better not to serve.
    import json
    from presentd.daemon import Daemon
    config = tmp_path / "renderers-only.json"
    config.write_text(json.dumps({"rootIsAdmin": False, "roles": {"renderer": {"anyone": True}}}))
    with Daemon(clock="manual", args=["--config", str(config)]) as d:
        b = Bridge(bus, d.path, runtime)
        assert b.process.wait(30) == 1
        assert "does not give this connection the app role" in b.log, b.log
        assert not observer.has_owner()
        b.stop()


def test_thrown_out_by_presentd_the_bridge_logs_why_and_exits_1(bus, runtime, observer, tmp_path):
    # A closing notice is not a restart: the bridge logged "did not come back within 30 s",
    # at once. Here presentd throws it out for its backlog: stopped (SIGSTOP), it reads none
    # of the lifecycle events another client's entries cause.
    import json
    from presentd import Client
    from presentd.daemon import Daemon
    config = tmp_path / "small-queue.json"
    config.write_text(json.dumps({"limits": {"maxQueuedBytes": 65536}}))
    with Daemon(clock="manual", fps=10, args=["--config", str(config)]) as d, Client(d.path) as c:
        c.hello("tests")
        b = start_bridge(bus, d, runtime, observer)
        id = observer.notify("before", timeout=0)
        wait_until(lambda: b.entry(id) in stack(c), "the bridge's entry on presentd")
        b.process.send_signal(signal.SIGSTOP)
        try:
            def thrown_out():
                for _ in range(20):
                    c.call("present", {"id": "churn", "style": "popup", "content": {"title": "x" * 200}})
                    c.call("dismiss", {"id": "churn"})
                    c.advance(1)
                return "is not reading" in Path(d.log_path).read_text(errors="replace") or None
            wait_until(thrown_out, "presentd to throw the stopped bridge out for its backlog", timeout=120,
                       context=lambda: Path(d.log_path).read_text(errors="replace")[-2000:])
        finally:
            b.process.send_signal(signal.SIGCONT)
        assert b.process.wait(30) == 1
        assert "closed this connection (backlog)" in b.log, b.log
        assert "did not come back" not in b.log, b.log
        assert observer.closed(id) == 4
        b.stop()


def test_presentd_s_stack_full_keeps_the_notification_waiting(bus, runtime, observer, tmp_path):
    # -32003: presentd holds maxEntries entries, other clients' included (the bridge cannot
    # check that). The notification is not the fault: it waits, and is shown once one leaves.
    import json
    from presentd import Client
    from presentd.daemon import Daemon
    config = tmp_path / "two-entries.json"
    config.write_text(json.dumps({"limits": {"maxEntries": 2}}))
    with Daemon(clock="manual", fps=10, args=["--config", str(config)]) as d, Client(d.path) as c:
        c.hello("tests")
        for name in ("a", "b"):
            c.call("present", {"id": name, "style": "popup", "level": "overlay"})
        b = start_bridge(bus, d, runtime, observer)
        id = observer.notify("no room", timeout=0)
        wait_until(lambda: "stack is full" in b.log, "the bridge to hear presentd's -32003", context=lambda: b.log)
        assert observer.named("NotificationClosed", id) == []
        c.call("dismiss", {"id": "a"})
        c.advance(1)
        wait_until(lambda: b.entry(id) in stack(c), "the waiting notification on presentd once an entry left",
                   context=lambda: f"stack: {list(stack(c))}\nbridge log:\n{b.log}")
        assert observer.named("NotificationClosed", id) == []
        b.stop()


def test_help_and_bad_arguments():
    out = subprocess.run([BRIDGE, "--help"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0 and out.stdout.startswith("usage: presentd-notify [--socket PATH] [--replace]")
    bad = subprocess.run([BRIDGE, "--max-visible", "0"], capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2
    assert bad.stderr.strip() == "presentd-notify: --max-visible: expected a whole number from 1 to 64, got 0"
    unknown = subprocess.run([BRIDGE, "--frobnicate"], capture_output=True, text=True, timeout=30)
    assert unknown.returncode == 2 and "unknown argument --frobnicate" in unknown.stderr
    delay = subprocess.run([BRIDGE], capture_output=True, text=True, timeout=30,
                           env=dict(os.environ, PRESENTD_NOTIFY_PROMOTE_DELAY_MS="soon"))
    assert delay.returncode == 2
    assert delay.stderr.strip() == ("presentd-notify: PRESENTD_NOTIFY_PROMOTE_DELAY_MS: "
                                    "expected a whole number from 1 to 60000, got soon")


def test_the_socket_is_found_as_presentctl_finds_it(bus, manual, runtime, observer):
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address, XDG_RUNTIME_DIR=str(runtime),
               PRESENTD_SOCKET=manual.path)
    p = subprocess.Popen([BRIDGE], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_until(observer.has_owner, "the name owned by a bridge started with $PRESENTD_SOCKET")
    finally:
        p.send_signal(signal.SIGTERM)
        out, _ = p.communicate(timeout=30)
    assert f"at {manual.path}" in out


def test_a_restarted_bridge_starts_clean(bus, manual, runtime, observer, pd):
    images = runtime / "presentd-notify"
    images.mkdir(mode=0o700)
    gone_pid = subprocess.run(["sh", "-c", "echo $$"], capture_output=True, text=True).stdout.strip()
    stale = images / f"{gone_pid}-7-1.png"
    stale.write_bytes(b"left by a killed bridge")
    bystander = images / "notes.txt"
    bystander.write_text("not the bridge's")
    from conftest import start_bridge
    b = start_bridge(bus, manual, runtime, observer)
    try:
        assert not stale.exists() and bystander.exists()
        assert observer.notify("first") == 1  # ids start again
    finally:
        b.stop()


def fresh_client(manual):
    from presentd import Client
    c = Client(manual.path)
    c.hello("tests-after-restart")
    return c


def test_a_present_lost_with_presentd_is_sent_again(bridge, manual, observer):
    manual.process.send_signal(signal.SIGSTOP)  # presentd reads nothing from now on
    id = observer.notify("lost on the way", timeout=0)  # answered by the bridge; the present sits unread
    manual.restart()  # SIGKILL: the unread present goes with it
    with fresh_client(manual) as c:
        wait_until(lambda: "presentd is back" in bridge.log, "the bridge to reconnect", context=lambda: bridge.log)
        entry(c, bridge, id)  # sent again on the new connection
    assert observer.named("NotificationClosed", id) == []


def test_a_notification_presentd_did_not_keep_is_closed_with_reason_4(bridge, manual, observer, pd):
    id = observer.notify("forgotten", timeout=0)
    shown(pd, bridge, id)
    manual.process.kill()
    manual.process.wait(30)
    os.remove(os.path.join(manual.directory, "presentd-state.json"))  # it comes back with nothing
    manual._start(60.0)
    assert observer.closed(id) == 4
    with fresh_client(manual) as c:
        later = observer.notify("after", timeout=0)
        entry(c, bridge, later)


def test_after_presentd_restarts_empty_each_waiting_note_is_presented_once(bridge, manual, observer, pd):
    # 6 notifications: 5 on presentd, 1 waiting in the bridge. presentd comes back with
    # nothing: the 5 end (reason 4) and the waiting one takes a place, presented once. (It
    # used to be presented as the first one ended, then again by the same pass: presentd
    # refused the duplicate and the bridge closed it while its entry stayed on screen.)
    ids = [observer.notify(f"n{i}", timeout=0) for i in range(6)]
    shown(pd, bridge, ids[4])
    manual.process.kill()
    manual.process.wait(30)
    os.remove(os.path.join(manual.directory, "presentd-state.json"))
    manual._start(60.0)
    for id in ids[:5]:
        assert observer.closed(id) == 4
    with fresh_client(manual) as c:
        entry(c, bridge, ids[5])
        # Both presents would have been answered before this sync's reply.
        wait_until(lambda: "presentd is back" in bridge.log, "the bridge to reconnect", context=lambda: bridge.log)
        c.call("sync", {"nonce": 1})
        probe = observer.notify("probe", timeout=0)  # answered after any refusal was taken
        entry(c, bridge, probe)
        assert observer.named("NotificationClosed", ids[5]) == []
        assert "refused" not in bridge.log, bridge.log
        observer.close(ids[5])
        assert observer.closed(ids[5]) == 3
        c.advance(1)
        gone(c, bridge, ids[5])


def test_after_a_restart_every_entry_of_a_stack_over_256_is_looked_at(bus, runtime, observer, tmp_path):
    # presentd_entries counts them all but fills at most what it is given: the bridge's
    # reconnect pass read a 256-entry array up to the count (past its end). With maxEntries
    # 400 and 300 other entries first, the bridge's own is the 301st.
    import json
    from presentd import Client
    from presentd.daemon import Daemon
    config = tmp_path / "big-stack.json"
    config.write_text(json.dumps({"limits": {"maxEntries": 400, "maxEntriesPerClient": 400}}))
    with Daemon(clock="manual", fps=10, args=["--config", str(config)]) as d:
        with Client(d.path) as c:
            held = c.call("hello", {"client": "tests"})["resumeToken"]
            for i in range(300):
                c.call("present", {"id": f"other-{i}", "style": "popup", "level": "overlay"})
            b = start_bridge(bus, d, runtime, observer)
            id = observer.notify("the 301st", timeout=0)
            wait_until(lambda: b.entry(id) in stack(c), "the bridge's entry on presentd")
            # presentd saves its stack after the turn that changed it: kill -9 before that
            # would lose the entry, and the bridge would rightly close it (reason 4).
            state = os.path.join(d.directory, "presentd-state.json")
            wait_until(lambda: os.path.exists(state) and b.entry(id) in open(state).read(),
                       f"the bridge's entry saved in {state}")
        d.restart()  # kill -9: presentd restores its stack, the other entries wait for their owner
        with Client(d.path) as fresh:
            fresh.call("hello", {"client": "tests", "resume": held})
            wait_until(lambda: "presentd is back" in b.log, "the bridge to reconnect", context=lambda: b.log)
            # Answered once the bridge's reconnect pass is over (one loop serves both).
            observer.notify("probe", timeout=0)
            assert len(stack(fresh)) >= 301
            assert b.entry(id) in stack(fresh), b.log
            assert b.process.poll() is None, b.log
            assert observer.named("NotificationClosed", id) == []
            observer.close(id)
            assert observer.closed(id) == 3
        b.stop()


def test_presentd_not_coming_back_closes_everything_and_exits_1(make_bridge, manual, observer, pd):
    bridge = make_bridge("--reconnect", "1")
    ids = [observer.notify(f"n{i}", timeout=0) for i in range(7)]  # 5 on presentd, 2 waiting
    entry(pd, bridge, ids[4])
    manual.stop(signal.SIGKILL)
    assert bridge.process.wait(30) == 1
    assert sorted(observer.named("NotificationClosed")) == [(id, 4) for id in ids]
    assert "did not come back within 1 s: exiting" in bridge.log
