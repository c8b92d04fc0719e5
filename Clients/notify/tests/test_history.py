"""History: the last N notifications that ended, printed by `presentd-notify --history`."""

from __future__ import annotations

import json
import os
import subprocess

from gi.repository import GLib
from presentd.daemon import wait_until

from conftest import BRIDGE, entry, shown


def history(env) -> list[list[str]]:
    out = subprocess.run([BRIDGE, "--history"], env=env, capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return [line.split("\t") for line in out.stdout.splitlines()]


def test_history_keeps_the_last_n_with_how_each_ended(make_bridge, pd, observer):
    bridge = make_bridge("--keep-history", "3")
    assert history(bridge.env) == []
    first = observer.notify("first", app="a")
    observer.close(first)
    expired = observer.notify("expired", app="mail", timeout=1000)
    shown(pd, bridge, expired)
    pd.advance(1.5)
    assert observer.closed(expired) == 1
    transient = observer.notify("transient", hints={"transient": GLib.Variant("b", True)})
    observer.close(transient)
    dismissed = observer.notify("dismissed", app="chat", timeout=0)
    shown(pd, bridge, dismissed)
    pd.dismiss(bridge.entry(dismissed))
    assert observer.closed(dismissed) == 2
    closed = observer.notify("closed", app="build")
    observer.close(closed)
    assert observer.closed(closed) == 3
    rows = history(bridge.env)
    # The oldest (first) is dropped past 3; the transient one is never kept.
    assert [row[1:] for row in rows] == [
        ["expired", str(expired), "mail", "expired"],
        ["dismissed", str(dismissed), "chat", "dismissed"],
        ["closed", str(closed), "build", "closed"],
    ]
    assert all(len(row[0]) == len("2026-12-02 05:30:01") for row in rows)


def test_history_without_the_bridge_is_a_clear_error(bus, runtime):
    import os
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address)
    out = subprocess.run([BRIDGE, "--history"], env=env, capture_output=True, text=True, timeout=30)
    assert out.returncode == 1
    assert out.stderr.startswith("presentd-notify: no history: ")
    assert "org.freedesktop.Notifications" in out.stderr


def test_history_from_another_server_names_it(bus, observer):
    import os
    from gi.repository import GLib
    from presentd.daemon import wait_until
    owned = observer.conn.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                    "RequestName", GLib.Variant("(su)", ("org.freedesktop.Notifications", 4)),
                                    None, 0, 5000, None).unpack()[0]
    assert owned == 1  # the primary owner: a server that is not presentd-notify
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address)
    p = subprocess.Popen([BRIDGE, "--history"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_until(lambda: observer.pump() or p.poll() is not None, "presentd-notify --history to finish")
    err = p.stderr.read()
    assert p.returncode == 1
    assert err.startswith("presentd-notify: org.freedesktop.Notifications is served by a server that does not "
                          f"answer GetServerInformation, pid {os.getpid()} "), err
    assert err.rstrip().endswith("which keeps no history for presentd-notify")


def presentctl_notifications(env, *args: str, path: str | None = None) -> subprocess.CompletedProcess:
    """The real presentctl; presentd-notify found on PATH (the bridge's build directory), as
    it is where both are installed in one directory."""
    env = dict(env, PATH=path if path is not None else os.path.dirname(BRIDGE) + os.pathsep + os.environ["PATH"])
    return subprocess.run([os.environ["PRESENTCTL"], "notifications", *args], env=env, capture_output=True,
                          text=True, timeout=30)


def test_presentctl_notifications_lists_the_bridges_history(make_bridge, pd, observer):
    bridge = make_bridge()
    expired = observer.notify("Backup done", app="backup", timeout=1000)
    shown(pd, bridge, expired)
    pd.advance(1.5)
    assert observer.closed(expired) == 1
    closed = observer.notify("Build finished", app="build")
    observer.close(closed)
    assert observer.closed(closed) == 3
    out = presentctl_notifications(bridge.env)
    assert out.returncode == 0, out.stderr
    rows = [line.split("\t") for line in out.stdout.splitlines()]
    assert [row[1:] for row in rows] == [["expired", str(expired), "backup", "Backup done"],
                                        ["closed", str(closed), "build", "Build finished"]]
    out = presentctl_notifications(bridge.env, "--json", "--last", "1")
    assert out.returncode == 0, out.stderr
    [only] = json.loads(out.stdout)
    assert {k: only[k] for k in ("id", "app", "summary", "how", "reason")} == {
        "id": closed, "app": "build", "summary": "Build finished", "how": "closed", "reason": 3}
    assert only["posted"] <= only["ended"] and only["ended"].endswith("Z") and len(only["ended"]) == 20


def test_presentctl_notifications_lists_the_live_ones_after_those_that_ended(make_bridge, pd, observer):
    bridge = make_bridge("--max-visible", "1")
    closed = observer.notify("Build finished", app="build")
    observer.close(closed)
    assert observer.closed(closed) == 3
    showing = observer.notify("Meeting in 5 min", app="calendar", timeout=0)
    shown(pd, bridge, showing)
    waiting = observer.notify("Alice: lunch?", app="chat", timeout=0)  # no place on screen: it waits
    out = presentctl_notifications(bridge.env)
    assert out.returncode == 0, out.stderr
    rows = [line.split("\t") for line in out.stdout.splitlines()]
    assert [row[1:] for row in rows] == [["closed", str(closed), "build", "Build finished"],
                                        ["showing", str(showing), "calendar", "Meeting in 5 min"],
                                        ["waiting", str(waiting), "chat", "Alice: lunch?"]]
    out = presentctl_notifications(bridge.env, "--json", "--last", "2")
    assert out.returncode == 0, out.stderr
    live = json.loads(out.stdout)
    assert [(r["id"], r["how"], r["ended"], r["reason"]) for r in live] == [(showing, "showing", None, None),
                                                                         (waiting, "waiting", None, None)]
    assert all(r["posted"].endswith("Z") and len(r["posted"]) == 20 for r in live)
    # Closed, it moves to the ended ones.
    observer.close(showing)
    assert observer.closed(showing) == 3
    entry(pd, bridge, waiting)  # its place came: it is on presentd
    out = presentctl_notifications(bridge.env)
    assert [line.split("\t")[1:3] for line in out.stdout.splitlines()] == [
        ["closed", str(closed)], ["closed", str(showing)], ["showing", str(waiting)]], out.stdout


def test_presentctl_notifications_says_when_the_bridge_is_not_running(bus):
    out = presentctl_notifications(dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address))
    assert out.returncode == 1
    assert out.stderr.startswith("presentd-notify: no history: presentd-notify is not running "
                                 "(nothing owns org.freedesktop.Notifications on the session bus)"), out.stderr


def test_presentctl_notifications_says_when_the_bridge_is_not_installed(bus, tmp_path):
    out = presentctl_notifications(dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address), path=str(tmp_path))
    assert out.returncode == 3
    assert out.stderr.startswith("presentctl: notifications: presentd-notify is not installed (looked in "), out.stderr
    assert str(tmp_path) in out.stderr and "docs/NOTIFICATIONS.md" in out.stderr
    out = presentctl_notifications(os.environ, "--last", "many", path=str(tmp_path))
    assert out.returncode == 2 and "--last" in out.stderr, out.stderr


