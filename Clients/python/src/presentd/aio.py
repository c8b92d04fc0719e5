"""The asyncio client: one connection, any number of concurrent calls.

    async with await presentd.AsyncClient.connect() as c:
        sub = await c.subscribe(["frames"])
        await c.present(style="popup")
        async for event in sub:
            ...

A reader task reads every line as it arrives: replies resolve their call's future,
events go to a queue (frames coalesced by default: a slow consumer gets the newest),
and ``shouldDismiss`` questions are answered by ``should_dismiss``, which may be a plain
function or a coroutine function. Any number of ``ask`` calls may wait at once.

When the daemon restarts the client reconnects as :class:`presentd.Client` does (backoff
for up to ``reconnect`` seconds, ``hello {resume: token}``, its topics again; calls whose
replies were lost are sent again): asks keep waiting, and ``shutdown`` is delivered only
when it gives up.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from typing import Any, AsyncIterator, Awaitable, Callable, Iterable, Mapping, TypeVar, Union

from . import _wire, calls
from .calls import Call
from .errors import ConnectError, Disconnected, PresentdError, RPCError
from .types import (DEFAULT_TOPICS, ActionEvent, Activated, Container, Content, EntryUpdate, Event, Hello, Key,
                    KeyResult, OverlayPosition, Presentation, Presented, Rect, ShouldDismiss, Snapshot, StackEntry,
                    SwipeResult, TapResult, Timing, Topic, Transition, Updated, toast, Output)

T = TypeVar("T")
log = logging.getLogger("presentd")

ShouldDismissCallback = Callable[[ShouldDismiss], Union[bool, Awaitable[bool]]]


class AsyncClient:
    """Use ``await AsyncClient.connect(path)``; close with ``await close()`` or ``async with``."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, path: str, *,
                 timeout: float, should_dismiss: ShouldDismissCallback | None, coalesce_frames: bool,
                 reconnect: float = _wire.RECONNECT_SECONDS):
        self.path = path
        self.timeout = timeout
        self.should_dismiss = should_dismiss
        self._reader = reader
        self._writer = writer
        self._events = _wire.EventQueue(coalesce_frames)
        self._event_ready = asyncio.Event()
        self._pending: dict[int, asyncio.Future] = {}
        self._requests: dict[int, bytes] = {}  # what each pending call sent, to send again
        self._reconnection = _wire.Reconnection(reconnect)
        self._resuming: asyncio.Future | None = None
        self._next_id = 1
        self._closed: Disconnected | None = None
        self._closed_reason: str | None = None
        self._answering: set[asyncio.Task] = set()
        self._topics = _wire.Topics()
        self._topics_lock = asyncio.Lock()
        self._watches: list[_wire.AskWatch] = []
        self._task = asyncio.get_running_loop().create_task(self._read_loop())

    @classmethod
    async def connect(cls, path: str | None = None, *, timeout: float = 10.0,
                      should_dismiss: ShouldDismissCallback | None = None,
                      coalesce_frames: bool = True,
                      reconnect: float = _wire.RECONNECT_SECONDS) -> "AsyncClient":
        path = _wire.socket_path(path)
        try:
            reader, writer = await asyncio.open_unix_connection(path, limit=_wire.MAX_LINE_BYTES)
        except OSError as e:
            raise ConnectError(path, e.strerror or str(e)) from None
        return cls(reader, writer, path, timeout=timeout, should_dismiss=should_dismiss,
                   coalesce_frames=coalesce_frames, reconnect=reconnect)

    @property
    def reconnects(self) -> int:
        """How many times the client connected again after the daemon went away."""
        return self._reconnection.count

    async def close(self) -> None:
        self._reconnection.seconds = 0
        self._task.cancel()
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except OSError:
            pass
        self._finish(Disconnected("closed by the client"))

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    # MARK: Calls

    async def call(self, method: str, params: Any = None, *, timeout: float | None = None) -> Any:
        return await self.run(calls.raw(method, params), timeout=timeout)

    async def run(self, call: Call[T], *, timeout: float | None = None) -> T:
        """Sends ``call`` and awaits its reply (TimeoutError after ``timeout`` seconds)."""
        if self._closed is not None:
            raise self._closed
        if self._reconnection.needs_hello(call.method):
            await self.hello(self._reconnection.name)
        id = self._next_id
        self._next_id += 1
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._pending[id] = future
        self._requests[id] = data = _wire.request(id, call.method, call.params)
        try:
            await self._send(data)
            reply: _wire.Reply = await asyncio.wait_for(future, self.timeout if timeout is None else timeout)
        finally:
            self._pending.pop(id, None)
            self._requests.pop(id, None)
        result = reply.get()
        if call.method == "hello":
            self._reconnection.saw_hello(call.params, result)
        return call.read(result)

    async def notify(self, method: str, params: Any = None) -> None:
        await self._send(_wire.notification(method, params))

    async def hello(self, client: str | None = "presentd-python") -> Hello:
        return await self.run(calls.hello(client))

    async def ping(self) -> None:
        return await self.run(calls.ping())

    async def present(self, presentation: Presentation | Mapping[str, Any] | None = None, **fields: Any) -> Presented:
        return await self.run(calls.present(presentation, **fields))

    async def update(self, id: str, change: EntryUpdate | Mapping[str, Any] | None = None,
                     **fields: Any) -> Updated:
        return await self.run(calls.update(id, change, **fields))

    async def activate(self, id: str, action: str, fields: calls.FieldValues | None = None) -> Activated:
        return await self.run(calls.activate(id, action, fields))

    async def key(self, key: Key, fields: calls.FieldValues | None = None, *, id: str | None = None,
                  output: str | None = None) -> KeyResult:
        return await self.run(calls.key(key, fields, id, output))

    async def focus(self, id: str, field: str | None = None) -> None:
        return await self.run(calls.focus(id, field))

    async def ask(self, content: Content | Mapping[str, Any], *, timeout: float | None = None,
                  wait: float | None = None, **presentation: Any) -> ActionEvent | None:
        """As :meth:`Client.ask`: presents ``content`` and returns the ActionEvent of the
        action chosen, or None when the entry left without one (``timeout``: its
        ``autoDismiss``). After ``wait`` seconds, or when the awaiting task is cancelled,
        the entry is dismissed (TimeoutError, CancelledError)."""
        finished = asyncio.Event()
        watch = _wire.AskWatch(finished.set)
        await self._borrow_lifecycle()
        self._watches.append(watch)
        presented: Presented | None = None
        # Shielded: cancelled while the present is on its way, the present still lands, and
        # its entry must then be withdrawn like any other.
        present = asyncio.ensure_future(self.run(calls.present(calls.ask_presentation(content, timeout, presentation))))
        try:
            presented = await asyncio.shield(present)
            watch.started(presented.id, self._events)
            try:
                await asyncio.wait_for(finished.wait(), wait)
            except asyncio.TimeoutError:
                raise TimeoutError(f"no answer to {presented.id} within {wait} s") from None
            if watch.disconnected and watch.answer is None and self._closed is not None:
                raise self._closed
            return watch.answer
        finally:
            self._watches.remove(watch)
            try:
                if presented is None and not present.cancelled():
                    with contextlib.suppress(Exception):
                        presented = await present
                if presented is not None and not watch.done:
                    await self._withdraw(presented.id)
            finally:
                await self._give_back_lifecycle()

    async def dismiss(self, id: str, *, animated: bool | None = None,
                      transition: Transition | None = None) -> list[str]:
        return await self.run(calls.dismiss(id, animated, transition))

    async def dismiss_all(self, *, animated: bool | None = None) -> list[str]:
        return await self.run(calls.dismiss_all(animated))

    async def stack(self, *, output: str | None = None) -> list[StackEntry]:
        return await self.run(calls.stack(output))

    async def contexts(self, *, output: str | None = None) -> dict[str, Rect]:
        return await self.run(calls.contexts(output))

    async def add_output(self, name: str, width: float, height: float, **options: Any) -> dict[str, Output]:
        return await self.run(calls.add_output(name, width, height, **options))

    async def remove_output(self, name: str) -> list[str]:
        return await self.run(calls.remove_output(name))

    async def outputs(self) -> dict[str, Output]:
        return await self.run(calls.outputs())

    async def define_context(self, name: str, frame: Rect | Mapping[str, float] | tuple[float, float, float, float],
                             *, duration: float | None = None, output: str | None = None) -> dict[str, Rect]:
        return await self.run(calls.define_context(name, frame, duration=duration, output=output))

    async def remove_context(self, name: str) -> list[str]:
        return await self.run(calls.remove_context(name))

    async def toast(self, content: str | Content | Mapping[str, Any], *, after: float | None = 2.0,
                    position: OverlayPosition = "top", **presentation: Any) -> Presented:
        """As :meth:`Client.toast`."""
        return await self.run(calls.present(toast(content, after=after, position=position, **presentation)))

    async def subscribe(self, topics: Iterable[Topic] = DEFAULT_TOPICS, *,
                        outputs: Iterable[str] | None = None) -> "AsyncSubscription":
        topics = tuple(topics)
        subscription = AsyncSubscription(self, topics, await self.run(calls.subscribe(topics, outputs)))
        self._topics.subscribed_to(topics)
        return subscription

    async def unsubscribe(self, topics: Iterable[Topic]) -> None:
        remaining = self._topics.to_unsubscribe(topics)
        if remaining:
            await self.run(calls.unsubscribe(remaining))  # type: ignore[arg-type]

    async def set_container(self, width: float, height: float, **options: Any) -> Container:
        return await self.run(calls.set_container(width, height, **options))

    async def keyboard(self, height: float, *, duration: float | None = None, curve: Timing | None = None,
                       output: str | None = None) -> None:
        return await self.run(calls.keyboard(height, duration, curve, output))

    async def tap(self, x: float, y: float, *, output: str | None = None) -> TapResult:
        return await self.run(calls.tap(x, y, output))

    async def swipe(self, phase: str, dx: float, dy: float, vx: float | None = None,
                    vy: float | None = None, *, output: str | None = None) -> SwipeResult:
        return await self.run(calls.swipe(phase, dx, dy, vx, vy, output))

    async def dry_run(self, presentation: Presentation | Mapping[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
        return await self.run(calls.dry_run(presentation, **fields))

    async def do_not_disturb(self, **options: Any) -> dict[str, Any]:
        return await self.run(calls.do_not_disturb(**options))

    async def end_do_not_disturb(self, *, output: str | None = None) -> dict[str, Any]:
        return await self.run(calls.end_do_not_disturb(output=output))

    async def reduced_motion(self, on: bool, *, output: str | None = None) -> dict[str, Any]:
        return await self.run(calls.reduced_motion(on, output=output))

    async def modes(self, *, output: str | None = None) -> dict[str, Any]:
        return await self.run(calls.modes(output=output))

    async def explain(self, id: str) -> dict[str, Any]:
        return await self.run(calls.explain(id))

    async def advance(self, seconds: float) -> float:
        return await self.run(calls.advance(seconds))

    async def sync(self, nonce: Any = 0) -> Any:
        return await self.run(calls.sync(nonce))

    # MARK: Events

    async def next_event(self, timeout: float | None = None) -> Event:
        """The next event; raises Disconnected once the connection is over and every
        event before the end was read, TimeoutError after ``timeout`` seconds."""
        async def wait() -> Event:
            while True:
                event = self._events.pop()
                if event is not None:
                    return event
                if self._closed is not None:
                    raise self._closed
                self._event_ready.clear()
                await self._event_ready.wait()
        return await (wait() if timeout is None else asyncio.wait_for(wait(), timeout))

    async def events(self) -> AsyncIterator[Event]:
        """Events until the connection ends."""
        while True:
            try:
                yield await self.next_event()
            except Disconnected:
                return

    @property
    def dropped_frames(self) -> int:
        """Frames replaced by newer ones before they were read (coalescing)."""
        return self._events.dropped_frames

    # MARK: Internals

    async def _send(self, data: bytes) -> None:
        if self._closed is not None:
            raise self._closed
        try:
            self._writer.write(data)
            await self._writer.drain()
        except (OSError, RuntimeError) as e:
            # Between connections: a pending call is sent again once the new one is up.
            if not self._reconnection.wanted():
                raise Disconnected(self._closed_reason or str(e)) from None

    async def _reconnect(self) -> bool:
        """The connection ended: connect again with backoff; the read loop goes on on the
        new one while ``_resume`` says hello, subscribes and sends lost calls again."""
        r = self._reconnection
        if r.wanted():
            for delay in r.delays():
                await asyncio.sleep(delay)
                try:
                    reader, writer = await asyncio.open_unix_connection(self.path, limit=_wire.MAX_LINE_BYTES)
                except OSError:
                    continue
                self._writer.close()
                self._reader, self._writer, self._closed_reason = reader, writer, None
                lost = dict(self._requests)
                if self._resuming is not None:
                    self._resuming.cancel()
                self._resuming = asyncio.ensure_future(self._resume(lost))
                return True
        if r.held is not None:
            self._events.push(r.held)
            r.held = None
        return False

    async def _resume(self, lost: dict[int, bytes]) -> None:
        r = self._reconnection
        try:
            hello = await self.call("hello", r.hello_params())
            if topics := r.topics(self._topics):
                await self.run(calls.subscribe(topics))  # type: ignore[arg-type]
        except (Disconnected, OSError, asyncio.TimeoutError):
            return  # gone again: the read loop reconnects once more
        r.came_back(hello, self._watches)
        for id, data in lost.items():
            if id in self._pending:
                await self._send(data)

    async def _read_loop(self) -> None:
        try:
            while True:
                line = await self._reader.readline()
                if not line.endswith(b"\n"):
                    # end of the stream (a partial last line is dropped with it)
                    if await self._reconnect():
                        continue
                    break
                message = _wire.decode(line[:-1])
                if isinstance(message, _wire.Reply):
                    future = self._pending.get(message.id)
                    if future is not None and not future.done():
                        future.set_result(message)
                elif isinstance(message, _wire.DaemonRequest):
                    # In its own task: the callback may itself call the daemon, whose reply
                    # this loop must stay free to read.
                    task = asyncio.get_running_loop().create_task(self._answer(message))
                    self._answering.add(task)
                    task.add_done_callback(self._answering.discard)
                else:
                    self._closed_reason = _wire.disconnect_reason(message) or self._closed_reason
                    if self._reconnection.holds(message):
                        continue  # a shutdown: the daemon may be back in a moment
                    if any([w.see(message) for w in self._watches]) or self._topics.swallows(message):
                        continue  # an ask's answer, or a lifecycle event only an ask subscribed to
                    self._events.push(message)
                    self._event_ready.set()
            self._finish(Disconnected(self._closed_reason))
        except asyncio.CancelledError:
            raise
        except (PresentdError, ValueError, OSError) as e:
            # ValueError: a line over the limit; the others: broken stream or peer.
            if isinstance(e, OSError) and await self._reconnect():
                self._task = asyncio.get_running_loop().create_task(self._read_loop())
                return
            log.error("presentd connection failed: %s", e)
            self._finish(Disconnected(self._closed_reason or str(e)))

    async def _answer(self, request: _wire.DaemonRequest) -> None:
        """Answers a daemon request. A callback that raises gets its question answered
        with an error, which the daemon takes as "allow"; the exception is logged."""
        try:
            allow: Any = True
            if request.method == "shouldDismiss" and self.should_dismiss is not None:
                allow = self.should_dismiss(ShouldDismiss.from_json(request.params))
                if inspect.isawaitable(allow):
                    allow = await allow
            line = _wire.answer(request, bool(allow))
        except Exception as e:  # the callback is user code: report it, keep the connection
            log.exception("should_dismiss raised")
            line = _wire.callback_failed(request, e)
        try:
            await self._send(line)
        except Disconnected:
            pass  # nobody left to answer

    async def _borrow_lifecycle(self) -> None:
        async with self._topics_lock:
            self._topics.borrowers += 1
            if self._topics.borrowers == 1 and not self._topics.owns_lifecycle:
                try:
                    await self.run(calls.subscribe(["lifecycle"]))
                except BaseException:
                    self._topics.borrowers -= 1
                    raise

    async def _give_back_lifecycle(self) -> None:
        async with self._topics_lock:
            try:
                if self._topics.borrowers == 1 and not self._topics.owns_lifecycle and self._closed is None:
                    await self.run(calls.unsubscribe(["lifecycle"]))
            except (Disconnected, OSError):
                pass
            finally:
                self._topics.borrowers -= 1

    async def _withdraw(self, id: str) -> None:
        try:
            await self.run(calls.dismiss(id))
        except (RPCError, Disconnected, OSError):
            pass

    def _finish(self, error: Disconnected) -> None:
        if self._resuming is not None:
            self._resuming.cancel()
        if self._closed is None:
            self._closed = error
        for future in self._pending.values():
            if not future.done():
                future.set_exception(self._closed)
        for watch in self._watches:
            watch.closed()
        self._event_ready.set()


class AsyncSubscription:
    """``async for event in subscription``; ``async with`` unsubscribes at the end."""

    def __init__(self, client: AsyncClient, topics: tuple[Topic, ...], snapshot: Snapshot):
        self.client = client
        self.topics = topics
        self.snapshot = snapshot

    def __aiter__(self) -> AsyncIterator[Event]:
        return self.client.events()

    async def __aenter__(self) -> "AsyncSubscription":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        try:
            await self.client.unsubscribe(self.topics)
        except (Disconnected, OSError):
            pass
