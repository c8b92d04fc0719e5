"""A client that waits for answers, for test-deploy: `waiter.py sync ID` asks with the
synchronous client, `waiter.py aio ID...` asks each ID at once on one asyncio client.
Prints `ID ACTION` per answer (`ID none` when the entry left without one) and the number
of reconnects, then exits 0."""

import asyncio
import sys

import presentd

QUESTION = presentd.Content(title="Still there?", actions=[presentd.Action("yes", "Yes", role="default"),
                                                           presentd.Action("no", "No", role="cancel")])


def line(id, answer):
    return f"{id} {answer.action if answer else 'none'}"


def main(mode, ids):
    if mode == "sync":
        with presentd.Client(timeout=30) as c:
            answer = c.ask(QUESTION, id=ids[0])
            print(line(ids[0], answer), f"reconnects={c.reconnects}", flush=True)
        return

    async def run():
        async with await presentd.AsyncClient.connect(timeout=30) as c:
            answers = await asyncio.gather(*(c.ask(QUESTION, id=id) for id in ids))
            for id, answer in zip(ids, answers):
                print(line(id, answer), f"reconnects={c.reconnects}", flush=True)
    asyncio.run(run())


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
