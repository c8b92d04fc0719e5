"""The protocol's shapes as Python types.

What a client *sends* is plain JSON, so it is typed with TypedDicts whose keys are the
wire names (``dismissOnTap``, ``statusBar``…): a dict literal is a valid presentation.
What the daemon *sends back* is parsed into frozen dataclasses with snake_case fields
(``Layer.corner_radius``); each keeps the JSON it came from in ``raw``.

What an entry *shows* goes both ways: :class:`Content` (with :class:`Action`,
:class:`Field`, :class:`Icon`, :class:`Surface`, :class:`Accessibility`) is built by an
app for ``present``/``update`` and parsed back from entries and lifecycle events, so
``Content.from_json(c.to_json()) == c``. Anything with a ``to_json()`` method may stand
anywhere in a request's params (the wire encoder calls it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Literal, Mapping, TypedDict, Union

# MARK: - What clients send

#: The styles a plain name gives (a sheet, a custom layout, or a slide-in with options: an object).
StyleName = Literal["fullScreen", "overFullScreen", "alert", "popup", "topHalf", "bottomHalf", "slideIn"]
TransitionType = Literal["coverVertical", "coverVerticalFromTop", "coverHorizontalFromLeft",
                         "coverHorizontalFromRight", "slide", "crossDissolve", "flipHorizontal", "zoom"]
TimingName = Literal["linear", "easeIn", "easeOut", "easeInEaseOut", "default", "system"]
Topic = Literal["frames", "lifecycle", "stack", "statusBar", "modes", "animations"]
#: The band an entry is drawn and arbitrated in, bottom to top: the modal stack, banners
#: and toasts (never dimming, never taking a tap outside themselves), a modal stack above all.
Level = Literal["normal", "overlay", "alert"]
LEVELS: tuple[Level, ...] = ("normal", "overlay", "alert")
#: What a tap outside an entry does: swallowed, dismisses it (reason ``tap``), or passes
#: through to what lies below (the dimming still draws).
Interaction = Literal["absorb", "dismiss", "forward"]
#: Where an overlay sits in the safe area: ``leading``/``trailing`` are the top corner of that
#: side, which the container's layout direction resolves.
OverlayPosition = Literal["top", "bottom", "center", "leading", "trailing"]
#: Every topic the daemon has.
ALL_TOPICS: tuple[Topic, ...] = ("frames", "lifecycle", "stack", "statusBar", "modes", "animations")
#: What ``subscribe()`` asks for when not told: what a renderer or a watcher draws from. Not
#: ``modes`` (a shell's concern) nor ``animations`` (the motions of every layer, for a
#: renderer that interpolates them itself instead of drawing frames).
DEFAULT_TOPICS: tuple[Topic, ...] = ("frames", "lifecycle", "stack", "statusBar")
STYLE_NAMES: tuple[StyleName, ...] = ("fullScreen", "overFullScreen", "alert", "popup", "topHalf", "bottomHalf",
                                      "slideIn")
#: A container's reading direction, which says which edge is leading (``setContainer``,
#: ``addOutput``): ``slideIn``'s ``leading``/``trailing`` resolve to the mirrored edge in
#: right-to-left; ``left``/``right`` keep their physical meaning.
LayoutDirection = Literal["leftToRight", "rightToLeft"]
TRANSITION_TYPES: tuple[TransitionType, ...] = (
    "coverVertical", "coverVerticalFromTop", "coverHorizontalFromLeft", "coverHorizontalFromRight",
    "slide", "crossDissolve", "flipHorizontal", "zoom")
TIMING_NAMES: tuple[TimingName, ...] = ("linear", "easeIn", "easeOut", "easeInEaseOut", "default", "system")


class SlideInStyle(TypedDict, total=False):
    """``leading``/``trailing``: the edge the container's layout direction makes so."""
    type: Literal["slideIn"]
    direction: Literal["left", "right", "top", "bottom", "leading", "trailing"]
    fraction: float


class CustomDetent(TypedDict):
    """A detent of one's own: ``height`` in points, ``"40%"`` of the largest height, or
    ``"content"`` (the entry's ``preferredContentSize`` height)."""
    id: str
    height: Union[float, str]


#: A sheet's resting height: ``"medium"`` (half the largest), ``"large"`` or a custom one.
Detent = Union[Literal["medium", "large"], CustomDetent]


class SheetStyle(TypedDict, total=False):
    """UIKit's resizable sheet (docs/PROTOCOL.md, "Sheets and detents"): it rests at one of
    its ``detents`` and a swipe moves it between them; ``:func:`sheet``` builds one."""
    type: Literal["sheet"]
    detents: list[Detent]
    selectedDetent: str
    largestUndimmedDetent: str
    grabber: bool
    expandsOnScroll: bool
    edgeAttachedInCompactHeight: bool
    cornerRadius: float


