"""A screen reader reads what presentd-wayland draws: on a private D-Bus session, whose
accessibility bus (at-spi-bus-launcher, started by the session bus on the first request) carries
the renderer's ATK tree, tests/atspi_probe.py (pyatspi, a screen reader's library) finds the
alert by its role, reads its name and description, presses its buttons, and hears its
announcements; the owner receives what a click would have sent. The tree, as accerciser lists
it, is printed with each test (pytest -s, or in a failure)."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
import time

import pytest

from presentd import Client
from presentd.daemon import wait_until

from test_input import HELPER, Helper, is_action, owner_event, present_at_rest, wtype
from test_wayland import _switches, screen_ready

PROBE = os.path.join(os.path.dirname(__file__), "atspi_probe.py")
PYTHON = "/usr/bin/python3"   # Debian's, with python3-pyatspi


def _unavailable() -> str | None:
    for tool in ("dbus-daemon", "/usr/libexec/at-spi-bus-launcher", PYTHON):
        if not shutil.which(tool):
            return f"{tool} is not installed (make deps installs at-spi2-core and dbus)"
    if subprocess.run([PYTHON, "-c", "import pyatspi"], capture_output=True).returncode != 0:
        return "python3-pyatspi is not installed (make deps installs it)"
    return None


class SessionBus:
    """A private D-Bus session bus; the accessibility bus comes with it (org.a11y.Bus is
    activated from /usr/share/dbus-1/services when atk-bridge or pyatspi first asks for it)."""

    def __init__(self):
        self.process = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.address = self.process.stdout.readline().strip()
        if not self.address:
            raise RuntimeError(f"dbus-daemon printed no address: {self.process.stderr.read()}")
        self.env = {"DBUS_SESSION_BUS_ADDRESS": self.address}

    def probe_env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DBUS_", "AT_SPI", "DISPLAY", "WAYLAND_"))}
        return dict(env, **self.env)

    def probe(self, *args: str) -> dict:
        out = subprocess.run([PYTHON, PROBE, *args], env=self.probe_env(), capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, f"atspi_probe {' '.join(args)}: {out.stderr}"
        return json.loads(out.stdout.splitlines()[-1])

    def stop(self):
        # The bus launcher and the accessibility bus it started leave when their session bus goes.
        self.process.terminate()
        self.process.wait(10)


class Listener:
    """atspi_probe.py listen: the events a screen reader hears, as they come."""

    def __init__(self, bus: SessionBus):
        self.process = subprocess.Popen([PYTHON, PROBE, "listen"], env=bus.probe_env(), stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.heard: list = []
        threading.Thread(target=lambda: [self.lines.put(line) for line in self.process.stdout], daemon=True).start()
        self.wait(lambda line: line == "listening", "the listener's AT-SPI event listeners registered")

    def wait(self, match, what: str):
        def next_line():
            try:
                line = self.lines.get(timeout=0.05).strip()
            except queue.Empty:
                if self.process.poll() is not None:
                    raise RuntimeError(f"the listener exited with {self.process.returncode}: {self.process.stderr.read()}")
                return None
            event = json.loads(line) if line.startswith("{") else line
            self.heard.append(event)
            return event if match(event) else None
        return wait_until(next_line, what, timeout=60, context=lambda: f"it heard {self.heard}")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def bus():
    reason = _unavailable()
    if reason:
        pytest.skip(reason)
    b = SessionBus()
    yield b
    b.stop()


@pytest.fixture
def screen(manual, sway_factory, renderer_factory, bus):
    sway = sway_factory(width=800, height=600, scale=1)
    renderer = renderer_factory(sway, manual.path, env=bus.env)
    with Client(manual.path) as app:
        screen_ready(app, renderer, "main", 800, 600, 1)
        wait_until(lambda: "on the accessibility bus" in renderer.log, "the renderer on the accessibility bus",
                   context=renderer.context)
        bus.probe("find", "application")   # its registration with the registry is done
        yield sway, renderer, app, bus
    renderer.stop()  # while its buses are still there: it leaves them as it would leave a session


ALERT = {"id": "a", "style": "alert", "background": {"color": "#000000", "opacity": 0.4},
         "content": {"title": "Delete file?", "message": "It cannot be undone",
                     "actions": [{"id": "ok", "title": "Delete", "role": "destructive"},
                                 {"id": "no", "title": "Cancel", "role": "cancel"}]}}


def test_a_screen_reader_finds_the_alert_reads_it_and_presses_cancel(screen):
    sway, renderer, app, bus = screen
    present_at_rest(sway, renderer, app, ALERT)
    seen = bus.probe("find", "alert")
    print(f"\nThe accessibility tree of presentd-wayland:\n{seen['tree']}")
    alert = seen["found"]
    assert (alert["name"], alert["description"]) == ("Delete file?", "It cannot be undone"), seen["tree"]
    assert "modal" in alert["states"] and "showing" in alert["states"], alert
    # The buttons in the order they are drawn (the cancel action leads), each with its click.
    assert [(c["role"], c["name"], c["actions"]) for c in alert["children"]] == \
        [("push button", "Cancel", ["click"]), ("push button", "Delete", ["click"])], seen["tree"]
    assert bus.probe("press", "alert", "Cancel") == {"pressed": True}
    event = owner_event(app, "the owner's action for Cancel pressed through AT-SPI", is_action, renderer)
    assert (event.id, event.action) == ("a", "no")
    # It leaves the tree with the entry.
    app.call("advance", {"seconds": 1})
    wait_until(lambda: not app.call("stack")["entries"], "the alert dismissed by its action")
    assert bus.probe("gone", "alert")["gone"]


def test_a_dialog_that_is_no_alert_has_the_dialog_role_and_its_fields_and_follows_tab(screen):
    sway, renderer, app, bus = screen
    if not HELPER.exists() or not shutil.which("wtype"):
        pytest.skip("the input helper or wtype is missing (make -C Clients/wayland; wtype)")
    helper = Helper(sway)   # the seat's keyboard, for Tab
    present_at_rest(sway, renderer, app, {
        "id": "form", "style": "popup", "background": {"color": "#000000", "opacity": 0.4},
        "content": {"title": "Sign in", "fields": [{"id": "name", "kind": "text", "placeholder": "Name"},
                                                   {"id": "pw", "kind": "secure", "placeholder": "Password"}],
                    "actions": [{"id": "go", "title": "Sign in", "role": "default"}]}})
    seen = bus.probe("find", "dialog")
    print(f"\nThe accessibility tree of presentd-wayland:\n{seen['tree']}")
    assert seen["found"]["name"] == "Sign in"
    assert [(c["role"], c["name"]) for c in seen["found"]["children"]] == \
        [("entry", "Name"), ("password text", "Password"), ("push button", "Sign in")], seen["tree"]
    assert "active" in seen["found"]["states"], "it has the keyboard: the active window"
    def focused():
        return [c["name"] for c in bus.probe("find", "dialog")["found"]["children"] if "focused" in c["states"]]
    try:
        assert focused() == ["Name"], f"the screen reader learns the first field has focus as it appears: {focused()}"
        wtype(sway, "-k", "Tab")
        wait_until(lambda: next(e for e in app.call("stack")["entries"] if e["id"] == "form").get("focusedField") == "pw",
                   "Tab: the password field focused", context=renderer.context)
        assert focused() == ["Password"], f"the screen reader's focus follows Tab: {focused()}"
    finally:
        helper.stop()


def _heard_by_the_renderer(sway, renderer, app, listener: Listener):
    """The bridge sends only the events some listener registered for, and hears of new ones by a
    signal, in the order they were registered (announcements first): an entry's children-changed
    heard from the renderer means it knows of the announcement listener."""
    present_at_rest(sway, renderer, app, dict(ALERT, id="first"))
    listener.wait(lambda e: isinstance(e, dict) and e["type"] == "object:children-changed:add"
                  and e["role"] == "application" and e["name"] == "presentd-wayland",
                  "the renderer's children-changed for a first entry: it knows of the listeners")


@pytest.mark.parametrize("politeness", ["assertive", "polite"])
def test_an_announced_toast_is_a_live_region_and_is_announced(screen, politeness):
    sway, renderer, app, bus = screen
    listener = Listener(bus)
    try:
        _heard_by_the_renderer(sway, renderer, app, listener)
        app.call("present", {"id": "t", "style": "topHalf",
                             "level": "overlay",
                             "content": {"title": "Battery low", "message": "10 % left",
                                         "accessibility": {"announce": politeness}}})
        app.call("advance", {"seconds": 1})
        said = listener.wait(lambda e: isinstance(e, dict) and e["type"] == "object:announcement",
                             "the toast's announcement")
        assert said["data"] == "Battery low. 10 % left", said
        assert (said["role"], said["attributes"].get("live"), said["attributes"].get("atomic")) == \
            ("notification", politeness, "true"), said
        added = [e["data"] for e in listener.heard if isinstance(e, dict) and e["type"] == "object:children-changed:add"
                 and e["role"] == "application"]
        assert added == ["Delete file?", "Battery low"], listener.heard
        # A change of its content is announced again (a live region speaks its changes).
        app.call("update", {"id": "t", "content": {"title": "Battery low", "message": "5 % left",
                                                   "accessibility": {"announce": politeness}}})
        listener.wait(lambda e: isinstance(e, dict) and e["type"] == "object:announcement" and e["data"].endswith("5 % left"),
                      "the updated toast's announcement")
    finally:
        listener.stop()


def test_a_long_message_in_any_script_is_announced_whole_and_once(screen):
    # Titles and messages are limited in characters, not bytes: 4,000 "é" are 8,000 bytes, and
    # D-Bus ends a process that hands it text cut inside a character.
    sway, renderer, app, bus = screen
    listener = Listener(bus)
    message = "é" * 4000
    try:
        _heard_by_the_renderer(sway, renderer, app, listener)
        # Drawn at rest: its buttons laid out after its content came, which changes no content.
        present_at_rest(sway, renderer, app, {"id": "t", "style": "topHalf", "level": "overlay",
                                              "content": {"title": "Charge", "message": message,
                                                          "actions": [{"id": "ok", "title": "OK"}],
                                                          "accessibility": {"announce": "polite"}}})
        said = listener.wait(lambda e: isinstance(e, dict) and e["type"] == "object:announcement",
                             "the long toast's announcement")
        assert said["data"] == f"Charge. {message}", f"announced {len(said['data'])} characters: {said['data'][-20:]!r}"
        toast = bus.probe("find", "notification")["found"]
        assert (toast["name"], toast["description"]) == ("Charge", message)
        # Content that comes while a picture is on its way is announced as it comes, and not again
        # when it is drawn (its buttons laid out anew).
        def update(text):
            app.call("update", {"id": "t", "content": {"title": "Charge", "message": text,
                                                       "actions": [{"id": "ok", "title": "OK"}],
                                                       "accessibility": {"announce": "polite"}}})
        texts = [f"update {n}" for n in range(8)]
        for text in texts:
            update(text)
        listener.wait(lambda e: isinstance(e, dict) and e["type"] == "object:announcement" and e["data"] == f"Charge. {texts[-1]}",
                      "the last update's announcement")
        # Whatever the renderer said before a later announcement has been heard by then.
        update("marker")
        listener.wait(lambda e: isinstance(e, dict) and e["type"] == "object:announcement" and e["data"] == "Charge. marker",
                      "the marker update's announcement")
        announced = [e["data"] for e in listener.heard if isinstance(e, dict) and e["type"] == "object:announcement"]
        assert [len(a) for a in announced if a.startswith("Charge. é")] == [8 + 4000], announced
        repeated = sorted({a for a in announced if announced.count(a) > 1})
        assert not repeated, f"announced more than once: {repeated}"
    finally:
        listener.stop()
    assert renderer.process.poll() is None, f"the renderer ended: {renderer.context()}"


def test_without_an_accessibility_bus_it_says_so_in_one_line_and_draws(manual, sway_factory, renderer_factory):
    sway = sway_factory(width=800, height=600, scale=1)
    renderer = renderer_factory(sway, manual.path, env={"DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"})
    with Client(manual.path) as app:
        screen_ready(app, renderer, "main", 800, 600, 1)
        present_at_rest(sway, renderer, app, ALERT)
    lines = [line for line in renderer.log.splitlines() if "accessib" in line.lower() or "dbus" in line.lower()]
    assert len(lines) == 1 and "no accessibility bus" in lines[0], renderer.log


def test_on_the_accessibility_bus_at_rest_it_does_not_wake_up(screen):
    """The bridge's D-Bus connections join the poll() loop without a timer of their own: with an
    alert at rest that a screen reader has read, 5 s without one context switch."""
    sway, renderer, app, bus = screen
    present_at_rest(sway, renderer, app, ALERT)
    bus.probe("find", "alert")
    pid = renderer.process.pid

    def settled():
        first = _switches(pid)
        time.sleep(0.5)
        return _switches(pid) == first
    wait_until(settled, "presentd-wayland to go quiet after the screen reader's questions", context=renderer.context)
    before = _switches(pid)
    time.sleep(5)  # the measurement window itself, not a wait for something
    assert _switches(pid) == before, f"presentd-wayland woke {_switches(pid) - before} times in 5 s at rest"
