"""Notify, CloseNotification, GetCapabilities, GetServerInformation and the signals, as
programs nobody here wrote (notify-send, gdbus, dbus-send) and Gio call them."""

from __future__ import annotations

import subprocess

import pytest
from gi.repository import GLib

from conftest import entry, gone, lifecycle, run, shown, stack
from presentd.daemon import wait_until


def test_server_information_names_presentd_and_its_version(bridge, pd):
    out = run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
               "/org/freedesktop/Notifications", "--method",
               "org.freedesktop.Notifications.GetServerInformation"], bridge.env)
    assert out.returncode == 0, out.stderr
    version = pd.call("hello", {"client": "tests"})["version"]
    assert out.stdout.strip() == f"('presentd', 'presentd', '{version}', '1.2')"


# Each capability the bridge lists, and what it does: each probe calls the bridge as an app
# relying on that capability would, and checks what presentd and the D-Bus side show.
def _actions(bridge, pd, observer):
    id = observer.notify("cap", actions=["yes", "Yes"], timeout=0)
    assert [a["id"] for a in shown(pd, bridge, id)["content"]["actions"]] == ["yes"]
    pd.activate(bridge.entry(id), "yes")
    assert observer.wait_signal("ActionInvoked", id) == (id, "yes")
    assert observer.closed(id) == 2


def _body(bridge, pd, observer):
    id = observer.notify("cap", "the body", timeout=0)
    assert entry(pd, bridge, id)["content"]["message"] == "the body"
    observer.close(id)
    assert observer.closed(id) == 3


def _body_markup(bridge, pd, observer):
    id = observer.notify("cap", "<b>bold</b> &amp; <i>it</i>", timeout=0)
    content = entry(pd, bridge, id)["content"]
    assert content["message"] == "bold & it" and content["messageMarkup"] == "<b>bold</b> &amp; <i>it</i>"
    observer.close(id)
    assert observer.closed(id) == 3


def _icon_static(bridge, pd, observer):
    from test_icons import pixels
    id = observer.notify("cap", hints={"image-data": pixels(2, 2)}, timeout=0)
    path = entry(pd, bridge, id)["content"]["icon"]["path"]
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    observer.close(id)
    assert observer.closed(id) == 3


def _inline_reply(bridge, pd, observer):
    id = observer.notify("cap", actions=["inline-reply", "Reply"], timeout=0)
    assert shown(pd, bridge, id)["content"]["fields"][0]["id"] == "reply"
    pd.activate(bridge.entry(id), "inline-reply", {"reply": "ok"})
    assert observer.wait_signal("NotificationReplied", id) == (id, "ok")
    assert observer.closed(id) == 2


def _tag(hint):
    def probe(bridge, pd, observer):
        first = observer.notify("cap 1", hints={hint: GLib.Variant("s", "volume")}, timeout=0)
        entry(pd, bridge, first)
        second = observer.notify("cap 2", hints={hint: GLib.Variant("s", "volume")}, timeout=0)
        assert second == first
        wait_until(lambda: stack(pd)[bridge.entry(first)]["content"].get("title") == "cap 2",
                   f"{hint}: the second replaces the first in place")
        observer.close(first)
        assert observer.closed(first) == 3
    return probe


CAPABILITY_PROBES = {
    "actions": _actions,
    "body": _body,
    "body-markup": _body_markup,
    "icon-static": _icon_static,
    "inline-reply": _inline_reply,
    "x-canonical-private-synchronous": _tag("x-canonical-private-synchronous"),
    "x-dunst-stack-tag": _tag("x-dunst-stack-tag"),
}


def test_capabilities_are_the_implemented_ones(bridge, pd, observer):
    out = run(["dbus-send", "--session", "--print-reply=literal", "--dest=org.freedesktop.Notifications",
               "/org/freedesktop/Notifications", "org.freedesktop.Notifications.GetCapabilities"], bridge.env)
    assert out.returncode == 0, out.stderr
    words = out.stdout.split()
    assert words[:2] == ["array", "["] and words[-1] == "]"
    listed = words[2:-1]
    assert listed == list(CAPABILITY_PROBES), "a capability is listed without a probe of what it does, or the reverse"
    for capability in listed:
        CAPABILITY_PROBES[capability](bridge, pd, observer)


