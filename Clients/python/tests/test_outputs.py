"""Several screens (outputs) with the Python client: the types, frame coalescing per
screen, and against the real daemon, a second output with its own frame rate, present and
tap on it, and removing it."""

from __future__ import annotations

from presentd import Frame, Output, StackEntry
from presentd._wire import EventQueue
from presentd.types import parse_event, parse_outputs


def test_events_and_entries_name_their_output_main_by_default():
    assert parse_event("frame", {"seq": 1, "time": 0.5, "layers": []}).output == "main"
    assert parse_event("frame", {"seq": 1, "time": 0.5, "layers": [], "output": "cluster"}).output == "cluster"
    assert parse_event("statusBar", {"seq": 2, "style": "default", "output": "cluster"}).output == "cluster"
    assert parse_event("lifecycle", {"seq": 3, "id": "a", "event": "queued", "output": "cluster"}).output == "cluster"
    assert StackEntry.from_json({"id": "a"}).output == "main"
    assert StackEntry.from_json({"id": "a", "output": "cluster"}).output == "cluster"


def test_outputs_read_as_a_list_or_by_name():
    main = {"name": "main", "container": {"width": 390, "height": 844}, "fps": 60}
    by_list = parse_outputs({"outputs": [main, {"name": "cluster", "width": 1280, "height": 480, "fps": 30}]})
    assert list(by_list) == ["main", "cluster"]
    assert (by_list["main"].container.width, by_list["main"].fps) == (390, 60)
    assert (by_list["cluster"].container.height, by_list["cluster"].fps) == (480, 30)
    by_name = parse_outputs({"outputs": {"cluster": {"container": {"width": 1280, "height": 480}}}})
    assert isinstance(by_name["cluster"], Output) and by_name["cluster"].name == "cluster"
    assert by_name["cluster"].fps is None


def test_a_slow_reader_keeps_the_newest_frame_of_each_output():
    queue = EventQueue(coalesce_frames=True)

    def frame(output: str, seq: int) -> Frame:
        return Frame(seq, seq / 10, (), True, {}, output)

    for event in (frame("main", 1), frame("cluster", 1), frame("main", 2), frame("cluster", 2), frame("main", 3)):
        queue.push(event)
    kept = [(e.output, e.seq) for e in iter(queue.pop, None)]
    assert kept == [("cluster", 2), ("main", 3)]
    assert queue.dropped_frames == 3
