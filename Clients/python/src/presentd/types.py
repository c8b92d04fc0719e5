"""The protocol's shapes as Python types.

What a client *sends* is plain JSON, so it is typed with TypedDicts whose keys are the
wire names (``dismissOnTap``, ``statusBar``…): a dict literal is a valid presentation.
What the daemon *sends back* is parsed into frozen dataclasses with snake_case fields
(``Layer.corner_radius``); each keeps the JSON it came from in ``raw``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, TypedDict, Union

# MARK: - What clients send

StyleName = Literal["fullScreen", "overFullScreen", "alert", "popup", "topHalf", "bottomHalf"]
TransitionType = Literal["coverVertical", "coverVerticalFromTop", "coverHorizontalFromLeft",
                         "coverHorizontalFromRight", "slide", "crossDissolve", "flipHorizontal", "zoom"]
TimingName = Literal["linear", "easeIn", "easeOut", "easeInEaseOut", "default", "system"]
Topic = Literal["frames", "lifecycle", "stack", "statusBar"]
ALL_TOPICS: tuple[Topic, ...] = ("frames", "lifecycle", "stack", "statusBar")
STYLE_NAMES: tuple[StyleName, ...] = ("fullScreen", "overFullScreen", "alert", "popup", "topHalf", "bottomHalf")
TRANSITION_TYPES: tuple[TransitionType, ...] = (
    "coverVertical", "coverVerticalFromTop", "coverHorizontalFromLeft", "coverHorizontalFromRight",
    "slide", "crossDissolve", "flipHorizontal", "zoom")
TIMING_NAMES: tuple[TimingName, ...] = ("linear", "easeIn", "easeOut", "easeInEaseOut", "default", "system")


class SlideInStyle(TypedDict, total=False):
    type: Literal["slideIn"]
    direction: Literal["left", "right", "top", "bottom"]
    fraction: float


class CustomStyle(TypedDict, total=False):
    """``width``/``height``: ``"default" | "half" | "full" | {"points"|"fluid"|"sideMargin": n}``;
    ``position``: ``"center" | "topCenter" | "bottomCenter" | {"point"|"origin": {x, y}}``."""
    type: Literal["custom"]
    width: Any
    height: Any
    position: Any


Style = Union[StyleName, SlideInStyle, CustomStyle]


class PhysicalSpring(TypedDict, total=False):
    mass: float
    stiffness: float
    damping: float
    initialVelocity: float


class UIKitSpring(TypedDict, total=False):
    duration: float
    dampingRatio: float
    initialVelocity: float


class BezierTiming(TypedDict):
    bezier: list[float]


class SpringTiming(TypedDict):
    spring: Union[PhysicalSpring, UIKitSpring, dict]


Timing = Union[TimingName, BezierTiming, SpringTiming]


class Transition(TypedDict, total=False):
    type: TransitionType
    duration: float
    timing: Timing


class Background(TypedDict, total=False):
    color: str  # "#rrggbb" or "#rrggbbaa"
    opacity: float
    blur: Literal["extraLight", "light", "dark", "regular", "prominent"]


class Shadow(TypedDict, total=False):
    color: str
    opacity: float
    radius: float
    offset: dict  # {"x": n, "y": n}


class StatusBar(TypedDict, total=False):
    style: Literal["default", "lightContent", "darkContent"]
    hidden: bool


class Presentation(TypedDict, total=False):
    """A ``present`` request's params. ``style`` is required; the rest have defaults."""
    id: str
    kind: str
    deduplicate: bool
    content: str
    style: Style
    respectsSafeArea: bool
    transition: Transition
    dismissTransition: Transition
    background: Background
    cornerRadius: float
    shadow: Shadow
    dismissOnTap: bool
    dismissOnSwipe: bool
    confirmDismiss: bool
    keyboard: Literal["none", "moveUp", "compress", "stickToTop"]
    statusBar: StatusBar
    adaptive: Any  # "none" | "overFullScreen" | "fullScreen" | {"replacement": {...}}
    priority: int
    precedence: Literal["enqueue", "override"]
    dimsPresenterTint: bool


def transition(type: TransitionType = "coverVertical", duration: float | None = None,
               timing: Timing | None = None) -> Transition:
    """A transition object, leaving out what is not given (the daemon fills defaults)."""
    t: Transition = {"type": type}
    if duration is not None:
        t["duration"] = duration
    if timing is not None:
        t["timing"] = timing
    return t


def bezier(x1: float, y1: float, x2: float, y2: float) -> BezierTiming:
    return {"bezier": [x1, y1, x2, y2]}


def spring(**parameters: float) -> SpringTiming:
    """``spring(stiffness=300, damping=20)`` or ``spring(duration=0.5, dampingRatio=0.8)``."""
    return {"spring": dict(parameters)}


# MARK: - What the daemon sends