def test_notify_send_presents_an_overlay_with_summary_and_body(bridge, pd):
    out = run(["notify-send", "-p", "-a", "mail", "Disk full", "Only 2 MB left on /home"], bridge.env)
    assert out.returncode == 0, out.stderr
    id = int(out.stdout)
    assert id >= 1
    e = entry(pd, bridge, id)
    assert e["level"] == "overlay" and e["position"] == "trailing"
    # As tall as its content, which the renderer measures; the size it starts at until then.
    assert e["style"]["type"] == "custom" and e["style"]["width"] == {"points": 360.0}
    assert e["style"]["height"] == "content"
    assert e["preferredContentSize"] == {"height": 96.0}
    assert e["frame"]["width"] == 360.0 and e["frame"]["height"] == 96.0
    assert e["priority"] == 500
    assert e["content"]["title"] == "Disk full"
    assert e["content"]["message"] == "Only 2 MB left on /home"
    assert e["autoDismiss"]["after"] == 10.0  # expire_timeout -1 at normal urgency


def test_done_when_notify_send_wait_prints_the_action_chosen_with_presentctl_activate(bridge, pd, manual, observer):
    waiting = subprocess.Popen(["notify-send", "-A", "yes=Yes", "-A", "no=No", "--wait", "Disk full", "…"],
                               env=bridge.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # notify-send prints no id with --wait: its notification is the bridge's only one.
        name = wait_until(lambda: next((k for k in stack(pd) if k.startswith(f"notify.{bridge.pid}.")), None),
                          "notify-send's notification on presentd's stack")
        id = int(name.rsplit(".", 1)[1])
        e = shown(pd, bridge, id)
        assert [(a["id"], a["title"]) for a in e["content"]["actions"]] == [("yes", "Yes"), ("no", "No")]
        act = run([manual_presentctl(), "--socket", manual.path, "activate", name, "yes"], bridge.env)
        assert act.returncode == 0, act.stderr
        out, err = waiting.communicate(timeout=30)
    finally:
        if waiting.poll() is None:
            waiting.kill()
    assert waiting.returncode == 0, err
    assert out.strip() == "yes"
    assert observer.wait_signal("ActionInvoked", id) == (id, "yes")
    assert observer.closed(id) == 2
    kinds = [n for n, args in observer.signals if args[0] == id]
    assert kinds == ["ActionInvoked", "NotificationClosed"]


def test_an_activation_token_is_emitted_just_before_action_invoked(bridge, pd, observer, manual):
    """Spec 1.3: ActivationToken(id, token) just before ActionInvoked, when the click came with
    the compositor's xdg-activation token (presentctl activate --activation-token, as a renderer
    sends it); a click without one emits none."""
    first = observer.notify("Meeting", actions=["join", "Join"])
    shown(pd, bridge, first)
    act = run([manual_presentctl(), "--socket", manual.path, "activate", bridge.entry(first), "join",
               "--activation-token", "sway-4f1c2a"], bridge.env)
    assert act.returncode == 0, act.stderr
    assert observer.wait_signal("ActionInvoked", first) == (first, "join")
    assert observer.closed(first) == 2
    assert [(n, args) for n, args in observer.signals if args[0] == first] == [
        ("ActivationToken", (first, "sway-4f1c2a")), ("ActionInvoked", (first, "join")), ("NotificationClosed", (first, 2))]
    second = observer.notify("Call", actions=["answer", "Answer"])
    shown(pd, bridge, second)
    pd.activate(bridge.entry(second), "answer")
    assert observer.closed(second) == 2
    assert [n for n, args in observer.signals if args[0] == second] == ["ActionInvoked", "NotificationClosed"]


def manual_presentctl() -> str:
    import os
    return os.environ["PRESENTCTL"]


def test_default_action_is_the_default_role_and_answers_default(bridge, pd, observer):
    id = observer.notify("Update ready", actions=["default", "", "later", "Later"])
    e = shown(pd, bridge, id)
    actions = e["content"]["actions"]
    assert actions[0] == {"id": "default", "title": "default", "role": "default", "dismisses": True}
    assert "role" not in actions[1]
    pd.activate(bridge.entry(id), "default")
    assert observer.wait_signal("ActionInvoked", id) == (id, "default")
    assert observer.closed(id) == 2


def test_action_keys_presentd_cannot_take_are_given_back_as_sent(bridge, pd, observer):
    long_key = "k" * 100  # over presentd's 64 characters for an action id
    id = observer.notify("Keys", actions=[long_key, "Long", "dup", "One", "dup", "Two"])
    e = shown(pd, bridge, id)
    assert [(a["id"], a["title"]) for a in e["content"]["actions"]] == [("action-0", "Long"), ("dup", "One")]
    pd.activate(bridge.entry(id), "action-0")
    assert observer.wait_signal("ActionInvoked", id) == (id, long_key)


def test_generated_action_ids_never_collide_with_given_ones(bridge, pd, observer):
    # The second key is too long for an id, so it gets action-N: not action-1, the first's.
    long_key = "k" * 70
    id = observer.notify("ids", actions=["action-1", "One", long_key, "Long", "x" * 65, "Longer"], timeout=0)
    e = shown(pd, bridge, id)
    ids = [a["id"] for a in e["content"]["actions"]]
    assert ids[0] == "action-1" and len(set(ids)) == 3, ids
    pd.activate(bridge.entry(id), ids[1])
    assert observer.wait_signal("ActionInvoked", id) == (id, long_key)
    assert observer.named("NotificationClosed", id) in ([], [(id, 2)])  # not refused by presentd (reason 4)


def test_resident_actions_do_not_dismiss(bridge, pd, observer):
    id = observer.notify("Player", actions=["pause", "Pause"], hints={"resident": GLib.Variant("b", True)})
    e = shown(pd, bridge, id)
    assert e["content"]["actions"][0]["dismisses"] is False
    pd.activate(bridge.entry(id), "pause")
    assert observer.wait_signal("ActionInvoked", id) == (id, "pause")
    assert stack(pd)[bridge.entry(id)]["state"] == "presented"
    assert observer.named("NotificationClosed", id) == []


@pytest.mark.parametrize("body, message, markup", [
    ("<b>bold</b> &amp; <i>x</i> <img src=\"/x.png\"/>", "bold & x ", "<b>bold</b> &amp; <i>x</i> "),
    ("<b>Bold</b> &amp; <i>it</i> <u>u</u> <a href=\"https://x.org/?a=1&amp;b=2\" title=\"t\">link</a>",
     "Bold & it u link", "<b>Bold</b> &amp; <i>it</i> <u>u</u> <a href=\"https://x.org/?a=1&amp;b=2\">link</a>"),
    # Tags are kept well nested: a stray closing tag is dropped, one left open is closed.
    ("<B class=\"x\">a<i>b</b>c</i> <u>open", "abc open", "<b>a<i>bc</i> <u>open</u></b>"),
    ("<a>no link</a> <span color=\"red\">red</span>", "no link red", None),
    ("line<br/>next &lt;tag&gt; &#233;&#x263A;", "line\nnext <tag> é☺", None),
    ("<img src=\"/x.png\" alt=\"pic\"/>after", "after", None),
    # Not markup: kept as it was sent, and no markup.
    ("a < b && c > d", "a < b && c > d", None),
    ("Tom & Jerry <3", "Tom & Jerry <3", None),
    ("&bogus; <b>", "&bogus; <b>", None),
])
def test_body_markup_is_plain_text_in_message_and_safe_markup_in_message_markup(bridge, pd, observer, body,
                                                                                 message, markup):
    id = observer.notify("Markup", body)
    content = entry(pd, bridge, id)["content"]
    assert content["message"] == message
    assert content.get("messageMarkup") == markup


def test_summary_is_plain_text_and_long_text_is_cut(bridge, pd, observer):
    id = observer.notify("<b>x</b> " + "é" * 300, "y" * 5000)
    content = entry(pd, bridge, id)["content"]
    assert content["title"] == ("<b>x</b> " + "é" * 300)[:255] + "…"
    assert content["message"] == "y" * 4095 + "…"
    # The markup goes only with the whole text: a cut message would not match it.
    cut = observer.notify("cut", "<b>" + "y" * 5000 + "</b>")
    assert "messageMarkup" not in entry(pd, bridge, cut)["content"]


def test_empty_summary_and_body_present_a_blank_content(bridge, pd, observer):
    id = observer.notify("", "")
    content = entry(pd, bridge, id)["content"]
    assert "title" not in content and "message" not in content


def test_close_notification_closes_with_reason_3_exactly_once(bridge, pd, observer):
    id = observer.notify("Closing", timeout=0)
    shown(pd, bridge, id)
    out = run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
               "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.CloseNotification",
               str(id)], bridge.env)
    assert out.returncode == 0, out.stderr
    assert observer.closed(id) == 3
    # Again: the spec's error ("If the notification no longer exists, an empty D-BUS Error
    # message is sent back"), and no second signal.
    with pytest.raises(GLib.Error) as again:
        observer.close(id)
    assert "org.freedesktop.Notifications.Error.NotFound" in again.value.message
    with pytest.raises(GLib.Error):
        observer.close(999999)  # never was
    pd.advance(1)
    gone(pd, bridge, id)
    other = observer.notify("After")
    entry(pd, bridge, other)
    assert observer.named("NotificationClosed", id) == [(id, 3)]


