"""The asyncio client against the real daemon (each test runs its own event loop)."""

from __future__ import annotations

import asyncio
import contextlib
import functools

import pytest

import presentd
from presentd import AsyncClient, Disconnected, Frame, InvalidParams, Lifecycle, NotFound, Shutdown


def run(test):
    """Runs an async test function in a fresh event loop, with a time limit: only against a
    hang, so generous (a loaded machine can be slow by seconds)."""
    @functools.wraps(test)
    def wrapper(*args, **kwargs):
        return asyncio.run(asyncio.wait_for(test(*args, **kwargs), 60))
    return wrapper


@run
async def test_concurrent_calls_get_their_own_replies(daemon):
    async with await AsyncClient.connect(daemon.path) as c:
        hello, presented, pong, synced = await asyncio.gather(
            c.hello("aio"), c.present(style="alert", id="a"), c.ping(), c.sync("n"))
        assert hello.protocol == 1 and presented.id == "a" and pong is None and synced == "n"
        results = await asyncio.gather(*(c.present(style="popup", id=f"p{i}") for i in range(20)))
        assert [r.id for r in results] == [f"p{i}" for i in range(20)]
        assert [e.id for e in await c.stack()][:2] == ["a", "p0"]
        assert len(await c.dismiss_all(animated=False)) == 21


@run
async def test_errors_carry_code_and_field(daemon):
    async with await AsyncClient.connect(daemon.path) as c:
        with pytest.raises(InvalidParams) as e:
            await c.present(style={"type": "slideIn", "fraction": 2})
        assert (e.value.code, e.value.field) == (-32602, "style.fraction")
        with pytest.raises(NotFound):
            await c.dismiss("ghost")
        with pytest.raises(presentd.WrongClockMode):
            await c.advance(0.1)
        with pytest.raises(presentd.MethodNotFound):
            await c.call("nope")
        await c.ping()


@run
async def test_subscription_is_an_async_iterator_of_typed_events(manual):
    async with await AsyncClient.connect(manual.path, coalesce_frames=False) as c:
        async with await c.subscribe(["frames", "lifecycle"]) as sub:
            assert sub.snapshot.layers == ()
            await c.present(style="popup", id="p", transition={"type": "crossDissolve", "duration": 0.2,
                                                                 "timing": "linear"})
            await c.advance(0.3)
            seen = []
            async for event in sub:
                seen.append(event)
                if isinstance(event, Frame) and not event.animating:
                    break
        assert [(e.id, e.event) for e in seen if isinstance(e, Lifecycle)] == [("p", "willPresent"),
                                                                               ("p", "didPresent")]
        alphas = [e.layer("p").alpha for e in seen if isinstance(e, Frame)]
        assert alphas == pytest.approx([0.5, 1.0])


@run
async def test_frames_coalesce_for_a_slow_reader(manual):
    async with await AsyncClient.connect(manual.path) as c:
        await c.subscribe(["frames"])
        await c.present(style="popup", id="p", transition={"duration": 1})
        await c.advance(1.0)  # ten frames while nobody reads
        await c.sync()
        frame = await c.next_event(timeout=2)
        assert isinstance(frame, Frame) and frame.time == pytest.approx(1.0) and not frame.animating
        assert c.dropped_frames == 9
        with pytest.raises(asyncio.TimeoutError):  # nothing more comes on the manual clock: a short look will do
            await c.next_event(timeout=0.05)


@run
async def test_should_dismiss_with_a_coroutine_callback_that_calls_the_daemon(daemon):
    async def should_dismiss(q: presentd.ShouldDismiss) -> bool:
        # Calling the daemon from the callback must not deadlock the reader.
        entries = await owner.stack()
        return q.id not in [e.id for e in entries if e.kind == "sticky"]

    owner = await AsyncClient.connect(daemon.path, should_dismiss=should_dismiss)
    async with owner, await AsyncClient.connect(daemon.path) as screen:
        await owner.present(style="alert", id="s", kind="sticky", confirmDismiss=True, transition={"duration": 0})
        vetoed = await screen.tap(2, 2)
        assert (vetoed.dismissed, vetoed.confirmation) == (False, "vetoed")
        await owner.dismiss("s", animated=False)
        await owner.present(style="alert", id="t", kind="loose", confirmDismiss=True, transition={"duration": 0})
        allowed = await screen.tap(2, 2)
        assert (allowed.dismissed, allowed.confirmation) == (True, "allowed")


@run
async def test_shutdown_ends_iteration_and_fails_calls(daemon):
    c = await AsyncClient.connect(daemon.path, reconnect=0)  # test_reconnect.py: with reconnecting
    await c.subscribe(["lifecycle"])
    daemon.process.terminate()
    events = [e async for e in c.events()]
    assert events == [Shutdown("SIGTERM")]
    with pytest.raises(Disconnected) as e:
        await c.ping()
    assert e.value.reason == "SIGTERM"
    await c.close()


@run
async def test_cannot_connect(tmp_path):
    with pytest.raises(presentd.ConnectError):
        await AsyncClient.connect(str(tmp_path / "none.sock"))


# MARK: - Content and conversation

QUESTION = presentd.Content(
    title="Join the network?", fields=[presentd.Field("password", "secure", placeholder="Password")],
    actions=[presentd.Action("join", "Join", role="default"), presentd.Action("cancel", "Cancel", role="cancel")])
