"""Clients across a daemon restart: kill -9 the daemon while clients wait for answers,
start it again on the same socket (it restores the stack it saved beside the socket), and
each client — the synchronous and the asyncio Python client, and `presentctl present
--wait` — reconnects with `hello {resume}` and keeps waiting; the answer given after the
restart reaches it, and nothing else tells it a restart happened."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import subprocess

from presentd import Action, AsyncClient, Client, Content
from presentd.daemon import Daemon, find_binary, wait_until

DEADLINE = 60.0  # generous: a loaded machine restarts a daemon in seconds, not milliseconds

QUESTION = Content(title="Keep going?", actions=[Action("yes", "Yes", role="default"),
                                                 Action("no", "No", role="cancel")])


def saved_ids(daemon: Daemon) -> list[str]:
    """The entries in the state file beside the socket: what a restart brings back."""
    try:
        with open(os.path.join(daemon.directory, "presentd-state.json")) as f:
            return [e["id"] for e in json.load(f).get("entries", [])]
    except (OSError, ValueError):
        return []


def kill_9_and_restart(daemon: Daemon, ids: list[str]) -> None:
    wait_until(lambda: sorted(saved_ids(daemon)) == sorted(ids), f"presentd to save {ids} before the kill",
               context=lambda: f"the state file holds {saved_ids(daemon)}")
    daemon.restart()


def test_the_sync_and_asyncio_clients_and_presentctl_keep_waiting_across_kill_9(tmp_path):
    with Daemon(args=["--resume-grace", "30", "--log-level", "info"]) as daemon, concurrent.futures.ThreadPoolExecutor(2) as pool:
        sync_owner = Client(daemon.path)
        sync_answer = pool.submit(sync_owner.ask, QUESTION, id="sync", wait=DEADLINE)

        async def asyncio_owner():
            async with await AsyncClient.connect(daemon.path) as c:
                answer = await c.ask(QUESTION, id="aio", wait=DEADLINE)
                return answer, c.reconnects
        aio_answer = pool.submit(asyncio.run, asyncio_owner())

        presentctl = subprocess.Popen(
            [find_binary("presentctl"), "--socket", daemon.path, "present", "--id", "ctl", "--title", "Go on?",
             "--action", "yes:Yes:default", "--action", "no:No:cancel", "--wait"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            kill_9_and_restart(daemon, ["sync", "aio", "ctl"])

            with Client(daemon.path) as screen:
                # Each owner took its entry back: the stack lists three entries, none of them
                # left behind with a stand-in owner (that would end in ownerGone). An entry
                # still queued at the kill presents again after the restart, with its
                # transition: each must be on screen before it can be answered.
                def resumed() -> bool:
                    stack = {e.id: e for e in screen.stack()}
                    return sorted(stack) == ["aio", "ctl", "sync"] and sync_owner.reconnects == 1 and \
                        "resumed" in daemon.log and daemon.log.count(" resumed ") >= 3 and \
                        all(e.state == "presented" for e in stack.values())
                wait_until(resumed, "the three owners to resume their entries, on screen, after the restart",
                           timeout=DEADLINE, context=lambda: f"stack {[(e.id, e.state) for e in screen.stack()]}, "
                           f"sync reconnects {sync_owner.reconnects}; daemon log:\n{daemon.log}")
                for entry in reversed(screen.stack()):  # top first: a dismissal takes what is above
                    assert screen.activate(entry.id, "yes").dismissed

            answer = sync_answer.result(DEADLINE)
            assert (answer.id, answer.action) == ("sync", "yes")
            answer, reconnects = aio_answer.result(DEADLINE)
            assert (answer.id, answer.action, reconnects) == ("aio", "yes", 1)
            out, err = presentctl.communicate(timeout=DEADLINE)
            assert (presentctl.returncode, out, err) == (0, "yes\n", "")
            assert "ownerGone" not in daemon.log
        finally:
            if presentctl.poll() is None:
                presentctl.kill()
            sync_owner.close()


def test_a_client_that_finds_no_daemon_gives_up_and_reports_the_shutdown(tmp_path):
    daemon = Daemon()
    c = Client(daemon.path, reconnect=1.0)
    c.subscribe(["lifecycle"])
    daemon.stop()  # SIGTERM, and nobody starts it again
    events = list(c.events(timeout=DEADLINE))
    assert [type(e).__name__ for e in events] == ["Shutdown"] and c.reconnects == 0
    c.close()