class CustomStyle(TypedDict, total=False):
    """``width``/``height``: ``"default" | "half" | "full" | {"points"|"fluid"|"sideMargin": n}``;
    ``position``: ``"center" | "topCenter" | "bottomCenter" | {"point"|"origin": {x, y}}``."""
    type: Literal["custom"]
    width: Any
    height: Any
    position: Any


Style = Union[StyleName, SlideInStyle, CustomStyle, SheetStyle]


def detent(id: str, height: Union[float, str]) -> CustomDetent:
    """A custom detent: ``detent("peek", 120)``, ``detent("half", "40%")``, ``detent("fit", "content")``."""
    return {"id": id, "height": height}


def sheet(*detents: Detent, selected: str | None = None, undimmed: str | None = None, grabber: bool = False,
          **members: Any) -> SheetStyle:
    """A sheet style: ``sheet("medium", "large", undimmed="medium", grabber=True)`` rests at
    medium (the smallest, unless ``selected`` says), clear and letting taps through there
    (``largestUndimmedDetent``), with a grabber. No detents: the daemon's ``["large"]``.
    ``members`` adds any other member by its wire name (``expandsOnScroll``…)."""
    s: SheetStyle = {"type": "sheet"}
    if detents:
        s["detents"] = list(detents)
    if selected is not None:
        s["selectedDetent"] = selected
    if undimmed is not None:
        s["largestUndimmedDetent"] = undimmed
    if grabber:
        s["grabber"] = True
    s.update(members)  # type: ignore[typeddict-item]
    return s


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


class Size(TypedDict, total=False):
    """``preferredContentSize``: either or both, in points."""
    width: float
    height: float


class AutoDismiss(TypedDict, total=False):
    """Leave with reason ``timeout`` ``after`` seconds after presenting; the countdown
    holds while a swipe drags the entry or a field has focus (unless
    ``pauseWhileInteracting`` is False)."""
    after: float
    pauseWhileInteracting: bool


class Presentation(TypedDict, total=False):
    """A ``present`` request's params. ``style`` is required; the rest have defaults."""
    id: str
    kind: str
    deduplicate: bool
    content: Union[str, "Content", Mapping[str, Any]]
    preferredContentSize: Size
    autoDismiss: AutoDismiss
    dismissOnEscape: bool
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
    level: Level
    interaction: Interaction
    position: OverlayPosition  # overlays only
    margin: float  # overlays only: points from the safe area's edge
    context: str  # a presentation context the shell defined (define_context)
    output: str  # the screen (add_output); "main" when left out


class EntryUpdate(TypedDict, total=False):
    """An ``update`` request's members besides ``id``: each one given replaces the entry's;
    ``None`` (JSON null) clears ``content``, ``shadow``, ``preferredContentSize`` and
    ``autoDismiss``. ``duration``/``timing`` shape the move when the geometry changes."""
    content: Union[str, "Content", Mapping[str, Any], None]
    style: Style
    background: Background
    cornerRadius: float
    shadow: Union[Shadow, None]
    preferredContentSize: Union[Size, None]
    autoDismiss: Union[AutoDismiss, None]
    duration: float
    timing: Timing
    selectedDetent: str  # a sheet's detent to spring to (a detentChanged event says so)


Key = Literal["escape", "enter", "back"]
KEYS: tuple[Key, ...] = ("escape", "enter", "back")


def transition(type: TransitionType = "coverVertical", duration: float | None = None,
               timing: Timing | None = None) -> Transition:
    """A transition object, leaving out what is not given (the daemon fills defaults)."""
    t: Transition = {"type": type}
    if duration is not None:
        t["duration"] = duration
    if timing is not None:
        t["timing"] = timing
    return t


#: A toast's style unless ``height`` is given: as wide and as tall as its text. A renderer
#: measures it and says so (``preferredContentSize``; presentd-wayland draws a pill of one
#: line), as ``presentctl toast`` does.
TOAST_STYLE: Mapping[str, Any] = {"type": "custom", "width": "content", "height": "content"}
#: Its size until a renderer measures it: a one-line pill, not the two thirds of the screen a
#: "content" dimension has without one (as ``presentctl toast``'s).
TOAST_INITIAL_SIZE: Size = {"width": 300.0, "height": 36.0}