def _num(o: Mapping[str, Any], key: str, default: float = 0.0) -> float:
    v = o.get(key, default)
    return float(v) if isinstance(v, (int, float)) else default


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Rect":
        return Rect(_num(o, "x"), _num(o, "y"), _num(o, "width"), _num(o, "height"))

    @property
    def max_x(self) -> float:
        return self.x + self.width

    @property
    def max_y(self) -> float:
        return self.y + self.height

    def scaled(self, factor: float) -> "Rect":
        """This rect scaled by ``factor`` about its centre (how ``Layer.scale`` applies)."""
        w, h = self.width * factor, self.height * factor
        return Rect(self.x + (self.width - w) / 2, self.y + (self.height - h) / 2, w, h)


@dataclass(frozen=True)
class Container:
    width: float
    height: float
    safe_area: Mapping[str, float]
    scale: float
    horizontal_size_class: str
    vertical_size_class: str
    keyboard_height: float
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Container":
        return Container(_num(o, "width"), _num(o, "height"), dict(o.get("safeArea") or {}),
                         _num(o, "scale", 1.0), str(o.get("horizontalSizeClass", "")),
                         str(o.get("verticalSizeClass", "")), _num(o, "keyboardHeight"), o)


@dataclass(frozen=True)
class Layer:
    """One drawable layer of a frame: ``frame`` is before ``scale`` (about the centre)
    and ``rotation`` (about the vertical axis, radians)."""
    id: str
    role: Literal["dimming", "content"]
    frame: Rect
    alpha: float
    scale: float
    rotation: float
    corner_radius: float
    color: str | None = None
    blur: str | None = None
    shadow: Mapping[str, Any] | None = None
    content: str | None = None
    tint_dimmed: bool = False

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Layer":
        return Layer(str(o.get("id", "")), o.get("role", "content"), Rect.from_json(o.get("frame") or {}),
                     _num(o, "alpha", 1.0), _num(o, "scale", 1.0), _num(o, "rotation"),
                     _num(o, "cornerRadius"), o.get("color"), o.get("blur"), o.get("shadow"),
                     o.get("content"), bool(o.get("tintDimmed", False)))

    @property
    def visible_frame(self) -> Rect:
        """The frame after ``scale`` (rotation about the vertical axis narrows it further)."""
        return self.frame.scaled(self.scale)


def _layers(items: Any) -> tuple[Layer, ...]:
    return tuple(Layer.from_json(o) for o in items or ())


@dataclass(frozen=True)
class StackEntry:
    id: str
    owner: int
    state: Literal["queued", "presenting", "presented", "dismissing"]
    style: Any
    frame: Rect
    priority: int
    adapted: bool
    kind: str | None = None
    content: str | None = None
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "StackEntry":
        return StackEntry(str(o.get("id", "")), int(o.get("owner", 0)), o.get("state", "queued"), o.get("style"),
                          Rect.from_json(o.get("frame") or {}), int(o.get("priority", 0)),
                          bool(o.get("adapted", False)), o.get("kind"), o.get("content"), o)


def _entries(items: Any) -> tuple[StackEntry, ...]:
    return tuple(StackEntry.from_json(o) for o in items or ())


@dataclass(frozen=True)
class VisualState:
    frame: Rect
    alpha: float
    scale: float
    rotation: float
    dimming: float

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "VisualState":
        return VisualState(Rect.from_json(o.get("frame") or {}), _num(o, "alpha", 1.0), _num(o, "scale", 1.0),
                           _num(o, "rotation"), _num(o, "dimming"))


@dataclass(frozen=True)
class Animation:
    """A transition as a renderer interpolates it: value = from + progress·(to − from),
    where progress follows ``timing`` over ``duration`` seconds from ``start``."""
    from_state: VisualState
    to_state: VisualState
    start: float
    duration: float
    timing: Any

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Animation":
        return Animation(VisualState.from_json(o.get("from") or {}), VisualState.from_json(o.get("to") or {}),
                         _num(o, "start"), _num(o, "duration"), o.get("timing"))


# Events: one dataclass per notification method.


@dataclass(frozen=True)
class Frame:
    """``frame``: every layer at ``time`` (seconds of CLOCK_MONOTONIC, or of the manual clock)."""
    seq: int
    time: float
    layers: tuple[Layer, ...]
    animating: bool
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def layer(self, id: str, role: str = "content") -> Layer | None:
        return next((l for l in self.layers if l.id == id and l.role == role), None)


@dataclass(frozen=True)
class Lifecycle:
    """``lifecycle``: queued, willPresent, didPresent, willDismiss, didDismiss or adapted."""
    seq: int
    id: str
    event: Literal["queued", "willPresent", "didPresent", "willDismiss", "didDismiss", "adapted"]
    time: float
    owner: int
    reason: str | None = None
    animation: Animation | None = None
    adaptation: Mapping[str, Any] | None = None
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)


@dataclass(frozen=True)
class StackChanged:
    """``stack``: the whole stack after a change, bottom to top."""
    seq: int
    entries: tuple[StackEntry, ...]
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)


