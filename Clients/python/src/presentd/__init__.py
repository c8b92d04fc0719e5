"""presentd's Python client: a synchronous :class:`Client` and an asyncio
:class:`AsyncClient` for every method of the protocol (docs/PROTOCOL.md), typed events,
what an entry shows (:class:`Content`) and the answer that comes back (``ask``,
:class:`ActionEvent`), and errors that carry the JSON-RPC code and field.

Tools built on it: ``python -m presentd.record`` (a transition as GIF, contact sheet and
timing plot) and ``python -m presentd.web`` (the browser viewer and its WebSocket bridge).
"""

from .aio import AsyncClient, AsyncSubscription
from .calls import PROTOCOL_VERSION
from .client import Client, Subscription
from .errors import (ConnectError, Disconnected, InternalError, InvalidParams, InvalidRequest, LimitExceeded,
                     MethodNotFound, NotFound, NotOwner, ParseError, PresentdError, ProtocolError, RPCError,
                     WrongClockMode)
from .types import (ALL_TOPICS, INDETERMINATE, KEYS, LEVELS, Accessibility, Action, ActionEvent, Activated, Animation,
                    Closing, Container, Content, Contents, EntryUpdate, Event, Field, Frame, Hello, Icon, KeyResult,
                    Layer, Lifecycle, ModeChange, MotionChange, Presentation, Presented, Rect, ShouldDismiss, Shutdown, Snapshot, StackChanged,
                    StackEntry, StatusBarChange, Surface, SwipeResult, TapResult, Transition, UnknownEvent, Updated,
                    VisualState, bezier, spring, transition)
from .types import MAIN_OUTPUT, Interaction, Level, Output, OverlayPosition, toast
from .types import DEFAULT_TOPICS, CustomDetent, Detent, LayoutDirection, SheetStyle, detent, sheet
from ._wire import socket_path

__version__ = "0.1.0"

__all__ = [
    "AsyncClient", "AsyncSubscription", "Client", "Subscription", "PROTOCOL_VERSION", "socket_path",
    "ConnectError", "Disconnected", "InternalError", "InvalidParams", "InvalidRequest", "LimitExceeded",
    "MethodNotFound", "NotFound", "NotOwner", "ParseError", "PresentdError", "ProtocolError", "RPCError",
    "WrongClockMode",
    "ALL_TOPICS", "Animation", "Closing", "Container", "Event", "Frame", "Hello", "Layer", "Lifecycle",
    "ModeChange", "MotionChange",
    "Presentation", "Presented", "Rect", "ShouldDismiss", "Shutdown", "Snapshot", "StackChanged", "StackEntry",
    "StatusBarChange", "SwipeResult", "TapResult", "Transition", "UnknownEvent", "VisualState",
    "bezier", "spring", "transition",
    "Content", "Action", "Field", "Icon", "Surface", "Accessibility", "INDETERMINATE", "Contents",
    "ActionEvent", "Activated", "KeyResult", "Updated", "EntryUpdate", "KEYS",
    "Level", "LEVELS", "Interaction", "OverlayPosition", "toast", "Output", "MAIN_OUTPUT",
    "DEFAULT_TOPICS", "SheetStyle", "Detent", "CustomDetent", "LayoutDirection", "sheet", "detent",
]
