"""What the synchronous and the asyncio client share: where the socket is, how a line
becomes a message, how a message is routed, and the queue events wait in."""

from __future__ import annotations

import collections
import json
import os
from dataclasses import dataclass
from typing import Any, Callable, Deque, Iterable, Optional

from .errors import ProtocolError, RPCError
from .types import ActionEvent, Closing, Event, Frame, Lifecycle, Shutdown, parse_event

DEFAULT_SYSTEM_SOCKET = "/run/presentd/presentd.sock"
#: Longest line accepted from the daemon (its own lines are far shorter).
MAX_LINE_BYTES = 64 << 20


def socket_path(explicit: str | None = None) -> str:
    """The socket, in the daemon's order: ``explicit``, ``$PRESENTD_SOCKET``,
    ``$XDG_RUNTIME_DIR/presentd/presentd.sock``, ``/run/presentd/presentd.sock``."""
    if explicit:
        return explicit
    if os.environ.get("PRESENTD_SOCKET"):
        return os.environ["PRESENTD_SOCKET"]
    if os.environ.get("XDG_RUNTIME_DIR"):
        return os.environ["XDG_RUNTIME_DIR"] + "/presentd/presentd.sock"
    return DEFAULT_SYSTEM_SOCKET


def _jsonable(value: Any) -> Any:
    """Objects that know their JSON (``Content``, ``Action``…) stand for it in params."""
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON: give a dict, a list, a string, a number or a presentd type")