def test_dismissed_by_the_user_is_reason_2(bridge, pd, observer):
    by_dismiss = observer.notify("Dismissed", timeout=0)
    shown(pd, bridge, by_dismiss)
    pd.dismiss(bridge.entry(by_dismiss))
    assert observer.closed(by_dismiss) == 2
    by_key = observer.notify("Escaped", actions=["ok", "OK"], timeout=0)
    shown(pd, bridge, by_key)
    pd.key("escape", id=bridge.entry(by_key))
    assert observer.closed(by_key) == 2


def test_expiry_is_exact_on_the_manual_clock_and_reason_1(bridge, pd, observer):
    id = observer.notify("Expiring", timeout=3000)
    name = bridge.entry(id)
    assert entry(pd, bridge, id)["autoDismiss"]["after"] == 3.0
    now = pd.advance(0.5)  # past its 0.25 s transition
    rested = lifecycle(pd, name, "didPresent").time
    now = pd.advance(rested + 2.99 - now)
    assert stack(pd)[name]["state"] == "presented"
    assert observer.named("NotificationClosed", id) == []
    pd.advance(0.02)
    leaving = lifecycle(pd, name, "willDismiss")
    assert leaving.reason == "timeout"
    assert leaving.time == pytest.approx(rested + 3.0, abs=1e-9)
    assert observer.closed(id) == 1