def bar(env) -> dict:
    """What waybar's custom module reads (`return-type: json`): one line, one object."""
    out = presentctl_notifications(env, "--count", "--json")
    assert out.returncode == 0, out.stderr
    assert out.stdout.endswith("\n") and out.stdout.count("\n") == 1
    got = json.loads(out.stdout)
    assert set(got) == {"text", "alt", "tooltip", "class"}
    assert all(isinstance(v, str) for v in got.values())  # waybar takes text, alt, class as strings
    return got


def test_presentctl_notifications_count_for_a_bar(make_bridge, pd, observer):
    bridge = make_bridge("--max-visible", "1")
    out = presentctl_notifications(bridge.env, "--count")
    assert (out.returncode, out.stdout) == (0, "0\n"), out.stderr
    assert bar(bridge.env) == {"text": "0", "alt": "none", "class": "none",
                               "tooltip": "0 notifications\nDo not disturb: off"}
    closed = observer.notify("Build finished", app="build")
    observer.close(closed)
    assert observer.closed(closed) == 3
    showing = observer.notify("Meeting in 5 min", app="calendar", timeout=0)
    shown(pd, bridge, showing)
    observer.notify("Alice: lunch?", app="chat", timeout=0)  # waits: one on screen at most
    out = presentctl_notifications(bridge.env, "--count")
    assert (out.returncode, out.stdout) == (0, "2\n"), out.stderr  # the ended one is not counted
    assert bar(bridge.env) == {"text": "2", "alt": "notification", "class": "none",
                               "tooltip": "2 notifications: 1 on screen, 1 waiting\nDo not disturb: off"}
    pd.call("setMode", {"doNotDisturb": {"allowPriorityAbove": 500}})
    wait_until(lambda: bar(bridge.env)["class"] == "dnd", "the bar to say do not disturb")
    assert bar(bridge.env) == {"text": "2", "alt": "dnd-notification", "class": "dnd",
                               "tooltip": "2 notifications: 1 on screen, 1 waiting\nDo not disturb: on"}
    pd.call("setMode", {"doNotDisturb": None})
    wait_until(lambda: bar(bridge.env)["class"] == "none", "the bar to say do not disturb is off")
    assert bar(bridge.env)["alt"] == "notification"


def test_the_count_knows_do_not_disturb_turned_on_before_the_bridge(make_bridge, pd, observer):
    pd.call("setMode", {"doNotDisturb": {"allowPriorityAbove": 500}})
    bridge = make_bridge()
    assert bar(bridge.env) == {"text": "0", "alt": "dnd-none", "class": "dnd",
                               "tooltip": "0 notifications\nDo not disturb: on"}


def test_presentctl_notifications_count_words(bus):
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address)
    out = presentctl_notifications(env, "--count", "--last", "1")
    assert out.returncode == 2 and "--count counts every live notification: not with --last" in out.stderr
    out = presentctl_notifications(env, "--counts")
    assert out.returncode == 2 and "(it takes --json, --last N and --count)" in out.stderr
    out = presentctl_notifications(env, "--count")  # no bridge: the bridge's message, exit 1
    assert out.returncode == 1
    assert out.stderr.startswith("presentd-notify: no count: presentd-notify is not running"), out.stderr
    out = subprocess.run([BRIDGE, "--count"], env=env, capture_output=True, text=True, timeout=30)
    assert out.returncode == 2 and "--json, --last and --count go with --history" in out.stderr
