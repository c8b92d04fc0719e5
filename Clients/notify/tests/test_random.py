"""Random Notify calls, a fixed seed: presentd refuses none of what the bridge sends, and
every notification gets exactly one NotificationClosed."""

from __future__ import annotations

import random

from gi.repository import GLib

from conftest import stack
from presentd.daemon import wait_until

ALPHABET = "abc XYZ 019 <>&;#/\\\"' é中😀\u0301\t\n" + "".join(chr(c) for c in range(0x20, 0x7f))


def text(rng: random.Random, longest: int) -> str:
    n = rng.choice([0, 1, 5, 40, longest])
    return "".join(rng.choice(ALPHABET) for _ in range(n))


def hints(rng: random.Random) -> dict:
    h = {}
    if rng.random() < 0.5:
        h["urgency"] = GLib.Variant(rng.choice("yui"), rng.choice([0, 1, 2, 7]))
    if rng.random() < 0.3:
        h["value"] = GLib.Variant(rng.choice("iu"), rng.choice([0, 50, 100, 250]))
    if rng.random() < 0.3:
        h["image-path"] = GLib.Variant("s", rng.choice(["/x.png", "/y.SVG", "/z.jpg", "rel.png", "file:///a%20b.png",
                                                        "", "/" + "d/" * 3000 + "x.png"]))
    if rng.random() < 0.2:
        h["x-dunst-stack-tag"] = GLib.Variant("s", rng.choice(["vol", "bright"]))
    if rng.random() < 0.2:
        h["resident"] = GLib.Variant("b", True)
    return h


def actions(rng: random.Random) -> list[str]:
    keys = ["default", "ok", "", "k" * 70, "inline-reply", "dup", "dup", "é" * 64, "x"]
    out = []
    for _ in range(rng.choice([0, 1, 2, 12])):
        out += [rng.choice(keys), text(rng, 300)]
    return out


def close(observer, id: int) -> None:
    """CloseNotification, which may find it gone already (an error, per the spec)."""
    try:
        observer.close(id)
    except GLib.Error as e:
        assert "Error.NotFound" in e.message, e.message


def test_random_notifications_are_all_taken_and_each_closed_once(make_bridge, pd, observer):
    bridge = make_bridge("--max-visible", "64", "--max-waiting", "1000")
    rng = random.Random(24)
    ids = set()
    for _ in range(250):
        replaces = rng.choice([0, 0, 0, *sorted(ids)[-3:]]) if ids else 0
        id = observer.notify(text(rng, 300), text(rng, 5000), app=rng.choice(["a", "b", ""]), replaces=replaces,
                             icon=rng.choice(["", "mail-unread", "/i.png", "x" * 300, "file://relative"]),
                             actions=actions(rng), hints=hints(rng), timeout=rng.choice([-1, 0, 1, 500, 2**31 - 1]))
        ids.add(id)
        if rng.random() < 0.3:
            close(observer, rng.choice(sorted(ids)))
        if rng.random() < 0.2:
            pd.advance(rng.choice([0.1, 0.6]))
    for id in sorted(ids):
        close(observer, id)
    pd.advance(2)

    def all_closed():
        closed = observer.named("NotificationClosed")
        return len(closed) >= len(ids)
    wait_until(all_closed, f"NotificationClosed for each of {len(ids)} notifications",
               context=lambda: f"{len(observer.named('NotificationClosed'))} so far")
    closed = [args[0] for args in observer.named("NotificationClosed")]
    assert sorted(closed) == sorted(ids), "a notification was closed twice, or never"
    assert "presentd refused" not in bridge.log, bridge.log
    assert "refused:" not in bridge.log, bridge.log
    assert not [k for k in stack(pd) if k.startswith(f"notify.{bridge.pid}.") and stack(pd)[k]["state"] != "dismissing"]
