"""The synchronous client: one blocking connection to presentd.

    with presentd.Client() as c:
        c.hello()
        with c.subscribe(["lifecycle"]) as events:
            p = c.present(style="alert", transition={"type": "zoom"})
            for event in events:
                if isinstance(event, presentd.Lifecycle) and event.event == "didPresent":
                    break

Nothing is read behind the caller's back: messages are read while a call waits for its
reply and when events are asked for. Events read on the way are kept, in order, for
``next_event``/iteration; ``shouldDismiss`` questions are answered as they are read.
Not thread-safe: use one client per thread.

When the daemon restarts (a crash, ``kill -9``, an upgrade) the client connects again on
its own, with backoff for up to ``reconnect`` seconds (30; 0 turns it off), says
``hello {resume: token}`` with the token its first hello got (it says hello by itself
before its first ``present``), and subscribes to its topics again: its entries stay on
screen and an ``ask`` keeps waiting. A call whose reply was lost with the connection is
sent again on the new one (give ``present`` an ``id`` so that a repeat is recognised).
``reconnects`` counts the times it came back; ``shutdown`` is delivered only once it
gives up.

Asking the person at the screen a question, and getting the answer back:

    answer = c.ask(presentd.Content(title="Delete 3 files?", actions=[
        presentd.Action("delete", "Delete", role="destructive"),
        presentd.Action("keep", "Keep", role="cancel")]), timeout=30)
    if answer is not None and answer.action == "delete":
        ...
"""

from __future__ import annotations

import select
import socket
import time
from typing import Any, Callable, Iterable, Iterator, Mapping, TypeVar

from . import _wire, calls
from .calls import Call
from .errors import ConnectError, Disconnected, ProtocolError, RPCError
from .types import (ActionEvent, Activated, Container, Content, EntryUpdate, Event, Hello, Key, KeyResult,
                    OverlayPosition, Presentation, Presented, Rect, ShouldDismiss, Snapshot, StackEntry, SwipeResult,
                    TapResult, Timing, Topic, Transition, Updated, DEFAULT_TOPICS, Output, toast)

T = TypeVar("T")

#: What ``_read`` returns when the connection ended and a new one took its place.
_RECONNECTED = object()


