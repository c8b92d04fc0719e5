"""The asyncio client against the real daemon (each test runs its own event loop)."""

from __future__ import annotations

import asyncio
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
    c = await AsyncClient.connect(daemon.path)
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