def encode(message: dict) -> bytes:
    """One JSON-RPC message as a line (compact, UTF-8, no NaN: the daemon refuses it)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False,
                      default=_jsonable).encode() + b"\n"


def request(id: int, method: str, params: Any = None) -> bytes:
    m: dict = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        m["params"] = params
    return encode(m)


def notification(method: str, params: Any = None) -> bytes:
    m: dict = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        m["params"] = params
    return encode(m)


def response(id: Any, result: Any = None, error: dict | None = None) -> bytes:
    m: dict = {"jsonrpc": "2.0", "id": id}
    if error is not None:
        m["error"] = error
    else:
        m["result"] = result
    return encode(m)


@dataclass
class Reply:
    """The daemon's answer to request ``id``: a result, or the error to raise."""
    id: Any
    result: Any = None
    error: Optional[RPCError] = None

    def get(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.result


@dataclass
class DaemonRequest:
    """A request from the daemon to this client (``shouldDismiss``)."""
    id: Any
    method: str
    params: Any


def decode(line: bytes) -> "Reply | DaemonRequest | Event":
    """Classifies one line: a reply, a request from the daemon, or an event."""
    try:
        m = json.loads(line)
    except ValueError as e:
        raise ProtocolError(f"the daemon sent invalid JSON: {e}") from None
    if not isinstance(m, dict) or m.get("jsonrpc") != "2.0":
        raise ProtocolError(f"not a JSON-RPC 2.0 message: {line[:200]!r}")
    method = m.get("method")
    if isinstance(method, str):
        if "id" in m:
            return DaemonRequest(m["id"], method, m.get("params"))
        return parse_event(method, m.get("params"))
    if "error" in m:
        return Reply(m.get("id"), error=RPCError.from_json(m["error"]))
    if "result" in m:
        return Reply(m.get("id"), result=m["result"])
    raise ProtocolError(f"neither a request, a notification nor a response: {line[:200]!r}")


def answer(request: DaemonRequest, allow: bool) -> bytes:
    """The response line to a daemon request: ``{"allow": …}`` to ``shouldDismiss``,
    method-not-found to anything this client does not know."""
    if request.method != "shouldDismiss":
        return response(request.id, error={"code": -32601, "message": f"method not found: {request.method}"})
    return response(request.id, {"allow": bool(allow)})


def callback_failed(request: DaemonRequest, error: BaseException) -> bytes:
    """The answer when the client's callback raised: an error, which the daemon takes
    as "allow" (as it does a timeout)."""
    return response(request.id, error={"code": -32603, "message": f"client callback failed: {error}"})


def disconnect_reason(event: Event) -> str | None:
    """The reason a ``shutdown`` or ``closing`` notice gives for the end to come."""
    return event.reason if isinstance(event, (Shutdown, Closing)) else None


class EventQueue:
    """Events waiting to be read, oldest first.

    With ``coalesce_frames`` a frame replaces an unread older one of the same output (which
    is dropped and the new one goes to the back, after the events that arrived between
    them), so a reader that falls behind gets the newest picture of each screen, as the
    daemon itself does.
    Lifecycle, stack and status events are never dropped.
    """

    def __init__(self, coalesce_frames: bool):
        self.coalesce_frames = coalesce_frames
        self._items: Deque[Event] = collections.deque()
        self.dropped_frames = 0

    def push(self, event: Event) -> None:
        if self.coalesce_frames and isinstance(event, Frame):
            for i, old in enumerate(self._items):
                if isinstance(old, Frame) and old.output == event.output:
                    del self._items[i]
                    self.dropped_frames += 1
                    break
        self._items.append(event)

    def pop(self) -> Event | None:
        return self._items.popleft() if self._items else None

    def clear(self) -> None:
        self._items.clear()

    def withdraw(self, event: Event) -> None:
        """Takes back ``event`` (this very object) if it is still unread: an ask claimed it."""
        for i, item in enumerate(self._items):
            if item is event:
                del self._items[i]
                return

    def __len__(self) -> int:
        return len(self._items)


class Topics:
    """The topics this connection is subscribed to, as the caller asked for them, and the
    ``lifecycle`` subscription that ``ask`` borrows while it waits: an ask must see its
    entry leave, but a caller who never subscribed to lifecycle events gets none of them."""

    def __init__(self) -> None:
        self.subscribed: set[str] = set()
        self.borrowers = 0

    def subscribed_to(self, topics: Iterable[str]) -> None:
        self.subscribed.update(topics)

    def to_unsubscribe(self, topics: Iterable[str]) -> list[str]:
        """What an ``unsubscribe`` of ``topics`` sends: ``lifecycle`` stays while an ask needs it."""
        topics = list(topics)
        self.subscribed.difference_update(topics)
        return [t for t in topics if not (t == "lifecycle" and self.borrowers)]

    @property
    def owns_lifecycle(self) -> bool:
        return "lifecycle" in self.subscribed

    def swallows(self, event: Event) -> bool:
        """A lifecycle event that only an ask's borrowed subscription brought."""
        return isinstance(event, Lifecycle) and self.borrowers > 0 and not self.owns_lifecycle


class AskWatch:
    """What ``ask`` waits for, on the events of its connection: the owner's ``action``
    for its entry (which it takes, and returns), or the entry leaving without one.

    Watching starts before the ``present`` is sent and the entry's id is known only from
    its reply; events read meanwhile are remembered, so an entry that is gone by the time
    the reply is read is not waited for, and an answer that came first is not lost (a
    busy client can read a screen's key press before the reply it was sent after). An early
    event is queued for the caller too, since it may be someone else's; ``started`` takes
    back the one that proves to be the answer."""

    def __init__(self, on_done: Callable[[], None] | None = None) -> None:
        self.id: str | None = None
        self.done = False
        self.disconnected = False
        self.answer: ActionEvent | None = None
        self.on_done = on_done
        self._early: list[tuple[str, str]] = []
        self._early_answers: list[ActionEvent] = []

    def see(self, event: Event) -> bool:
        """Looks at one event; True when the ask takes it (it is nobody else's)."""
        if self.done:
            return False
        if isinstance(event, ActionEvent) and self.id is not None and event.id == self.id:
            self.answer = event
            self._finish()
            return True
        if isinstance(event, ActionEvent) and self.id is None:
            self._early_answers.append(event)  # perhaps ours: started() decides
            return False
        if isinstance(event, Lifecycle):
            if self.id is None:
                self._early.append((event.id, event.event))
            elif event.id == self.id and event.event in ("willDismiss", "didDismiss"):
                self._finish()
        return False

    def started(self, id: str, events: EventQueue) -> None:
        """The ``present`` reply named the entry: was it answered, or did it leave, already?
        ``events`` is the connection's queue, from which an early answer is taken back."""
        self.id = id
        answer = next((a for a in self._early_answers if a.id == id), None)
        self._early_answers.clear()
        if answer is not None:
            self.answer = answer
            events.withdraw(answer)
            self._early.clear()
            return self._finish()
        began = None
        for i, (eid, name) in enumerate(self._early):
            if eid == id and name in ("queued", "willPresent"):
                began = i
        if began is not None and any(eid == id and name in ("willDismiss", "didDismiss")
                                     for eid, name in self._early[began:]):
            self._finish()
        self._early.clear()

    def closed(self) -> None:
        """The connection ended: there is nothing more to wait for."""
        self.disconnected = True
        self._finish()

    def _finish(self) -> None:
        if not self.done:
            self.done = True
            if self.on_done is not None:
                self.on_done()


#: How long a client keeps trying to reconnect after the connection ends, by default (s).
RECONNECT_SECONDS = 30.0


class Reconnection:
    """What a client needs to come back after the daemon restarts (a crash, ``kill -9``,
    an upgrade): its resume token, the hello name, the backoff, and the ``shutdown`` notice
    held back meanwhile (a restart is not the end; giving up is, and then it is delivered).

    ``seconds`` bounds the attempts (0: never reconnect). After ``closing`` (the daemon
    threw this client out: backlog, limits) there is no reconnecting."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.token: str | None = None
        self.name: str | None = "presentd-python"
        self.count = 0
        self.held: Event | None = None
        self.refused = False

    def wanted(self) -> bool:
        return self.seconds > 0 and not self.refused

    def needs_hello(self, method: str) -> bool:
        """A ``present`` makes an entry worth resuming: without a token yet, say hello first."""
        return self.seconds > 0 and self.token is None and method == "present"

    def saw_hello(self, params: Any, result: Any) -> None:
        if isinstance(params, dict) and "client" in params:
            self.name = params["client"]
        if isinstance(result, dict) and isinstance(result.get("resumeToken"), str):
            self.token = result["resumeToken"]

    def hello_params(self) -> dict:
        p: dict = {"protocol": 1}
        if self.name is not None:
            p["client"] = self.name
        if self.token is not None:
            p["resume"] = self.token
        return p

    def holds(self, event: Event) -> bool:
        """Looks at an event before it is queued: True when it is held back."""
        if isinstance(event, Closing):
            self.refused = True
        elif isinstance(event, Shutdown) and self.wanted():
            self.held = event
            return True
        return False

    def delays(self) -> Iterable[float]:
        """The pause before each attempt: at once, then doubling from 50 ms to 1 s, for
        ``seconds`` in all."""
        import time
        deadline = time.monotonic() + self.seconds
        delay = 0.0
        while time.monotonic() + delay < deadline:
            yield delay
            delay = min(max(delay * 2, 0.05), 1.0)

    @staticmethod
    def topics(topics: Topics) -> list[str]:
        """What to subscribe to again: the caller's topics and what an ask borrowed."""
        return sorted(topics.subscribed | ({"lifecycle"} if topics.borrowers else set()))

    def came_back(self, hello: Any, watches: Iterable["AskWatch"]) -> None:
        """Resumed: an ask whose entry did not come back has nothing more to wait for."""
        self.count += 1
        self.held = None
        resumed = set(hello.get("resumed") or []) if isinstance(hello, dict) else set()
        if isinstance(hello, dict) and isinstance(hello.get("resumeToken"), str):
            self.token = hello["resumeToken"]
        for watch in watches:
            if watch.id is not None and watch.id not in resumed:
                watch.closed()