def toast(content: Union[str, "Content", Mapping[str, Any]], *, after: float | None = 2.0,
          position: OverlayPosition = "top", margin: float | None = None, height: float | None = None,
          **presentation: Any) -> Presentation:
    """A toast's ``present`` params: an overlay at ``position`` sized to its text (``height``:
    that many points tall instead), gone ``after`` seconds after it presented (None: it
    stays), coming in from its edge (fading in at the centre). ``presentation`` adds any
    other ``present`` params and wins."""
    style = dict(TOAST_STYLE) if height is None else dict(TOAST_STYLE, height={"points": height})
    p: Presentation = {
        "level": "overlay", "position": position, "content": content, "respectsSafeArea": True,
        "style": style,  # type: ignore[typeddict-item]
        "preferredContentSize": Size(**TOAST_INITIAL_SIZE),
        "transition": {"type": {"top": "coverVerticalFromTop", "bottom": "coverVertical"}.get(position, "crossDissolve"),
                       "duration": 0.25},
    }
    if after is not None:
        p["autoDismiss"] = {"after": after}
    if margin is not None:
        p["margin"] = margin
    p.update(presentation)  # type: ignore[typeddict-item]
    return p


def bezier(x1: float, y1: float, x2: float, y2: float) -> BezierTiming:
    return {"bezier": [x1, y1, x2, y2]}


def spring(**parameters: float) -> SpringTiming:
    """``spring(stiffness=300, damping=20)`` or ``spring(duration=0.5, dampingRatio=0.8)``."""
    return {"spring": dict(parameters)}


# MARK: - What an entry shows (both ways)

ActionRole = Literal["default", "cancel", "destructive"]
FieldKind = Literal["text", "secure", "number"]
#: ``Content.progress`` for a bar that shows activity but no fraction (``null`` on the wire).
INDETERMINATE: Literal["indeterminate"] = "indeterminate"


def _drop_none(**members: Any) -> dict:
    return {k: v for k, v in members.items() if v is not None}


@dataclass(frozen=True)
class Action:
    """A button: ``id`` is what the owner receives in its :class:`ActionEvent`. ``role``
    ``default`` answers Enter, ``cancel`` Escape and back; ``dismisses=False`` keeps the
    entry on screen when it is pressed."""
    id: str
    title: str
    role: ActionRole | None = None
    dismisses: bool = True

    def to_json(self) -> dict:
        o = _drop_none(id=self.id, title=self.title, role=self.role)
        if not self.dismisses:
            o["dismisses"] = False
        return o

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Action":
        return Action(str(o.get("id", "")), str(o.get("title", "")), o.get("role"), bool(o.get("dismisses", True)))


@dataclass(frozen=True)
class Field:
    """An input: ``kind`` ``text``, ``secure`` (drawn as dots) or ``number``; ``value`` is
    the initial value and the answer when the renderer sends none."""
    id: str
    kind: FieldKind = "text"
    placeholder: str | None = None
    value: str | None = None

    def to_json(self) -> dict:
        return _drop_none(id=self.id, kind=self.kind, placeholder=self.placeholder, value=self.value)

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Field":
        value = o.get("value")
        return Field(str(o.get("id", "")), o.get("kind", "text"), o.get("placeholder"),
                     None if value is None else str(value))


@dataclass(frozen=True)
class Icon:
    """A freedesktop icon-theme ``name``, or an absolute ``path`` to a PNG or SVG file."""
    name: str | None = None
    path: str | None = None

    @staticmethod
    def of(value: "Icon | str | Mapping[str, Any]") -> "Icon":
        """An Icon from an Icon, a mapping, or a string: a path when it starts with ``/``,
        else a name."""
        if isinstance(value, Icon):
            return value
        if isinstance(value, str):
            return Icon(path=value) if value.startswith("/") else Icon(name=value)
        return Icon(value.get("name"), value.get("path"))

    def to_json(self) -> dict:
        return _drop_none(name=self.name, path=self.path)


@dataclass(frozen=True)
class Surface:
    """The app's own window, for a renderer that can embed it (a Wayland ``app_id``, an
    xdg-foreign handle, an X11 window id…); opaque to presentd."""
    app_id: str | None = None
    handle: str | None = None

    def to_json(self) -> dict:
        return _drop_none(appId=self.app_id, handle=self.handle)

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Surface":
        return Surface(o.get("appId"), o.get("handle"))


@dataclass(frozen=True)
class Accessibility:
    """``announce``: ``polite`` or ``assertive`` (an ARIA live region)."""
    label: str | None = None
    hint: str | None = None
    announce: Literal["polite", "assertive"] | None = None

    def to_json(self) -> dict:
        return _drop_none(label=self.label, hint=self.hint, announce=self.announce)

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Accessibility":
        return Accessibility(o.get("label"), o.get("hint"), o.get("announce"))


