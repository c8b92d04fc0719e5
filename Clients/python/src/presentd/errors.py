"""Exceptions raised by the presentd clients.

A JSON-RPC error from the daemon becomes an :class:`RPCError` subclass chosen by its
code, so callers can catch exactly what they handle (``except NotFound``) and read the
offending ``field`` of an invalid-params error.
"""

from __future__ import annotations

from typing import Any


class PresentdError(Exception):
    """Base class of everything the clients raise about the daemon."""


class ConnectError(PresentdError, OSError):
    """The socket could not be reached (no daemon, wrong path, permissions)."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"cannot connect to {path}: {reason}")
        self.path = path
        self.reason = reason


class Disconnected(PresentdError):
    """The connection ended. ``reason`` is the daemon's, when it said why first
    (``shutdown`` or ``closing`` notifications), else None."""

    def __init__(self, reason: str | None = None):
        super().__init__("the daemon closed the connection" + (f" ({reason})" if reason else ""))
        self.reason = reason


class ProtocolError(PresentdError):
    """The daemon sent something that is not a JSON-RPC 2.0 message."""


class RPCError(PresentdError):
    """The daemon answered a request with a JSON-RPC error.

    ``code`` is the JSON-RPC code, ``data`` the structured detail; ``field`` and
    ``reason`` are read from ``data`` (invalid params name the exact field, e.g.
    ``transition.timing.bezier[1]``).
    """

    #: The code this class stands for (None for codes presentd does not define).
    CODE: int | None = None

    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(f"{message} ({code})")
        self.code = code
        self.message = message
        self.data = data

    @property
    def field(self) -> str | None:
        return self.data.get("field") if isinstance(self.data, dict) else None

    @property
    def reason(self) -> str | None:
        return self.data.get("reason") if isinstance(self.data, dict) else None

    @staticmethod
    def from_json(error: Any) -> "RPCError":
        """The exception for an ``error`` member of a response."""
        if not isinstance(error, dict) or not isinstance(error.get("code"), int):
            raise ProtocolError(f"malformed error object: {error!r}")
        code = error["code"]
        cls = _BY_CODE.get(code, RPCError)
        return cls(code, str(error.get("message", "")), error.get("data"))


class ParseError(RPCError):
    """−32700: the line was not JSON."""
    CODE = -32700


class InvalidRequest(RPCError):
    """−32600: not a valid JSON-RPC request (also: a line over the limit)."""
    CODE = -32600


class MethodNotFound(RPCError):
    """−32601: no such method."""
    CODE = -32601


class InvalidParams(RPCError):
    """−32602: a parameter is wrong; ``field`` names it."""
    CODE = -32602


class InternalError(RPCError):
    """−32603: a fault inside presentd."""
    CODE = -32603


class NotFound(RPCError):
    """−32001: no presentation with that id."""
    CODE = -32001


class NotOwner(RPCError):
    """−32002: the presentation belongs to another connection."""
    CODE = -32002


class LimitExceeded(RPCError):
    """−32003: a configured limit would be exceeded (``data["limit"]`` says which value)."""
    CODE = -32003


class WrongClockMode(RPCError):
    """−32004: the request needs the other clock mode (``advance`` needs ``--clock manual``)."""
    CODE = -32004


_BY_CODE: dict[int, type[RPCError]] = {
    cls.CODE: cls
    for cls in (ParseError, InvalidRequest, MethodNotFound, InvalidParams, InternalError,
                NotFound, NotOwner, LimitExceeded, WrongClockMode)
    if cls.CODE is not None
}
