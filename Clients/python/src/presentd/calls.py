"""Every protocol method as a :class:`Call`: its wire name, its params and how its result
is read. The synchronous and asyncio clients both run these, so each method's params
and result are written once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterable, Mapping, Optional, TypeVar

from .types import (Activated, Container, Content, EntryUpdate, Hello, Key, KeyResult, LayoutDirection, Output,
                    Presentation, Presented,
                    Rect, Snapshot, StackEntry, SwipeResult, TapResult, Timing, Topic, Transition, Updated,
                    parse_contexts, parse_outputs)

T = TypeVar("T")

#: The protocol version this package speaks.
PROTOCOL_VERSION = 1


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    params: Optional[dict]
    read: Callable[[Any], T]


def _none(_: Any) -> None:
    return None


def _ids(result: Any) -> list[str]:
    return [str(i) for i in result.get("dismissed", [])]


def _options(**values: Any) -> dict:
    """Params without the options left out (None), so the daemon applies its defaults."""
    return {k: v for k, v in values.items() if v is not None}


def hello(client: str | None = "presentd-python", protocol: int = PROTOCOL_VERSION) -> Call[Hello]:
    return Call("hello", _options(client=client, protocol=protocol), Hello.from_json)


def ping() -> Call[None]:
    return Call("ping", None, _none)


def present(presentation: Presentation | Mapping[str, Any] | None = None, **fields: Any) -> Call[Presented]:
    """``present(style="alert")``, ``present({"style": "popup", …})`` or both (fields win)."""
    params = dict(presentation or {})
    params.update(fields)
    return Call("present", params, Presented.from_json)


def update(id: str, change: EntryUpdate | Mapping[str, Any] | None = None, **fields: Any) -> Call[Updated]:
    """``update("a", content=Content(title="Saved"))``, ``update("a", {"autoDismiss": {"after": 2}})``
    or both (fields win). Wire names, as for ``present``; a member given as None is sent
    as ``null``, which clears ``content``, ``shadow``, ``preferredContentSize`` and
    ``autoDismiss``."""
    params = dict(change or {})
    params.update(fields)
    params["id"] = id
    return Call("update", params, Updated.from_json)


FieldValues = Mapping[str, "str | int | float"]


def activate(id: str, action: str, fields: FieldValues | None = None) -> Call[Activated]:
    return Call("activate", _options(id=id, action=action, fields=dict(fields) if fields else None),
                Activated.from_json)


def key(key: Key, fields: FieldValues | None = None, id: str | None = None, output: str | None = None) -> Call[KeyResult]:
    """``id``: the entry the sender believes takes input (the one whose ``fields`` it
    sends); when another entry has the key, nothing happens. ``output``: the screen whose
    topmost entry takes it (None: ``main``)."""
    return Call("key", _options(key=key, id=id, fields=dict(fields) if fields else None, output=output),
                KeyResult.from_json)


def focus(id: str, field: str | None = None) -> Call[None]:
    return Call("focus", _options(id=id, field=field), _none)


def ask_presentation(content: Content | Mapping[str, Any], timeout: float | None,
                     presentation: Mapping[str, Any]) -> dict:
    """The ``present`` params of :meth:`Client.ask`: an alert showing ``content``, gone
    after ``timeout`` seconds (``autoDismiss``) when given; ``presentation`` adds to it
    and wins."""
    params: dict = {"style": "alert", "content": content}
    if timeout is not None:
        params["autoDismiss"] = {"after": timeout}
    params.update(presentation)
    return params


def dismiss(id: str, animated: bool | None = None, transition: Transition | None = None) -> Call[list[str]]:
    return Call("dismiss", _options(id=id, animated=animated, transition=transition), _ids)


def dismiss_all(animated: bool | None = None) -> Call[list[str]]:
    return Call("dismissAll", _options(animated=animated), _ids)


def stack(output: str | None = None) -> Call[list[StackEntry]]:
    return Call("stack", _options(output=output) or None, lambda r: [StackEntry.from_json(e) for e in r.get("entries", [])])


def contexts(output: str | None = None) -> Call[dict[str, Rect]]:
    """The presentation contexts by name (``stack``'s ``contexts``)."""
    return Call("stack", _options(output=output) or None, lambda r: parse_contexts(r.get("contexts")))


def define_context(name: str, frame: Rect | Mapping[str, float] | tuple[float, float, float, float], *,
                   duration: float | None = None, output: str | None = None) -> Call[dict[str, Rect]]:
    """Names (or moves, or resizes) a rectangle of the screen entries can be presented in
    (``context=name`` on present); its entries follow over ``duration`` seconds. The result:
    every context by name."""
    return Call("defineContext", _options(name=name, frame=Rect.of(frame).to_json(), duration=duration, output=output),
                lambda r: parse_contexts(r.get("contexts")))


def remove_context(name: str) -> Call[list[str]]:
    """Takes context ``name`` away; its entries leave with reason ``contextGone``. The result:
    the ids that leave."""
    return Call("removeContext", {"name": name}, _ids)


def subscribe(topics: Iterable[Topic], outputs: Iterable[str] | None = None) -> Call[Snapshot]:
    """``outputs``: only the notifications of these screens (None: every one)."""
    return Call("subscribe", _options(topics=list(topics), outputs=None if outputs is None else list(outputs)),
                Snapshot.from_json)


def unsubscribe(topics: Iterable[Topic]) -> Call[None]:
    return Call("unsubscribe", {"topics": list(topics)}, _none)


def set_container(width: float, height: float, *, safe_area: Mapping[str, float] | None = None,
                  scale: float | None = None, horizontal_size_class: str | None = None,
                  vertical_size_class: str | None = None, duration: float | None = None,
                  output: str | None = None, layout_direction: LayoutDirection | None = None) -> Call[Container]:
    """The screen's size and traits; ``layout_direction`` ``"rightToLeft"`` mirrors what is
    laid out by its leading and trailing edges."""
    params = _options(width=width, height=height, safeArea=dict(safe_area) if safe_area else None, scale=scale,
                      horizontalSizeClass=horizontal_size_class, verticalSizeClass=vertical_size_class,
                      duration=duration, output=output, layoutDirection=layout_direction)
    return Call("setContainer", params, lambda r: Container.from_json(r.get("container", {})))


def keyboard(height: float, duration: float | None = None, curve: Timing | None = None,
             output: str | None = None) -> Call[None]:
    return Call("keyboard", _options(height=height, duration=duration, curve=curve, output=output), _none)


def tap(x: float, y: float, output: str | None = None) -> Call[TapResult]:
    return Call("tap", _options(x=x, y=y, output=output), TapResult.from_json)


def swipe(phase: str, dx: float, dy: float, vx: float | None = None, vy: float | None = None,
          output: str | None = None) -> Call[SwipeResult]:
    return Call("swipe", _options(phase=phase, dx=dx, dy=dy, vx=vx, vy=vy, output=output), SwipeResult.from_json)


def add_output(name: str, width: float, height: float, *, safe_area: Mapping[str, float] | None = None,
               scale: float | None = None, horizontal_size_class: str | None = None,
               vertical_size_class: str | None = None, fps: int | None = None,
               layout_direction: LayoutDirection | None = None) -> Call[dict[str, Output]]:
    """A screen of its own (a cluster beside a head unit): its container, keyboard, frame
    rate and status bar. The result: every output by name."""
    params = _options(name=name, width=width, height=height, safeArea=dict(safe_area) if safe_area else None,
                      scale=scale, horizontalSizeClass=horizontal_size_class, verticalSizeClass=vertical_size_class,
                      fps=fps, layoutDirection=layout_direction)
    return Call("addOutput", params, parse_outputs)


def remove_output(name: str) -> Call[list[str]]:
    """Takes screen ``name`` away; its entries leave with reason ``outputGone`` (returned)."""
    return Call("removeOutput", {"name": name}, _ids)


def outputs() -> Call[dict[str, Output]]:
    """Every output (screen) by name; ``main`` is there from the start."""
    return Call("outputs", None, parse_outputs)


def dry_run(presentation: Presentation | Mapping[str, Any] | None = None, **fields: Any) -> Call[dict[str, Any]]:
    """What ``present`` with these fields would do, changing nothing: ``outcome``
    (presenting, queued, preempting, deduplicated, refused), ``queuedBehind``,
    ``startsAt``, ``error``… as docs/PROTOCOL.md's dry run says."""
    params = dict(presentation or {})
    params.update(fields)
    params["dryRun"] = True
    return Call("present", params, dict)


def do_not_disturb(*, until: float | None = None, duration: float | None = None,
                   allow_priority_above: int | None = None, output: str | None = None) -> Call[dict[str, Any]]:
    """Do not disturb on (or changed) on a screen: presentations of priority
    ``allow_priority_above`` (default 500) or less are held until ``end_do_not_disturb``,
    time ``until`` or ``duration`` seconds from now. Returns ``{output, doNotDisturb, held}``."""
    mode: dict[str, Any] = {}
    if until is not None:
        mode["until"] = until
    if duration is not None:
        mode["duration"] = duration
    if allow_priority_above is not None:
        mode["allowPriorityAbove"] = allow_priority_above
    params: dict[str, Any] = {"doNotDisturb": mode}
    if output is not None:
        params["output"] = output
    return Call("setMode", params, dict)


def end_do_not_disturb(*, output: str | None = None) -> Call[dict[str, Any]]:
    """Do not disturb off: what it held comes in priority order."""
    params: dict[str, Any] = {"doNotDisturb": None}
    if output is not None:
        params["output"] = output
    return Call("setMode", params, dict)


def reduced_motion(on: bool, *, output: str | None = None) -> Call[dict[str, Any]]:
    """Reduced motion on a screen, on or off: transitions that start cross-fade and no curve
    overshoots (UIKit's prefersCrossFadeTransitions). Returns the modes, as ``modes``."""
    return Call("setMode", _options(reducedMotion=on, output=output), dict)


def modes(*, output: str | None = None) -> Call[dict[str, Any]]:
    """A screen's modes, changing nothing: ``{output, doNotDisturb, reducedMotion, held}``."""
    return Call("setMode", _options(output=output), dict)


def explain(id: str) -> Call[dict[str, Any]]:
    """Why entry ``id`` is where it is: ``blockers``, ``startsAt``, ``dismissal``,
    ``adaptation``… as docs/PROTOCOL.md's explain says."""
    return Call("explain", {"id": id}, dict)


def advance(seconds: float) -> Call[float]:
    return Call("advance", {"seconds": seconds}, lambda r: float(r["time"]))


def sync(nonce: Any = 0) -> Call[Any]:
    return Call("sync", {"nonce": nonce}, lambda r: r.get("nonce"))


def raw(method: str, params: Any = None) -> Call[Any]:
    """Any method, its result as the daemon sent it."""
    return Call(method, params, lambda r: r)
