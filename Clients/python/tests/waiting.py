"""What the Python tests wait with: every wait is for the condition itself, with a
deadline and a message saying what it waited for."""

from __future__ import annotations

import time
from typing import Callable

from presentd import Client, Lifecycle

DEADLINE = 10.0


def drain(client: Client) -> list:
    """Every event the daemon wrote to ``client`` before a `sync` reply."""
    client.sync("drain")
    out = []
    while (e := client.next_event(timeout=0)) is not None:
        out.append(e)
    return out


def wait_for(client: Client, what: str, predicate: Callable, timeout: float = DEADLINE):
    """The first event matching ``predicate`` (the ones before it are dropped)."""
    deadline = time.monotonic() + timeout
    seen = []
    while True:
        left = deadline - time.monotonic()
        event = client.next_event(timeout=left) if left > 0 else None
        if event is None:
            raise AssertionError(f"waited {timeout} s for {what}; saw {seen}")
        seen.append(event)
        if predicate(event):
            return event


def lifecycle_event(client: Client, id: str, name: str, timeout: float = DEADLINE) -> Lifecycle:
    return wait_for(client, f"lifecycle {name} of {id}",
                    lambda e: isinstance(e, Lifecycle) and e.id == id and e.event == name, timeout)