@dataclass(frozen=True)
class StatusBarChange:
    seq: int
    style: Literal["default", "lightContent", "darkContent"]
    hidden: bool
    duration: float
    time: float
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)


@dataclass(frozen=True)
class Shutdown:
    """The daemon is stopping; the connection ends next."""
    reason: str


@dataclass(frozen=True)
class Closing:
    """The daemon is closing this connection (``backlog``, ``tooManyConnections``…)."""
    reason: str


@dataclass(frozen=True)
class UnknownEvent:
    """A notification this client does not know (a newer daemon's)."""
    method: str
    params: Any


Event = Union[Frame, Lifecycle, StackChanged, StatusBarChange, Shutdown, Closing, UnknownEvent]


def parse_event(method: str, params: Any) -> Event:
    """The typed event for a notification."""
    p: Mapping[str, Any] = params if isinstance(params, dict) else {}
    seq = int(p.get("seq", 0))
    if method == "frame":
        return Frame(seq, _num(p, "time"), _layers(p.get("layers")), bool(p.get("animating", False)), p)
    if method == "lifecycle":
        animation = p.get("animation")
        return Lifecycle(seq, str(p.get("id", "")), p.get("event", ""), _num(p, "time"), int(p.get("owner", 0)),
                         p.get("reason"), Animation.from_json(animation) if animation else None,
                         p.get("adaptation"), p)
    if method == "stack":
        return StackChanged(seq, _entries(p.get("entries")), p)
    if method == "statusBar":
        return StatusBarChange(seq, p.get("style", "default"), bool(p.get("hidden", False)),
                               _num(p, "duration"), _num(p, "time"), p)
    if method == "shutdown":
        return Shutdown(str(p.get("reason", "")))
    if method == "closing":
        return Closing(str(p.get("reason", "")))
    return UnknownEvent(method, params)


# MARK: - Results


@dataclass(frozen=True)
class Hello:
    server: str
    version: str
    protocol: int
    clock: Literal["monotonic", "manual"]
    time: float
    fps: int
    limits: Mapping[str, Any]
    container: Container
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Hello":
        return Hello(str(o.get("server", "")), str(o.get("version", "")), int(o.get("protocol", 0)),
                     o.get("clock", "monotonic"), _num(o, "time"), int(o.get("fps", 0)), dict(o.get("limits") or {}),
                     Container.from_json(o.get("container") or {}), o)


@dataclass(frozen=True)
class Presented:
    """``present``'s result: the entry's id, ``queued`` or ``presenting``, and whether an
    existing entry was returned instead of a new one."""
    id: str
    state: Literal["queued", "presenting"]
    deduplicated: bool

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Presented":
        return Presented(str(o["id"]), o.get("state", "presenting"), bool(o.get("deduplicated", False)))


@dataclass(frozen=True)
class Snapshot:
    """``subscribe``'s result: the full state to start from, and the event ``seq`` it is at
    (events with a higher seq come after it)."""
    seq: int
    time: float
    container: Container
    entries: tuple[StackEntry, ...]
    status_bar: Mapping[str, Any]
    layers: tuple[Layer, ...]
    animating: bool
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Snapshot":
        s = o.get("snapshot") or {}
        return Snapshot(int(o.get("seq", 0)), _num(s, "time"), Container.from_json(s.get("container") or {}),
                        _entries(s.get("entries")), dict(s.get("statusBar") or {}), _layers(s.get("layers")),
                        bool(s.get("animating", False)), o)


@dataclass(frozen=True)
class TapResult:
    """What a tap hit (``content``, ``dimming`` or ``none``) and whether it dismissed;
    ``confirmation`` says how the owner's ``shouldDismiss`` went, when it was asked."""
    part: Literal["content", "dimming", "none"]
    dismissed: bool
    id: str | None = None
    confirmation: str | None = None

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "TapResult":
        return TapResult(o.get("part", "none"), bool(o.get("dismissed", False)), o.get("id"), o.get("confirmation"))


@dataclass(frozen=True)
class SwipeResult:
    progress: float
    outcome: Literal["ignored", "tracking", "wantsDismiss", "cancelled", "dismissed"]
    id: str | None = None
    confirmation: str | None = None

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "SwipeResult":
        return SwipeResult(_num(o, "progress"), o.get("outcome", "ignored"), o.get("id"), o.get("confirmation"))


@dataclass(frozen=True)
class ShouldDismiss:
    """The daemon asks the owner of ``id`` (presented with ``confirmDismiss: true``)
    whether a tap or swipe may dismiss it."""
    id: str
    reason: Literal["tap", "swipe"]
    keyboard_visible: bool

    @staticmethod
    def from_json(o: Any) -> "ShouldDismiss":
        o = o if isinstance(o, dict) else {}
        return ShouldDismiss(str(o.get("id", "")), o.get("reason", "tap"), bool(o.get("keyboardVisible", False)))