def _items(values: Any, kind: Any) -> tuple:
    return tuple(v if isinstance(v, kind) else kind.from_json(v) for v in values or ())


@dataclass(frozen=True)
class Content:
    """What an entry shows: a dialog's parts, every one optional. ``icon`` may be given as
    a string (a name, or a path when it starts with ``/``), ``actions`` and ``fields`` as
    any iterable (of the types or of their JSON objects). ``progress``: a fraction 0…1,
    :data:`INDETERMINATE`, or None for no bar."""
    title: str | None = None
    message: str | None = None
    icon: Icon | None = None
    actions: tuple[Action, ...] = ()
    fields: tuple[Field, ...] = ()
    progress: float | Literal["indeterminate"] | None = None
    surface: Surface | None = None
    accessibility: Accessibility | None = None
    #: Pango markup of the message (``b``, ``i``, ``u``, ``a``); goes with ``message``, which
    #: stays the plain text for everything else.
    message_markup: str | None = None
    #: The app's name, drawn at the head of a banner.
    app_name: str | None = None
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        if self.icon is not None and not isinstance(self.icon, Icon):
            object.__setattr__(self, "icon", Icon.of(self.icon))
        object.__setattr__(self, "actions", _items(self.actions, Action))
        object.__setattr__(self, "fields", _items(self.fields, Field))
        if isinstance(self.surface, Mapping):
            object.__setattr__(self, "surface", Surface.from_json(self.surface))
        if isinstance(self.accessibility, Mapping):
            object.__setattr__(self, "accessibility", Accessibility.from_json(self.accessibility))

    def to_json(self) -> dict:
        o: dict = _drop_none(title=self.title, message=self.message, messageMarkup=self.message_markup,
                             appName=self.app_name, icon=self.icon.to_json() if self.icon else None)
        if self.actions:
            o["actions"] = [a.to_json() for a in self.actions]
        if self.fields:
            o["fields"] = [f.to_json() for f in self.fields]
        if self.progress is not None:
            o["progress"] = None if self.progress == INDETERMINATE else self.progress
        if self.surface is not None:
            o["surface"] = self.surface.to_json()
        if self.accessibility is not None:
            o["accessibility"] = self.accessibility.to_json()
        return o

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Content":
        progress: Any = None
        if "progress" in o:
            progress = INDETERMINATE if o["progress"] is None else float(o["progress"])
        icon, surface, accessibility = o.get("icon"), o.get("surface"), o.get("accessibility")
        return Content(o.get("title"), o.get("message"), Icon.of(icon) if isinstance(icon, Mapping) else None,
                       _items(o.get("actions"), Action), _items(o.get("fields"), Field), progress,
                       Surface.from_json(surface) if isinstance(surface, Mapping) else None,
                       Accessibility.from_json(accessibility) if isinstance(accessibility, Mapping) else None,
                       o.get("messageMarkup"), o.get("appName"), o)

    def action(self, id: str) -> Action | None:
        return next((a for a in self.actions if a.id == id), None)

    @property
    def default_action(self) -> Action | None:
        """The action Enter activates."""
        return next((a for a in self.actions if a.role == "default"), None)

    @property
    def cancel_action(self) -> Action | None:
        """The action Escape and back activate."""
        return next((a for a in self.actions if a.role == "cancel"), None)


