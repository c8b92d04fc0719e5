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


def test_a_second_output_has_its_own_stack_frames_and_taps(manual):
    from presentd import Client
    from waiting import drain, lifecycle_event

    with Client(manual.path) as c:
        c.add_output("cluster", 1280, 480, fps=30)
        outputs = c.outputs()
        assert set(outputs) == {"main", "cluster"}
        assert (outputs["cluster"].container.width, outputs["cluster"].fps) == (1280, 30)
        c.subscribe(["frames", "lifecycle"], outputs=["cluster"])
        c.present(id="gauge", style="alert", output="cluster", transition={"type": "crossDissolve", "duration": 0.1})
        c.advance(0.2)
        frames = [e for e in drain(c) if isinstance(e, Frame)]
        assert frames and all(f.output == "cluster" for f in frames)
        assert all(abs(f.time * 30 - round(f.time * 30)) < 1e-6 for f in frames), "ticks of the cluster's 30 fps"
        entries = {e.id: e for e in c.stack(output="cluster")}
        assert entries["gauge"].output == "cluster"
        hit = c.tap(640, 240, output="cluster")
        assert (hit.id, hit.part) == ("gauge", "content")
        assert c.remove_output("cluster") == ["gauge"]
        assert lifecycle_event(c, "gauge", "willDismiss").reason == "outputGone"
        assert set(c.outputs()) == {"main"}
