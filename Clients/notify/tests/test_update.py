"""replaces_id and the synchronous tags (update in place), urgency and do not disturb, value."""

from __future__ import annotations

from gi.repository import Gio, GLib

from conftest import NAME, PATH, entry, lifecycle, run, shown, stack
from presentd.daemon import wait_until


def test_replaces_id_updates_in_place_keeping_the_id(bridge, pd, observer):
    first = run(["notify-send", "-p", "Copying", "1 of 3"], bridge.env)
    id = int(first.stdout)
    before = shown(pd, bridge, id)
    again = run(["notify-send", "-p", "-r", str(id), "Copying", "2 of 3"], bridge.env)
    assert again.returncode == 0, again.stderr
    assert int(again.stdout) == id
    updated = lifecycle(pd, bridge.entry(id), "updated")
    assert updated.content_revision == before["contentRevision"] + 1
    after = stack(pd)[bridge.entry(id)]
    assert after["content"]["message"] == "2 of 3"
    assert after["state"] == "presented"  # no new entry, no flicker
    assert [k for k in stack(pd) if k.startswith(f"notify.{bridge.pid}.")] == [bridge.entry(id)]
    assert observer.named("NotificationClosed", id) == []


def test_a_flood_of_replacements_sends_one_update_at_a_time_and_the_latest_wins(bridge, pd, observer):
    # 20,000 Notify(replaces_id) without waiting: each used to send an update, and the
    # replies past the bridge's 1024-entry discard list piled up in the C client until
    # presentd closed the bridge for its backlog. Now one update is in flight, the rest
    # coalesce, and the last content is what presentd shows.
    id = observer.notify("flood", timeout=0)
    first = shown(pd, bridge, id)
    # The test's own connection would fall behind on 20,000 lifecycle events while this
    # process is busy sending: presentd would close *it* for its backlog.
    pd.call("unsubscribe", {"topics": ["lifecycle"]})
    context = GLib.MainContext.default()
    answered, failed = [0], []
    def done(conn, result, _):
        try:
            conn.call_finish(result)
        except GLib.Error as e:
            failed.append(e.message)
        answered[0] += 1
    n = 20000
    for i in range(n):
        params = GLib.Variant("(susssasa{sv}i)", ("tests", id, "", "flood", "x" * 3000 + str(i), [], {}, 0))
        observer.conn.call(NAME, PATH, NAME, "Notify", params, None, Gio.DBusCallFlags.NONE, 120000, None, done, None)
    def all_answered():
        while context.iteration(False):
            pass
        return answered[0] == n
    wait_until(all_answered, f"answers to {n} Notify calls", timeout=180,
               context=lambda: f"{answered[0]} answered; bridge log:\n{bridge.log[-2000:]}")
    assert failed == []
    last = "x" * 3000 + str(n - 1)
    def latest():
        e = stack(pd).get(bridge.entry(id))
        return e if e and e["content"].get("message") == last else None
    e = wait_until(latest, "the last replacement's body on presentd",
                   context=lambda: f"bridge log:\n{bridge.log[-2000:]}")
    assert bridge.process.poll() is None, bridge.log[-2000:]
    # Coalesced: far fewer updates than calls reached presentd.
    assert e["contentRevision"] - first["contentRevision"] < n // 2
    assert observer.named("NotificationClosed", id) == []


def test_replaces_id_of_a_closed_notification_is_a_new_one(bridge, pd, observer):
    id = observer.notify("Old")
    observer.close(id)
    assert observer.closed(id) == 3
    new = observer.notify("New", replaces=id)
    assert new != id and new > id  # ids are never reused
    entry(pd, bridge, new)


def test_replacing_starts_the_countdown_again(bridge, pd, observer):
    id = observer.notify("Volume", timeout=2000)
    shown(pd, bridge, id)
    pd.advance(1.5)
    observer.notify("Volume", replaces=id, timeout=2000)
    lifecycle(pd, bridge.entry(id), "updated")
    pd.advance(1.5)  # 3 s after it presented, 1.5 s after the update
    assert stack(pd)[bridge.entry(id)]["state"] == "presented"
    pd.advance(0.6)
    assert observer.closed(id) == 1