def parse_content(value: Any) -> "str | Content | None":
    """An entry's ``content`` as the daemon sent it: a label, a :class:`Content`, or None."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return Content.from_json(value)
    return None


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

    @staticmethod
    def of(value: "Rect | Mapping[str, Any] | tuple[float, float, float, float]") -> "Rect":
        """A Rect from a Rect, a ``{x, y, width, height}`` mapping or an ``(x, y, w, h)`` tuple."""
        if isinstance(value, Rect):
            return value
        if isinstance(value, Mapping):
            return Rect.from_json(value)
        x, y, w, h = value
        return Rect(float(x), float(y), float(w), float(h))

    def to_json(self) -> dict:
        return {"x": self.x, "y": self.y, "width": self.width, "height": self.height}

    def contains(self, x: float, y: float) -> bool:
        """The point is inside (the right and bottom edges are outside, as for taps)."""
        return self.x <= x < self.max_x and self.y <= y < self.max_y

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
    layout_direction: LayoutDirection = "leftToRight"

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Container":
        return Container(_num(o, "width"), _num(o, "height"), dict(o.get("safeArea") or {}),
                         _num(o, "scale", 1.0), str(o.get("horizontalSizeClass", "")),
                         str(o.get("verticalSizeClass", "")), _num(o, "keyboardHeight"), o,
                         o.get("layoutDirection", "leftToRight"))


@dataclass(frozen=True)
class Layer:
    """One drawable layer of a frame: ``frame`` is before ``scale`` (about the centre)
    and ``rotation`` (about the vertical axis, radians). A content layer names the
    revision of its entry's content to draw (``content_revision``); the content itself
    is in the entry (:class:`StackEntry`, ``willPresent``/``updated``/``adapted``
    :class:`Lifecycle` events) — :class:`Contents` keeps it for a renderer. ``level`` is
    the entry's band (frames list normal, then overlay, then alert layers); ``clip``, when
    the entry is in a presentation context, is the context's rectangle: draw the layer only
    inside it. A sheet with a grabber has a third layer, role ``grabber``: a bar to draw in
    ``color`` over the content's top (none while the sheet covers its container)."""
    id: str
    role: Literal["dimming", "content", "grabber"]
    frame: Rect
    alpha: float
    scale: float
    rotation: float
    corner_radius: float
    color: str | None = None
    blur: str | None = None
    shadow: Mapping[str, Any] | None = None
    content_revision: int | None = None
    tint_dimmed: bool = False
    level: Level = "normal"
    clip: Rect | None = None

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Layer":
        clip = o.get("clip")
        return Layer(str(o.get("id", "")), o.get("role", "content"), Rect.from_json(o.get("frame") or {}),
                     _num(o, "alpha", 1.0), _num(o, "scale", 1.0), _num(o, "rotation"),
                     _num(o, "cornerRadius"), o.get("color"), o.get("blur"), o.get("shadow"),
                     _int_or_none(o.get("contentRevision")), bool(o.get("tintDimmed", False)),
                     o.get("level", "normal"), Rect.from_json(clip) if isinstance(clip, Mapping) else None)

    @property
    def visible_frame(self) -> Rect:
        """The frame after ``scale`` (rotation about the vertical axis narrows it further)."""
        return self.frame.scaled(self.scale)