DEADLINE = 60.0  # generous: a loaded machine is slow, and a wait that holds costs nothing


async def lifecycle_event(client: AsyncClient, id: str, name: str) -> Lifecycle:
    """Waits for entry ``id``'s lifecycle event ``name`` (dropping the events before it)."""
    async def wait() -> Lifecycle:
        while True:
            e = await client.next_event()
            if isinstance(e, Lifecycle) and e.id == id and e.event == name:
                return e
    try:
        return await asyncio.wait_for(wait(), DEADLINE)
    except asyncio.TimeoutError:
        raise AssertionError(f"waited {DEADLINE} s for lifecycle {name} of {id}") from None


async def answered(ask: asyncio.Task, what: str):
    try:
        return await asyncio.wait_for(asyncio.shield(ask), DEADLINE)
    except asyncio.TimeoutError:
        raise AssertionError(f"ask() did not return within {DEADLINE} s of {what}") from None


@contextlib.asynccontextmanager
async def owner_and_screen(daemon):
    """Two connections: the app that asks, and the screen (subscribed to lifecycle) that answers."""
    async with await AsyncClient.connect(daemon.path) as owner, await AsyncClient.connect(daemon.path) as screen:
        await screen.subscribe(["lifecycle"])
        yield owner, screen


async def asking(owner: AsyncClient, screen: AsyncClient, id: str, **options) -> asyncio.Task:
    """``owner.ask(QUESTION, id=id, …)`` in a task, once the screen has seen it come in."""
    task = asyncio.create_task(owner.ask(QUESTION, id=id, **options))
    await lifecycle_event(screen, id, "willPresent")
    return task


@run
async def test_ask_answered_by_activate_from_another_connection(manual):
    async with owner_and_screen(manual) as (owner, screen):
        ask = await asking(owner, screen, "wifi")
        [entry] = await screen.stack()
        assert entry.content == QUESTION
        result = await screen.activate("wifi", "join", {"password": "hunter2"})
        assert (result.action, result.dismissed) == ("join", True)
        answer = await answered(ask, "the activate")
        assert isinstance(answer, presentd.ActionEvent)
        assert (answer.id, answer.action, answer.fields) == ("wifi", "join", {"password": "hunter2"})


@run
async def test_concurrent_asks_each_get_their_own_answer_and_give_the_subscription_back(manual):
    async with owner_and_screen(manual) as (owner, screen):
        instant = {"duration": 0}  # else the second would queue behind the first's transition
        first = await asking(owner, screen, "one", transition=instant)
        second = await asking(owner, screen, "two", style="popup", transition=instant)
        pressed = await screen.key("escape")  # the topmost: two
        assert (pressed.id, pressed.action) == ("two", "cancel")
        assert (await answered(second, "escape")).action == "cancel"
        assert not first.done()
        await screen.activate("one", "join")
        assert (await answered(first, "the activate")).action == "join"
        # Neither lifecycle events nor answers are left for a caller that never subscribed,
        # and the borrowed subscription is over.
        await owner.present(style="popup", id="later")
        await owner.sync()
        with pytest.raises(asyncio.TimeoutError):
            await owner.next_event(timeout=0.05)


@run
async def test_ask_returns_none_when_its_timeout_runs_out(manual):
    async with owner_and_screen(manual) as (owner, screen):
        ask = await asking(owner, screen, "t", timeout=1.5, transition={"duration": 0})
        presented = await lifecycle_event(screen, "t", "didPresent")
        await screen.advance(1.4)
        await screen.sync()
        assert not ask.done()
        await screen.advance(0.2)
        gone = await lifecycle_event(screen, "t", "willDismiss")
        assert gone.reason == "timeout" and gone.time == pytest.approx(presented.time + 1.5)
        assert await answered(ask, "the timeout") is None


@run
async def test_a_cancelled_ask_withdraws_its_entry(manual):
    async with owner_and_screen(manual) as (owner, screen):
        ask = await asking(owner, screen, "c")
        ask.cancel()
        gone = await lifecycle_event(screen, "c", "willDismiss")
        assert gone.reason == "request"
        with pytest.raises(asyncio.CancelledError):
            await ask


@run
async def test_owner_action_events_and_updates_in_a_subscription(manual):
    async with await AsyncClient.connect(manual.path, coalesce_frames=False) as owner, \
            await AsyncClient.connect(manual.path) as screen:
        sub = await owner.subscribe(["lifecycle"])
        await owner.present(id="dl", style="bottomHalf", transition={"duration": 0},
                            content=presentd.Content(title="Downloading", progress=0.1,
                                                     actions=[presentd.Action("stop", "Stop", dismisses=False)]))
        updated = await owner.update("dl", content=presentd.Content(title="Downloading", progress=0.6))
        assert updated.content_revision == 2
        with pytest.raises(presentd.InvalidParams) as e:
            await screen.activate("dl", "stop")  # the new content has no such action
        assert e.value.field == "action"
        await owner.update("dl", content=presentd.Content(title="Done", actions=[presentd.Action("open", "Open")]))
        await screen.activate("dl", "open")
        seen = []
        async for event in sub:
            seen.append(event)
            if isinstance(event, presentd.ActionEvent):
                break
        assert [e.content.progress for e in seen if isinstance(e, Lifecycle) and e.event == "updated"] == [0.6, None]
        assert (seen[-1].id, seen[-1].action) == ("dl", "open")