def test_synchronous_tag_replaces_within_the_app(bridge, pd, observer):
    tag = ["-h", "string:x-canonical-private-synchronous:volume"]
    a = int(run(["notify-send", "-p", "-a", "osd", *tag, "Volume", "40%"], bridge.env).stdout)
    b = int(run(["notify-send", "-p", "-a", "osd", *tag, "Volume", "50%"], bridge.env).stdout)
    assert a == b
    assert entry(pd, bridge, a)["content"]["message"] == "50%"
    other_app = int(run(["notify-send", "-p", "-a", "other", *tag, "Volume", "60%"], bridge.env).stdout)
    assert other_app != a


def test_dunst_stack_tag_replaces_too(bridge, pd, observer):
    hints = {"x-dunst-stack-tag": GLib.Variant("s", "brightness")}
    a = observer.notify("Brightness", "10%", hints=hints)
    b = observer.notify("Brightness", "20%", hints=hints)
    assert a == b
    assert entry(pd, bridge, a)["content"]["message"] == "20%"


def test_urgency_as_byte_or_uint32_gives_priority_and_droppable(bridge, pd, observer):
    low = observer.notify("low", hints={"urgency": GLib.Variant("y", 0)})
    normal = observer.notify("normal", hints={"urgency": GLib.Variant("u", 1)})
    critical = observer.notify("critical", hints={"urgency": GLib.Variant("u", 2)})  # as Chromium sends it
    by_send = int(run(["notify-send", "-p", "-u", "critical", "crit"], bridge.env).stdout)
    s = {id: entry(pd, bridge, id) for id in (low, normal, critical, by_send)}
    assert [s[i]["priority"] for i in (low, normal, critical, by_send)] == [250, 500, 1000, 1000]
    assert s[critical]["content"]["accessibility"]["announce"] == "assertive"


def test_do_not_disturb_drops_low_holds_normal_and_passes_critical(bridge, pd, observer):
    pd.do_not_disturb()  # presentctl dnd on: priorities above 500 pass
    low = observer.notify("low", hints={"urgency": GLib.Variant("y", 0)})
    assert observer.closed(low) == 4  # refused as droppable: it means nothing later
    normal = observer.notify("normal")
    held = entry(pd, bridge, normal)
    assert held["state"] == "queued"
    critical = observer.notify("critical", hints={"urgency": GLib.Variant("y", 2)})
    assert entry(pd, bridge, critical)["state"] in ("presenting", "presented")
    pd.end_do_not_disturb()
    shown(pd, bridge, normal)
    assert observer.named("NotificationClosed", normal) == []


def test_value_is_progress(bridge, pd, observer):
    half = observer.notify("half", hints={"value": GLib.Variant("i", 42)})
    over = observer.notify("over", hints={"value": GLib.Variant("u", 150)})
    negative = observer.notify("none", hints={"value": GLib.Variant("i", -5)})
    assert entry(pd, bridge, half)["content"]["progress"] == 0.42
    assert entry(pd, bridge, over)["content"]["progress"] == 1.0
    assert "progress" not in entry(pd, bridge, negative)["content"]


def test_hints_of_the_wrong_type_are_ignored(bridge, pd, observer):
    id = observer.notify("typed", hints={
        "urgency": GLib.Variant("s", "critical"),
        "value": GLib.Variant("s", "50"),
        "resident": GLib.Variant("s", "yes"),
        "image-data": GLib.Variant("s", "not pixels"),
        "x-canonical-private-synchronous": GLib.Variant("i", 3),
        "category": GLib.Variant("s", "device"),
        "desktop-entry": GLib.Variant("s", "org.example.App"),
        "transient": GLib.Variant("b", True),
        "suppress-sound": GLib.Variant("b", True),
        "sound-name": GLib.Variant("s", "bell"),
        "x": GLib.Variant("i", 10), "y": GLib.Variant("i", 10),
    }, actions=["a", "A"])
    e = entry(pd, bridge, id)
    assert e["priority"] == 500
    assert "progress" not in e["content"] and "icon" not in e["content"]
    assert e["content"]["actions"][0]["dismisses"] is True
    assert "hint urgency: type s is not the one the spec gives: ignored" in bridge.log