def _int_or_none(v: Any) -> int | None:
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _num_or_none(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _layers(items: Any) -> tuple[Layer, ...]:
    return tuple(Layer.from_json(o) for o in items or ())


@dataclass(frozen=True)
class StackEntry:
    """An entry of the stack. ``content`` is what it shows now (a label, a
    :class:`Content`, or None; a replacement's while adapted), at revision
    ``content_revision`` — the number its content layer carries in frames. ``level`` is its
    band; ``position`` is where an overlay sits (None for the other levels); ``context``
    names the presentation context it is in, if any; ``detent`` the detent a sheet rests at."""
    id: str
    owner: int
    state: Literal["queued", "presenting", "presented", "dismissing"]
    style: Any
    frame: Rect
    priority: int
    adapted: bool
    kind: str | None = None
    content: "str | Content | None" = None
    content_revision: int | None = None
    preferred_content_size: Mapping[str, float] | None = None
    auto_dismiss: Mapping[str, Any] | None = None
    level: Level = "normal"
    position: OverlayPosition | None = None
    context: str | None = None
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    output: str = "main"
    detent: str | None = None

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "StackEntry":
        return StackEntry(str(o.get("id", "")), int(o.get("owner", 0)), o.get("state", "queued"), o.get("style"),
                          Rect.from_json(o.get("frame") or {}), int(o.get("priority", 0)),
                          bool(o.get("adapted", False)), o.get("kind"), parse_content(o.get("content")),
                          _int_or_none(o.get("contentRevision")), o.get("preferredContentSize"),
                          o.get("autoDismiss"), o.get("level", "normal"), o.get("position"), o.get("context"), o,
                          str(o.get("output", "main")), o.get("detent"))


def _entries(items: Any) -> tuple[StackEntry, ...]:
    return tuple(StackEntry.from_json(o) for o in items or ())


@dataclass(frozen=True)
class Output:
    """A screen: its container (size, safe area, scale, size classes, keyboard) and frame
    rate. ``main`` exists from the start."""
    name: str
    container: Container
    fps: int | None = None
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @staticmethod
    def from_json(o: Mapping[str, Any], name: str | None = None) -> "Output":
        container = o.get("container")
        fps = o.get("fps")
        return Output(str(o.get("name", name or "")), Container.from_json(container if isinstance(container, Mapping) else o),
                      int(fps) if isinstance(fps, (int, float)) and not isinstance(fps, bool) else None, o)


def parse_outputs(o: Any) -> dict[str, Output]:
    """An ``outputs`` member (or a result holding one), as a list of outputs or an object
    of them by name: each output by name."""
    if isinstance(o, Mapping) and "outputs" in o:
        o = o["outputs"]
    if isinstance(o, Mapping):
        return {str(k): Output.from_json(v, str(k)) for k, v in o.items() if isinstance(v, Mapping)}
    outputs = [Output.from_json(v) for v in o or () if isinstance(v, Mapping)]
    return {out.name: out for out in outputs}


def parse_contexts(o: Any) -> dict[str, Rect]:
    """A ``contexts`` member (``stack``, the snapshot, ``defineContext``): each context's rectangle by name."""
    return {str(name): Rect.from_json(r) for name, r in o.items() if isinstance(r, Mapping)} if isinstance(o, Mapping) else {}


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


#: The screen that exists from the start; a daemon with one screen names no other.
MAIN_OUTPUT = "main"


@dataclass(frozen=True)
class Frame:
    """``frame``: every layer of one ``output`` (screen) at ``time`` (seconds of
    CLOCK_MONOTONIC, or of the manual clock); each output's frames tick at its own rate."""
    seq: int
    time: float
    layers: tuple[Layer, ...]
    animating: bool
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    output: str = MAIN_OUTPUT

    def layer(self, id: str, role: str = "content") -> Layer | None:
        return next((l for l in self.layers if l.id == id and l.role == role), None)


LifecycleEventName = Literal["queued", "willPresent", "didPresent", "willDismiss", "didDismiss", "adapted",
                             "updated", "retargeted", "detentChanged"]
#: The lifecycle events that say what an entry shows from then on (``content``, ``content_revision``).
CONTENT_EVENTS: tuple[str, ...] = ("willPresent", "updated", "adapted")


@dataclass(frozen=True)
class Lifecycle:
    """``lifecycle``: queued, willPresent, didPresent, willDismiss, didDismiss, adapted or
    updated. ``reason`` (willDismiss, didDismiss): ``request``, ``tap``, ``swipe``,
    ``ownerGone``, ``preempted``, ``contextGone`` (its presentation context was removed),
    ``action`` (then ``action`` names it), ``key`` or ``timeout``. ``content`` and ``content_revision`` (willPresent, updated, adapted): what
    the entry shows from now on — None when it shows nothing (:attr:`carries_content`).
    ``detent`` (detentChanged): the detent a sheet rests at now, after a swipe or an
    ``update`` with ``selectedDetent``."""
    seq: int
    id: str
    event: LifecycleEventName
    time: float
    owner: int
    reason: str | None = None
    animation: Animation | None = None
    adaptation: Mapping[str, Any] | None = None
    content: "str | Content | None" = None
    content_revision: int | None = None
    action: str | None = None
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    output: str = MAIN_OUTPUT
    detent: str | None = None

    @property
    def carries_content(self) -> bool:
        """This event says what the entry shows from now on (``content`` None: nothing)."""
        return self.event in CONTENT_EVENTS


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
    output: str = MAIN_OUTPUT


@dataclass(frozen=True)
class ActionEvent:
    """``action``, to the owner alone (no subscription needed): someone activated action
    ``action`` of entry ``id`` (``activate``, or ``key`` Enter/Escape/back). ``fields``
    holds every field of the entry: the value sent, else the field's own, else ``""``.
    Lossless, numbered with the lifecycle events, and written before the reply to the
    request that caused it. :meth:`Client.ask` returns one."""
    seq: int
    id: str
    action: str
    fields: Mapping[str, str]
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)


@dataclass(frozen=True)
class ModeChange:
    """``mode`` (topic ``modes``): a screen's do not disturb or reduced motion changed at
    ``time``. Both modes as they are from now on: ``do_not_disturb`` (``{until,
    allowPriorityAbove, since}``, None when off) and ``reduced_motion``. ``reason`` is
    ``request`` (a ``setMode``) or ``until`` (its time came); ``released`` the held entries
    the change lets go, in the order they will start."""
    seq: int
    time: float
    reason: str
    do_not_disturb: Mapping[str, Any] | None
    reduced_motion: bool
    released: tuple[str, ...]
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    output: str = MAIN_OUTPUT


@dataclass(frozen=True)
class MotionChange:
    """``animations`` (topic ``animations``): the motion in force on one screen from
    ``time`` until the next one (or ``until``, when it expires by itself; frames computed
    from it are ``animating`` while t < ``end``). ``layers`` are a frame's layers at their
    base values; ``segments[i]`` are the segments of ``layers[i]`` (``{start, duration,
    timing, from, to}``, offsets of the properties, summed onto the base)."""
    seq: int
    time: float
    layers: tuple[Layer, ...]
    segments: tuple[tuple[Mapping[str, Any], ...], ...]
    until: float | None = None
    end: float | None = None
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    output: str = MAIN_OUTPUT


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


