"""What the synchronous and the asyncio client share: where the socket is, how a line
becomes a message, how a message is routed, and the queue events wait in."""

from __future__ import annotations

import collections
import json
import os
from dataclasses import dataclass
from typing import Any, Deque, Optional

from .errors import ProtocolError, RPCError
from .types import Closing, Event, Frame, Shutdown, parse_event

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


def encode(message: dict) -> bytes:
    """One JSON-RPC message as a line (compact, UTF-8, no NaN: the daemon refuses it)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode() + b"\n"


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

    With ``coalesce_frames`` a frame replaces an unread older one (which is dropped and
    the new one goes to the back, after the events that arrived between them), so a
    reader that falls behind gets the newest picture, as the daemon itself does.
    Lifecycle, stack and status events are never dropped.
    """

    def __init__(self, coalesce_frames: bool):
        self.coalesce_frames = coalesce_frames
        self._items: Deque[Event] = collections.deque()
        self.dropped_frames = 0

    def push(self, event: Event) -> None:
        if self.coalesce_frames and isinstance(event, Frame):
            for i, old in enumerate(self._items):
                if isinstance(old, Frame):
                    del self._items[i]
                    self.dropped_frames += 1
                    break
        self._items.append(event)

    def pop(self) -> Event | None:
        return self._items.popleft() if self._items else None

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