class Client:
    """A blocking connection. ``should_dismiss`` answers the daemon's ``shouldDismiss``
    (return True to let the entry go); without it every dismissal is allowed.
    ``timeout`` is how long a call waits for its reply (seconds) before TimeoutError."""

    def __init__(self, path: str | None = None, *, timeout: float = 10.0,
                 should_dismiss: Callable[[ShouldDismiss], bool] | None = None,
                 coalesce_frames: bool = False, reconnect: float = _wire.RECONNECT_SECONDS):
        self.path = _wire.socket_path(path)
        self.timeout = timeout
        self.should_dismiss = should_dismiss
        self._events = _wire.EventQueue(coalesce_frames)
        self._topics = _wire.Topics()
        self._watches: list[_wire.AskWatch] = []
        self._buffer = bytearray()
        self._next_id = 1
        self._closed_reason: str | None = None
        self._eof = False
        self._reconnection = _wire.Reconnection(reconnect)
        self._reconnecting = False
        try:
            self._sock = self._connect()
        except OSError as e:
            raise ConnectError(self.path, e.strerror or str(e)) from None

    def _connect(self) -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(self.path)
        except OSError:
            sock.close()
            raise
        return sock

    # MARK: Life

    @property
    def reconnects(self) -> int:
        """How many times the client connected again after the daemon went away."""
        return self._reconnection.count

    def close(self) -> None:
        self._reconnection.seconds = 0
        self._sock.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def fileno(self) -> int:
        """The socket, for a select/poll loop: readable means ``pump()`` has something."""
        return self._sock.fileno()

    # MARK: Calls

    def call(self, method: str, params: Any = None, *, timeout: float | None = None) -> Any:
        """Any method; returns its raw result or raises its RPCError."""
        return self.run(calls.raw(method, params), timeout=timeout)

    def run(self, call: Call[T], *, timeout: float | None = None) -> T:
        """Sends ``call`` and waits for its reply; events read meanwhile are kept."""
        if self._reconnection.needs_hello(call.method) and not self._reconnecting:
            self.hello(self._reconnection.name)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            id = self._next_id
            self._next_id += 1
            self._send(_wire.request(id, call.method, call.params))
            while True:
                message = self._read(deadline)
                if message is None:
                    raise TimeoutError(f"no reply to {call.method} within {self.timeout if timeout is None else timeout} s")
                if message is _RECONNECTED:
                    break  # the reply went with the old connection: send it again
                if isinstance(message, _wire.Reply) and message.id == id:
                    result = message.get()
                    if call.method == "hello":
                        self._reconnection.saw_hello(call.params, result)
                    return call.read(result)
                self._route(message)

    def notify(self, method: str, params: Any = None) -> None:
        """Sends a notification: the daemon runs it and does not answer."""
        self._send(_wire.notification(method, params))

    # One method per protocol method (docs/PROTOCOL.md).

    def hello(self, client: str | None = "presentd-python") -> Hello:
        return self.run(calls.hello(client))

    def ping(self) -> None:
        return self.run(calls.ping())

    def present(self, presentation: Presentation | Mapping[str, Any] | None = None, **fields: Any) -> Presented:
        return self.run(calls.present(presentation, **fields))

    def update(self, id: str, change: EntryUpdate | Mapping[str, Any] | None = None, **fields: Any) -> Updated:
        """Changes entry ``id`` in place (wire names, as for ``present``; None clears)."""
        return self.run(calls.update(id, change, **fields))

    def activate(self, id: str, action: str, fields: calls.FieldValues | None = None) -> Activated:
        """Presses a button of entry ``id`` (what a renderer sends); the owner gets an ActionEvent."""
        return self.run(calls.activate(id, action, fields))

    def key(self, key: Key, fields: calls.FieldValues | None = None, *, id: str | None = None,
            output: str | None = None) -> KeyResult:
        """``escape``, ``enter`` or ``back``, for the topmost entry that is not leaving
        (with ``id``: only if that is the one; a renderer sending fields names it), on
        ``output`` (None: ``main``)."""
        return self.run(calls.key(key, fields, id, output))

    def focus(self, id: str, field: str | None = None) -> None:
        """Says which field of entry ``id`` has focus (None: none): an auto-dismiss countdown holds meanwhile."""
        return self.run(calls.focus(id, field))

    def ask(self, content: Content | Mapping[str, Any], *, timeout: float | None = None,
            wait: float | None = None, **presentation: Any) -> ActionEvent | None:
        """Presents ``content`` (an alert unless ``style`` says otherwise; ``presentation``
        adds any ``present`` params) and waits for the answer: the :class:`ActionEvent` of
        the action chosen, with the fields' values — or None when the entry left without
        one (a tap on the dimming, Escape without a cancel action, a dismissal, or
        ``timeout`` seconds after it presented: ``autoDismiss``, on the daemon's clock).

        ``wait`` bounds the wait on this side (seconds): then the entry is dismissed and
        TimeoutError raised. An action that does not dismiss leaves the entry on screen
        (``answer.id`` names it). While it waits the connection is subscribed to
        ``lifecycle``; a caller who was not gets none of those events."""
        watch = _wire.AskWatch()
        self._borrow_lifecycle()
        self._watches.append(watch)
        presented: Presented | None = None
        try:
            presented = self.run(calls.present(calls.ask_presentation(content, timeout, presentation)))
            watch.started(presented.id, self._events)
            deadline = None if wait is None else time.monotonic() + wait
            while not watch.done:
                message = self._read(deadline)
                if message is None:
                    raise TimeoutError(f"no answer to {presented.id} within {wait} s")
                if message is not _RECONNECTED:
                    self._route(message)
            if watch.answer is not None:
                # A confirmDismiss owner is asked next whether the entry may go, in the same
                # breath as the action: a round trip reads (and answers) that question.
                self.sync("ask")
            return watch.answer
        finally:
            self._watches.remove(watch)
            try:
                if presented is not None and not watch.done:
                    self._withdraw(presented.id)  # nobody waits for the answer any more
            finally:
                self._give_back_lifecycle()

    def dismiss(self, id: str, *, animated: bool | None = None, transition: Transition | None = None) -> list[str]:
        return self.run(calls.dismiss(id, animated, transition))

    def dismiss_all(self, *, animated: bool | None = None) -> list[str]:
        return self.run(calls.dismiss_all(animated))

    def stack(self, *, output: str | None = None) -> list[StackEntry]:
        return self.run(calls.stack(output))

    def contexts(self, *, output: str | None = None) -> dict[str, Rect]:
        """The presentation contexts by name."""
        return self.run(calls.contexts(output))

    def add_output(self, name: str, width: float, height: float, **options: Any) -> dict[str, Output]:
        """Adds a screen (options: ``safe_area``, ``scale``, ``horizontal_size_class``,
        ``vertical_size_class``, ``fps``); returns every output by name. Everything that
        concerns a screen takes ``output=name`` then: present, set_container, keyboard, tap,
        swipe, key, stack, define_context, and subscribe(outputs=…)."""
        return self.run(calls.add_output(name, width, height, **options))

    def remove_output(self, name: str) -> list[str]:
        """Takes screen ``name`` away; its entries leave with reason ``outputGone`` (returned)."""
        return self.run(calls.remove_output(name))

    def outputs(self) -> dict[str, Output]:
        """Every screen by name; ``main`` exists from the start."""
        return self.run(calls.outputs())

    def define_context(self, name: str, frame: Rect | Mapping[str, float] | tuple[float, float, float, float], *,
                       duration: float | None = None, output: str | None = None) -> dict[str, Rect]:
        """Names (or moves) a rectangle entries can be presented in (``present(context=name)``);
        returns every context by name."""
        return self.run(calls.define_context(name, frame, duration=duration, output=output))

    def remove_context(self, name: str) -> list[str]:
        """Takes context ``name`` away; its entries leave with reason ``contextGone`` (returned)."""
        return self.run(calls.remove_context(name))

    def toast(self, content: str | Content | Mapping[str, Any], *, after: float | None = 2.0,
              position: OverlayPosition = "top", **presentation: Any) -> Presented:
        """Presents a toast (:func:`presentd.toast`): an overlay at ``position`` that leaves
        ``after`` seconds after it presented. It belongs to this connection: closing the
        client takes it away."""
        return self.run(calls.present(toast(content, after=after, position=position, **presentation)))

    def subscribe(self, topics: Iterable[Topic] = DEFAULT_TOPICS, *, outputs: Iterable[str] | None = None) -> "Subscription":
        """Subscribes (to the notifications of ``outputs``, or of every screen); the result
        holds the snapshot and iterates over the events."""
        topics = tuple(topics)
        subscription = Subscription(self, topics, self.run(calls.subscribe(topics, outputs)))
        self._topics.subscribed_to(topics)
        return subscription

    def unsubscribe(self, topics: Iterable[Topic]) -> None:
        remaining = self._topics.to_unsubscribe(topics)
        if remaining:
            self.run(calls.unsubscribe(remaining))  # type: ignore[arg-type]

    def set_container(self, width: float, height: float, **options: Any) -> Container:
        return self.run(calls.set_container(width, height, **options))

    def keyboard(self, height: float, *, duration: float | None = None, curve: Timing | None = None,
                 output: str | None = None) -> None:
        return self.run(calls.keyboard(height, duration, curve, output))

    def tap(self, x: float, y: float, *, output: str | None = None) -> TapResult:
        return self.run(calls.tap(x, y, output))

    def swipe(self, phase: str, dx: float, dy: float, vx: float | None = None, vy: float | None = None, *,
              output: str | None = None) -> SwipeResult:
        return self.run(calls.swipe(phase, dx, dy, vx, vy, output))

    def dry_run(self, presentation: Presentation | Mapping[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
        """What ``present`` would do, changing nothing (see ``calls.dry_run``)."""
        return self.run(calls.dry_run(presentation, **fields))

    def do_not_disturb(self, **options: Any) -> dict[str, Any]:
        """Do not disturb on: ``until``, ``duration``, ``allow_priority_above``, ``output``."""
        return self.run(calls.do_not_disturb(**options))

    def end_do_not_disturb(self, *, output: str | None = None) -> dict[str, Any]:
        return self.run(calls.end_do_not_disturb(output=output))

    def reduced_motion(self, on: bool, *, output: str | None = None) -> dict[str, Any]:
        """Reduced motion on or off on a screen (see ``calls.reduced_motion``)."""
        return self.run(calls.reduced_motion(on, output=output))

    def modes(self, *, output: str | None = None) -> dict[str, Any]:
        """The screen's modes: ``{output, doNotDisturb, reducedMotion, held}``."""
        return self.run(calls.modes(output=output))

    def explain(self, id: str) -> dict[str, Any]:
        """Why entry ``id`` is where it is (see ``calls.explain``)."""
        return self.run(calls.explain(id))

    def advance(self, seconds: float) -> float:
        return self.run(calls.advance(seconds))

    def sync(self, nonce: Any = 0) -> Any:
        return self.run(calls.sync(nonce))

    # MARK: Events

    def next_event(self, timeout: float | None = None) -> Event | None:
        """The next event (kept ones first); None when none comes within ``timeout``
        seconds (None waits for ever). Raises Disconnected once the connection is over."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            event = self._events.pop()
            if event is not None:
                return event
            if self._eof:
                raise Disconnected(self._closed_reason)
            try:
                message = self._read(deadline)
            except Disconnected:
                if self._events:
                    continue  # the shutdown held back while it tried to reconnect comes first
                raise
            if message is None:
                return None
            if message is not _RECONNECTED:
                self._route(message)

    def events(self, timeout: float | None = None) -> Iterator[Event]:
        """Events until the connection ends (or none came for ``timeout`` seconds)."""
        while True:
            try:
                event = self.next_event(timeout)
            except Disconnected:
                return
            if event is None:
                return
            yield event

    def pump(self) -> int:
        """Reads what is available without waiting (for poll loops on ``fileno()``);
        returns how many events are kept."""
        while True:
            try:
                message = self._read(time.monotonic())
            except Disconnected:
                if self._events:
                    return len(self._events)  # the end is reported after these are read
                raise
            if message is None:
                return len(self._events)
            if message is not _RECONNECTED:
                self._route(message)

    def pending_events(self) -> int:
        return len(self._events)

    # MARK: Internals

    def _send(self, data: bytes) -> None:
        try:
            self._sock.sendall(data)
        except OSError as e:
            # A daemon gone between two requests: the reply is awaited (and the request
            # sent again) once the read finds the end and reconnects.
            if not self._reconnection.wanted() or self._reconnecting:
                raise Disconnected(self._closed_reason or e.strerror) from None

    def _reconnect(self) -> bool:
        """The connection ended: connect again (with backoff), resume, subscribe again.
        False when it gives up (or is not to try); then a held-back shutdown is delivered."""
        r = self._reconnection
        if self._reconnecting:
            return False  # the new connection ended too: the attempt in progress tries again
        if r.wanted():
            self._reconnecting = True
            try:
                for delay in r.delays():
                    time.sleep(delay)
                    try:
                        sock = self._connect()
                    except OSError:
                        continue
                    self._sock.close()
                    self._sock, self._eof, self._closed_reason = sock, False, None
                    self._buffer.clear()
                    try:
                        hello = self.call("hello", r.hello_params())
                        if topics := r.topics(self._topics):
                            self.run(calls.subscribe(topics))  # type: ignore[arg-type]
                    except (Disconnected, OSError, TimeoutError, ProtocolError):
                        continue  # gone again: another attempt
                    r.came_back(hello, self._watches)
                    return True
            finally:
                self._reconnecting = False
        if r.held is not None:
            self._events.push(r.held)
            r.held = None
        return False

    def _route(self, message: "_wire.Reply | _wire.DaemonRequest | Event") -> None:
        if isinstance(message, _wire.DaemonRequest):
            self._answer(message)
        elif isinstance(message, _wire.Reply):
            pass  # a reply to a request that timed out: too late to matter
        else:
            self._closed_reason = _wire.disconnect_reason(message) or self._closed_reason
            if self._reconnection.holds(message):
                return  # a shutdown: the daemon may be back in a moment
            if any([w.see(message) for w in self._watches]) or self._topics.swallows(message):
                return  # an ask's answer, or a lifecycle event only an ask subscribed to
            self._events.push(message)

    def _borrow_lifecycle(self) -> None:
        self._topics.borrowers += 1
        if self._topics.borrowers == 1 and not self._topics.owns_lifecycle:
            try:
                self.run(calls.subscribe(["lifecycle"]))
            except BaseException:
                self._topics.borrowers -= 1
                raise

    def _give_back_lifecycle(self) -> None:
        """Unsubscribes what ``ask`` borrowed; its events are swallowed until the reply."""
        try:
            if self._topics.borrowers == 1 and not self._topics.owns_lifecycle and not self._eof:
                self.run(calls.unsubscribe(["lifecycle"]))
        except (Disconnected, OSError):
            pass  # the connection is gone, and the subscription with it
        finally:
            self._topics.borrowers -= 1

    def _withdraw(self, id: str) -> None:
        try:
            self.run(calls.dismiss(id))
        except (RPCError, Disconnected, OSError):
            pass  # gone already, or nobody to tell

    def _answer(self, request: _wire.DaemonRequest) -> None:
        """Answers a daemon request; if the callback raises, the daemon is told (it
        then allows the dismissal) and the exception propagates to the caller."""
        allow = True
        if request.method == "shouldDismiss" and self.should_dismiss is not None:
            try:
                allow = bool(self.should_dismiss(ShouldDismiss.from_json(request.params)))
            except Exception as e:
                self._send(_wire.callback_failed(request, e))
                raise
        self._send(_wire.answer(request, allow))

    def _read(self, deadline: float | None) -> "_wire.Reply | _wire.DaemonRequest | Event | object | None":
        """The next message, or None once ``deadline`` (monotonic) passes, or _RECONNECTED
        when the connection ended and a new one took its place."""
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                line = bytes(self._buffer[:newline])
                del self._buffer[:newline + 1]
                return _wire.decode(line)
            if self._eof:
                raise Disconnected(self._closed_reason)
            if len(self._buffer) > _wire.MAX_LINE_BYTES:
                raise ProtocolError(f"a line from the daemon is over {_wire.MAX_LINE_BYTES} bytes")
            if not self._wait_readable(deadline):
                return None
            try:
                chunk = self._sock.recv(65536)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                self._eof = True
                if self._reconnect():
                    return _RECONNECTED
                if self._buffer:
                    raise ProtocolError("the connection ended inside a line")
                raise Disconnected(self._closed_reason)
            self._buffer += chunk

    def _wait_readable(self, deadline: float | None) -> bool:
        poller = select.poll()
        poller.register(self._sock, select.POLLIN)
        while True:
            wait = None if deadline is None else max(0, int((deadline - time.monotonic()) * 1000 + 0.999))
            if poller.poll(wait):
                return True
            if deadline is not None and time.monotonic() >= deadline:
                return False


class Subscription:
    """A subscription: ``snapshot`` is the state it starts from; iterating yields the
    connection's events (one connection has one event stream, whatever the topics);
    leaving a ``with`` block unsubscribes from ``topics``."""

    def __init__(self, client: Client, topics: tuple[Topic, ...], snapshot: Snapshot):
        self.client = client
        self.topics = topics
        self.snapshot = snapshot

    def __iter__(self) -> Iterator[Event]:
        return self.client.events()

    def __enter__(self) -> "Subscription":
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            self.client.unsubscribe(self.topics)
        except (Disconnected, OSError):
            pass  # the connection is gone, and the subscription with it