Event = Union[Frame, Lifecycle, StackChanged, StatusBarChange, ModeChange, MotionChange, ActionEvent, Shutdown, Closing,
              UnknownEvent]


def parse_event(method: str, params: Any) -> Event:
    """The typed event for a notification."""
    p: Mapping[str, Any] = params if isinstance(params, dict) else {}
    seq = int(p.get("seq", 0))
    if method == "frame":
        return Frame(seq, _num(p, "time"), _layers(p.get("layers")), bool(p.get("animating", False)), p,
                     str(p.get("output", MAIN_OUTPUT)))
    if method == "lifecycle":
        animation = p.get("animation")
        return Lifecycle(seq, str(p.get("id", "")), p.get("event", ""), _num(p, "time"), int(p.get("owner", 0)),
                         p.get("reason"), Animation.from_json(animation) if animation else None,
                         p.get("adaptation"), parse_content(p.get("content")),
                         _int_or_none(p.get("contentRevision")), p.get("action"), p, str(p.get("output", MAIN_OUTPUT)),
                         p.get("detent"))
    if method == "action":
        fields = p.get("fields")
        return ActionEvent(seq, str(p.get("id", "")), str(p.get("action", "")),
                           {str(k): str(v) for k, v in fields.items()} if isinstance(fields, dict) else {}, p)
    if method == "stack":
        return StackChanged(seq, _entries(p.get("entries")), p)
    if method == "statusBar":
        return StatusBarChange(seq, p.get("style", "default"), bool(p.get("hidden", False)),
                               _num(p, "duration"), _num(p, "time"), p, str(p.get("output", MAIN_OUTPUT)))
    if method == "mode":
        dnd = p.get("doNotDisturb")
        return ModeChange(seq, _num(p, "time"), str(p.get("reason", "")), dnd if isinstance(dnd, dict) else None,
                          bool(p.get("reducedMotion", False)), tuple(str(i) for i in p.get("released") or ()), p,
                          str(p.get("output", MAIN_OUTPUT)))
    if method == "animations":
        raw_layers = [l for l in p.get("layers") or () if isinstance(l, dict)]
        return MotionChange(seq, _num(p, "time"), tuple(Layer.from_json(l) for l in raw_layers),
                            tuple(tuple(s for s in l.get("segments") or () if isinstance(s, dict)) for l in raw_layers),
                            _num_or_none(p.get("until")), _num_or_none(p.get("end")), p, str(p.get("output", MAIN_OUTPUT)))
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
    (events with a higher seq come after it). ``contexts``: the presentation contexts by name;
    ``outputs``: the screens by name, when the daemon lists them (``container`` is ``main``'s)."""
    seq: int
    time: float
    container: Container
    entries: tuple[StackEntry, ...]
    status_bar: Mapping[str, Any]
    layers: tuple[Layer, ...]
    animating: bool
    contexts: Mapping[str, Rect] = field(default_factory=dict)
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    outputs: Mapping[str, Output] = field(default_factory=dict)

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Snapshot":
        s = o.get("snapshot") or {}
        return Snapshot(int(o.get("seq", 0)), _num(s, "time"), Container.from_json(s.get("container") or {}),
                        _entries(s.get("entries")), dict(s.get("statusBar") or {}), _layers(s.get("layers")),
                        bool(s.get("animating", False)), parse_contexts(s.get("contexts")), o,
                        parse_outputs(s.get("outputs")))


@dataclass(frozen=True)
class TapResult:
    """What a tap hit (``content``, ``dimming`` or ``none``) and whether it dismissed: the
    entry ``id`` that took it, the ``role`` of its layer that was hit and its ``level`` —
    or ``forwarded`` when no entry took it and it falls through to the app underneath.
    ``confirmation`` says how the owner's ``shouldDismiss`` went, when it was asked."""
    part: Literal["content", "dimming", "none"]
    dismissed: bool
    id: str | None = None
    confirmation: str | None = None
    role: Literal["content", "dimming"] | None = None
    level: Level | None = None
    forwarded: bool = False

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "TapResult":
        return TapResult(o.get("part", "none"), bool(o.get("dismissed", False)), o.get("id"), o.get("confirmation"),
                         o.get("role"), o.get("level"), bool(o.get("forwarded", False)))


@dataclass(frozen=True)
class SwipeResult:
    """``settled``: a sheet springs to the detent ``detent``."""
    progress: float
    outcome: Literal["ignored", "tracking", "wantsDismiss", "cancelled", "dismissed", "settled"]
    id: str | None = None
    confirmation: str | None = None
    detent: str | None = None

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "SwipeResult":
        return SwipeResult(_num(o, "progress"), o.get("outcome", "ignored"), o.get("id"), o.get("confirmation"),
                           o.get("detent"))


@dataclass(frozen=True)
class Updated:
    """``update``'s result: the entry's state and the revision of its content now."""
    id: str
    state: Literal["queued", "presenting", "presented", "dismissing"]
    content_revision: int

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Updated":
        return Updated(str(o.get("id", "")), o.get("state", "presented"), int(o.get("contentRevision", 0)))


@dataclass(frozen=True)
class Activated:
    """``activate``'s result: ``dismissed`` when the entry is leaving because of it;
    ``confirmation`` says how the owner's ``shouldDismiss`` went, when it was asked."""
    id: str
    action: str
    dismissed: bool
    confirmation: str | None = None

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "Activated":
        return Activated(str(o.get("id", "")), str(o.get("action", "")), bool(o.get("dismissed", False)),
                         o.get("confirmation"))


@dataclass(frozen=True)
class KeyResult:
    """``key``'s result: ``handled`` False when nothing answers to the key, or the key
    named another entry than the one that has it (``id`` names the entry that had it, if
    any); else the action it activated (None when Escape or
    back dismissed an entry without a cancel action) and whether the entry is leaving."""
    handled: bool
    id: str | None = None
    action: str | None = None
    dismissed: bool = False
    confirmation: str | None = None

    @staticmethod
    def from_json(o: Mapping[str, Any]) -> "KeyResult":
        return KeyResult(bool(o.get("handled", False)), o.get("id"), o.get("action"), bool(o.get("dismissed", False)),
                         o.get("confirmation"))


@dataclass(frozen=True)
class ShouldDismiss:
    """The daemon asks the owner of ``id`` (presented with ``confirmDismiss: true``)
    whether a tap, swipe, action or key may dismiss it (``action``: the action, with
    reason ``action``)."""
    id: str
    reason: Literal["tap", "swipe", "action", "key"]
    keyboard_visible: bool
    action: str | None = None

    @staticmethod
    def from_json(o: Any) -> "ShouldDismiss":
        o = o if isinstance(o, dict) else {}
        return ShouldDismiss(str(o.get("id", "")), o.get("reason", "tap"), bool(o.get("keyboardVisible", False)),
                             o.get("action"))


# MARK: - Content for renderers


class Contents:
    """What each entry shows, kept from a subscription, for drawing frames: a frame's
    content layer names only its entry's ``content_revision``, and the content itself
    comes in the snapshot's entries, ``willPresent``/``updated``/``adapted`` lifecycle
    events and ``stack`` events. Start it from the snapshot, give it every event::

        sub = client.subscribe(["frames", "lifecycle"])
        contents = presentd.Contents(sub.snapshot)
        for event in sub:
            contents.see(event)
            if isinstance(event, presentd.Frame):
                for layer in event.layers:
                    draw(layer, contents.for_layer(layer))
    """

    def __init__(self, snapshot: "Snapshot | None" = None):
        self._by_id: dict[str, tuple[int | None, str | Content | None]] = {}
        if snapshot is not None:
            self.reset(snapshot.entries)

    def reset(self, entries: "Iterable[StackEntry]") -> None:
        """Starts again from a list of entries (a snapshot's, a ``stack`` event's)."""
        self._by_id = {e.id: (e.content_revision, e.content) for e in entries}

    def see(self, event: Any) -> bool:
        """Takes what ``event`` says about content; True when it said anything."""
        if isinstance(event, Lifecycle):
            if event.carries_content:
                self._by_id[event.id] = (event.content_revision, event.content)
                return True
            if event.event == "didDismiss":
                return self._by_id.pop(event.id, None) is not None
        elif isinstance(event, StackChanged):
            self.reset(event.entries)
            return True
        return False

    def get(self, id: str) -> "str | Content | None":
        """What entry ``id`` shows (None: nothing, or an entry not known)."""
        return self._by_id.get(id, (None, None))[1]

    def revision(self, id: str) -> int | None:
        return self._by_id.get(id, (None, None))[0]

    def for_layer(self, layer: Layer) -> "str | Content | None":
        """The content a content layer draws (None for a dimming layer)."""
        return self.get(layer.id) if layer.role == "content" else None

    def is_current(self, layer: Layer) -> bool:
        """The content kept is the revision the layer names (False: an event that changed
        it has not been seen — subscribe to ``lifecycle`` too)."""
        return layer.content_revision is None or layer.content_revision == self.revision(layer.id)

    def as_dict(self) -> "dict[str, str | Content | None]":
        return {id: content for id, (_, content) in self._by_id.items()}

    def __contains__(self, id: object) -> bool:
        return id in self._by_id

    def __len__(self) -> int:
        return len(self._by_id)