def test_expire_timeout_maps_to_auto_dismiss(bridge, pd, observer):
    low = observer.notify("low", hints={"urgency": GLib.Variant("y", 0)})
    normal = observer.notify("normal", timeout=-1)
    never = observer.notify("never", timeout=0)
    ms = observer.notify("ms", timeout=1500)
    critical = observer.notify("critical", timeout=1500, hints={"urgency": GLib.Variant("y", 2)})
    s = {id: entry(pd, bridge, id) for id in (low, normal, never, ms, critical)}
    assert s[low]["autoDismiss"]["after"] == 5.0
    assert s[normal]["autoDismiss"]["after"] == 10.0
    assert s[ms]["autoDismiss"]["after"] == 1.5
    assert "autoDismiss" not in s[never]
    assert "autoDismiss" not in s[critical]  # critical never expires


def test_a_notification_that_asks_stays_until_answered(bridge, pd, observer):
    asks = observer.notify("Meeting in 5 min", actions=["join", "Join", "default", "Open"])
    reply = observer.notify("Message", actions=["inline-reply", "Reply"])
    click = observer.notify("Clicked", actions=["default", "Open"])  # the body's click asks nothing
    given = observer.notify("Given", actions=["ok", "OK"], timeout=3000)
    s = {id: shown(pd, bridge, id) for id in (asks, reply, click, given)}
    assert "autoDismiss" not in s[asks] and "autoDismiss" not in s[reply]
    assert s[click]["autoDismiss"]["after"] == 10.0
    assert s[given]["autoDismiss"]["after"] == 3.0  # the app's own timeout is kept
    pd.advance(3600)
    wait_until(lambda: observer.named("NotificationClosed", click) and observer.named("NotificationClosed", given),
               "the click-only and the timed notification expired after an hour on the manual clock")
    assert observer.closed(click) == 1 and observer.closed(given) == 1
    assert stack(pd)[bridge.entry(asks)]["state"] == "presented"
    assert stack(pd)[bridge.entry(reply)]["state"] == "presented"
    assert observer.named("NotificationClosed", asks) == [] and observer.named("NotificationClosed", reply) == []
    pd.activate(bridge.entry(asks), "join")
    assert observer.wait_signal("ActionInvoked", asks) == (asks, "join")
    assert observer.closed(asks) == 2
    observer.close(reply)
    assert observer.closed(reply) == 3


def test_timeout_actions_sets_how_long_a_notification_that_asks_stays(make_bridge, pd, observer):
    bridge = make_bridge("--timeout-actions", "4000")
    id = observer.notify("Update ready", actions=["restart", "Restart"])
    name = bridge.entry(id)
    assert shown(pd, bridge, id)["autoDismiss"]["after"] == 4.0
    pd.advance(4)
    assert lifecycle(pd, name, "willDismiss").reason == "timeout"
    assert observer.closed(id) == 1


def test_ids_are_never_zero_and_never_reused(bridge, pd, observer):
    ids = []
    for i in range(6):
        id = observer.notify(f"n{i}")
        ids.append(id)
        observer.close(id)
        assert observer.closed(id) == 3
    assert ids == sorted(set(ids)) and 0 not in ids


def test_a_swipe_away_is_dismissed_by_the_user(bridge, pd, observer):
    id = observer.notify("Swipe me", timeout=0)
    shown(pd, bridge, id)
    pd.swipe("began", 0, 0)
    pd.swipe("changed", 0, -150)
    pd.swipe("ended", 0, -150, 0, -2000)  # up and out through the top edge, fast
    assert lifecycle(pd, bridge.entry(id), "willDismiss").reason == "swipe"
    assert observer.closed(id) == 2
