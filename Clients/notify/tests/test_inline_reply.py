"""KDE's inline reply: an "inline-reply" action gets a text field; the answer is NotificationReplied."""

from __future__ import annotations

from gi.repository import GLib

from conftest import shown


def test_inline_reply_gets_a_field_and_the_text_comes_back(bridge, pd, observer):
    id = observer.notify("Alice", "Lunch?", actions=["inline-reply", "Reply", "default", "Open"],
                         hints={"x-kde-reply-placeholder-text": GLib.Variant("s", "Write a reply…")})
    e = shown(pd, bridge, id)
    assert e["content"]["fields"] == [{"id": "reply", "kind": "text", "placeholder": "Write a reply…"}]
    assert e["content"]["actions"][0]["id"] == "inline-reply"
    pd.activate(bridge.entry(id), "inline-reply", {"reply": "Yes, 12:30"})
    assert observer.wait_signal("NotificationReplied", id) == (id, "Yes, 12:30")
    assert observer.closed(id) == 2
    assert observer.named("ActionInvoked", id) == []
