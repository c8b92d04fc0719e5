"""The bridge under test: a private session bus (dbus-daemon), the real presentd on the
manual clock (Tests/kit/daemon_fixtures.py's ``manual``), and presentd-notify between them.

The D-Bus side is watched with GLib's Gio (python3-gi): calls with exact types, and every
signal the bridge emits, in order. The presentd side is watched through its socket with the
Python client. Every wait is for the condition itself (``wait_until``), never a sleep."""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Callable

import pytest
from gi.repository import Gio, GLib

from presentd import Client
from presentd.daemon import wait_until

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
BRIDGE = os.environ.get("PRESENTD_NOTIFY") or str(Path(__file__).resolve().parents[1] / "build" / "presentd-notify")


class Bus:
    """A private session bus: ``dbus-daemon --session --print-address=1 --nofork``."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(["dbus-daemon", "--session", "--print-address=1", "--nofork"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.address = self.process.stdout.readline().strip()
        assert self.address, "dbus-daemon printed no address"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


class Observer:
    """A Gio connection to the bus: calls the bridge, and records its signals."""

    def __init__(self, address: str) -> None:
        self.conn = Gio.DBusConnection.new_for_address_sync(
            address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None, None)
        self.signals: list[tuple[str, tuple]] = []
        self.conn.signal_subscribe(None, NAME, None, PATH, None, Gio.DBusSignalFlags.NONE, self._on_signal)

    def _on_signal(self, conn, sender, path, interface, name, params) -> None:
        self.signals.append((name, params.unpack()))

    def pump(self) -> None:
        context = GLib.MainContext.default()
        while context.iteration(False):
            pass

    def call(self, method: str, signature: str | None = None, args: tuple = (), timeout_ms: int = 20000) -> Any:
        params = GLib.Variant(signature, args) if signature else None
        reply = self.conn.call_sync(NAME, PATH, NAME, method, params, None, Gio.DBusCallFlags.NONE, timeout_ms, None)
        return reply.unpack()

    def notify(self, summary: str = "", body: str = "", *, app: str = "tests", replaces: int = 0, icon: str = "",
               actions: list[str] | tuple = (), hints: dict[str, GLib.Variant] | None = None, timeout: int = -1) -> int:
        return self.call("Notify", "(susssasa{sv}i)",
                         (app, replaces, icon, summary, body, list(actions), hints or {}, timeout))[0]

    def close(self, id: int) -> None:
        self.call("CloseNotification", "(u)", (id,))

    def has_owner(self) -> bool:
        reply = self.conn.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                    "NameHasOwner", GLib.Variant("(s)", (NAME,)), None, Gio.DBusCallFlags.NONE,
                                    5000, None)
        return reply.unpack()[0]

    def named(self, name: str, id: int | None = None) -> list[tuple]:
        """The arguments of every signal `name` so far (about notification `id`, if given)."""
        self.pump()
        return [args for n, args in self.signals if n == name and (id is None or args[0] == id)]

    def wait_signal(self, name: str, id: int, what: str | None = None) -> tuple:
        """The first signal `name` about notification `id`."""
        def seen():
            found = self.named(name, id)
            return found[0] if found else None
        return wait_until(seen, what or f"{name} for notification {id}",
                          context=lambda: f"signals so far: {self.signals}")

    def closed(self, id: int) -> int:
        """The reason of notification id's NotificationClosed (waited for)."""
        return self.wait_signal("NotificationClosed", id)[1]


class Bridge:
    """presentd-notify on `bus` for the presentd at `socket`."""

    def __init__(self, bus: Bus, socket: str, runtime: Path, args: list[str] = ()) -> None:
        self.env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address, XDG_RUNTIME_DIR=str(runtime))
        self.env.pop("PRESENTD_SOCKET", None)
        self.log_path = runtime / f"bridge-{len(list(runtime.glob('bridge-*.log')))}.log"
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen([BRIDGE, "--socket", socket, *args], env=self.env,
                                        stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log)
        self.pid = self.process.pid

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def entry(self, id: int) -> str:
        """presentd's id for notification `id`."""
        return f"notify.{self.pid}.{id}"

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
        return self.process.returncode


@pytest.fixture
def bus():
    b = Bus()
    yield b
    b.stop()


@pytest.fixture
def runtime(tmp_path):
    d = tmp_path / "run"
    d.mkdir(mode=0o700)
    return d


@pytest.fixture
def observer(bus):
    return Observer(bus.address)


@pytest.fixture
def pd(manual):
    """A connection to presentd (the socket's owner: every role), subscribed to lifecycle."""
    with Client(manual.path) as c:
        c.hello("tests")
        c.call("subscribe", {"topics": ["lifecycle"]})
        yield c


def start_bridge(bus: Bus, manual, runtime: Path, observer: Observer, args: list[str] = ()) -> Bridge:
    b = Bridge(bus, manual.path, runtime, list(args))
    wait_until(lambda: observer.has_owner() or b.process.poll() is not None, f"{NAME} owned on the bus",
               context=lambda: f"bridge log:\n{b.log}")
    assert b.process.poll() is None, f"the bridge exited with {b.process.returncode}:\n{b.log}"
    return b


@pytest.fixture
def make_bridge(bus, manual, runtime, observer):
    started: list[Bridge] = []

    def make(*args: str) -> Bridge:
        b = start_bridge(bus, manual, runtime, observer, list(args))
        started.append(b)
        return b
    yield make
    for b in started:
        b.stop()


@pytest.fixture
def bridge(make_bridge):
    return make_bridge()


# -- presentd's side ---------------------------------------------------------------------

def stack(pd: Client) -> dict[str, dict]:
    """presentd's entries on main, by id (raw JSON)."""
    return {e["id"]: e for e in pd.call("stack")["entries"]}


def entry(pd: Client, bridge: Bridge, id: int, state: str | None = None) -> dict:
    """Notification id's entry on presentd, waited for (in `state`, if given)."""
    name = bridge.entry(id)

    def found():
        e = stack(pd).get(name)
        return e if e and (state is None or e["state"] == state) else None
    return wait_until(found, f"entry {name} on presentd's stack" + (f" in state {state}" if state else ""),
                      context=lambda: f"stack: {list(stack(pd))}\nbridge log:\n{bridge.log}")


def shown(pd: Client, bridge: Bridge, id: int) -> dict:
    """Notification id's entry, brought to rest: the clock advanced past its transition."""
    entry(pd, bridge, id)

    def at_rest():
        e = stack(pd).get(bridge.entry(id))
        if e and e["state"] != "presented":
            pd.advance(0.05)
            return None
        return e
    return wait_until(at_rest, f"entry {bridge.entry(id)} presented", context=lambda: f"stack: {stack(pd)}")


def gone(pd: Client, bridge: Bridge, id: int) -> None:
    wait_until(lambda: bridge.entry(id) not in stack(pd), f"entry {bridge.entry(id)} gone from presentd's stack",
               context=lambda: f"stack: {list(stack(pd))}")


def lifecycle(pd: Client, entry_id: str, event: str, timeout: float = 30.0):
    """The next lifecycle `event` of entry `entry_id` presentd sent the test connection."""
    import time
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        e = pd.next_event(timeout=max(0.0, deadline - time.monotonic()))
        if e is None:
            break
        seen.append(e)
        if getattr(e, "id", None) == entry_id and getattr(e, "event", None) == event:
            return e
    raise AssertionError(f"waited {timeout} s for lifecycle {event} of {entry_id}; saw {seen}")


def run(args: list[str], env: dict, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=60, **kw)
