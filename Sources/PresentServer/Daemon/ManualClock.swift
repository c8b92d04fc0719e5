// `--clock manual`: the daemon's time is seconds from 0 that move only when a client
// says `advance` (or a replay follows its recording), never by themselves and never
// back. The same requests then give the same frames, which is what tests, recordings
// and the render-server proof compare.

/// The manual clock's time (loop thread only). The daemon reads it as `now` when it runs
/// on the manual clock; `advanceManualClock` moves it tick by tick (Daemon+Publishing),
/// and a replay of a monotonic recording first moves it to the recording's start.
final class ManualClock {
    /// Seconds from 0.
    private(set) var time = 0.0

    /// Moves the time to `t`, which is not earlier.
    func move(to t: Double) {
        precondition(t.isFinite && t >= time, "the manual clock moves forward only")
        time = t
    }
}
