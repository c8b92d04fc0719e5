import CLibUV
import Glibc

/// A Swift object that owns libuv handles.
///
/// Its `EventLoop` keeps it alive from creation until its last close callback has run, so C
/// callbacks can turn `handle->data` back into the object with an *unretained* `Unmanaged`
/// and never find it freed. Owners other than the loop may hold it too; dropping those
/// references does not close anything: call `close()`.
protocol LoopOwned: AnyObject {
    /// Starts closing the object's handles. Idempotent; the close callbacks run on a later
    /// loop iteration, and `EventLoop.close()` calls it on everything still open.
    func close()
}

/// The daemon's single libuv loop, and the registry that keeps handle owners alive.
///
/// Not thread-safe: create it, use every transport object, and run it on one thread.
/// (The only thread-safe libuv call is `uv_async_send`; nothing here needs it yet.)
final class EventLoop {
    /// The libuv loop; `raw.pointee.data` points back at this object (unretained).
    let raw: UnsafeMutablePointer<uv_loop_t>
    /// One read buffer for every connection: read callbacks consume it synchronously, so
    /// sharing it costs nothing and saves a malloc per read.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Where the replies to one read's lines gather, lent to the connection whose read is
    /// being handled (`Connection.deliver`; reads are handled one at a time) and given
    /// back with its capacity, so a request's reply allocates nothing.
    private var gatherBuffer: [UInt8] = []
    private(set) var isClosed = false

    /// The loop's turns so far: one more each time it is about to poll for I/O (a
    /// `uv_prepare_t`, which never wakes the loop itself), so a turn runs from one poll to
    /// the next. Work counted "per turn" (Fairness) tells by it that a turn is over, with
    /// no timer or wake-up of its own.
    private(set) var turn: UInt64 = 0

    private var owned: [ObjectIdentifier: any LoopOwned] = [:]
    private var lastConnectionID: UInt64 = 0
    /// Runs `posted` work; active only while there is some, so an idle loop still blocks.
    private let idle: UnsafeMutablePointer<uv_idle_t>
    private var posted: [() -> Void] = []
    /// Counts `turn`; unreferenced, so it keeps no loop running.
    private let prepare: UnsafeMutablePointer<uv_prepare_t>

    private static let readBufferSize = 64 * 1024
    /// The most capacity the gather buffer keeps: a larger one, grown by a rare large
    /// reply, is let go rather than held for ever.
    private static let gatherBufferKeptBytes = 16 * 1024

    /// Lends the gather buffer (empty) to `buffer`, which takes its place, if `buffer` is
    /// empty (a buffer that holds bytes keeps them, and gathers on in its own room).
    /// Whether it was lent: only then is it given back with `returnGatherBuffer`.
    func lendGatherBuffer(to buffer: inout [UInt8]) -> Bool {
        guard buffer.isEmpty else { return false }
        swap(&buffer, &gatherBuffer)
        return true
    }

    /// Takes the lent gather buffer back (emptied, keeping its capacity); `buffer` is left
    /// empty.
    func returnGatherBuffer(from buffer: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: buffer.capacity <= Self.gatherBufferKeptBytes)
        swap(&buffer, &gatherBuffer)
    }

    /// Creating a loop ignores SIGPIPE for the whole process: libuv writes with write(2),
    /// and a write to a peer that went away must fail with EPIPE, never kill the daemon.
    init() throws {
        SignalWatcher.ignoreSIGPIPE()
        raw = .allocate(capacity: 1)
        let status = uv_loop_init(raw)
        guard status == 0 else {
            raw.deallocate()
            throw TransportError.uv("uv_loop_init", status: status)
        }
        idle = .allocate(capacity: 1)
        uv_idle_init(raw, idle)
        prepare = .allocate(capacity: 1)
        uv_prepare_init(raw, prepare)
        uv_prepare_start(prepare) { handle in
            EventLoop.from(handle!.pointee.loop).turn += 1
        }
        uv_unref(uvHandle(prepare))
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        raw.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        // Owned objects keep the loop alive (they reference it), so reaching deinit means
        // none is left; only the loop itself may still need closing.
        if !isClosed { close() }
    }

    /// The `EventLoop` behind a libuv loop pointer (from a handle's `loop` field).
    static func from(_ loop: UnsafeMutablePointer<uv_loop_t>) -> EventLoop {
        Unmanaged<EventLoop>.fromOpaque(loop.pointee.data).takeUnretainedValue()
    }

    // MARK: Running

    /// Runs until `stop()` is called or nothing is left to wait for.
    func run() {
        uv_run(raw, UV_RUN_DEFAULT)
    }

    /// One loop iteration: `nowait` polls without blocking (tests), otherwise it blocks until
    /// at least one event. Returns whether handles or requests are still active.
    @discardableResult
    func runOnce(nowait: Bool = true) -> Bool {
        uv_run(raw, nowait ? UV_RUN_NOWAIT : UV_RUN_ONCE) != 0
    }

    /// Runs iterations until `condition` holds, at most `maxIterations` times (tests use this
    /// instead of sleeping). Returns whether the condition was met.
    ///
    /// With `nowait: false` each iteration may block, but never for long: libuv 1.44's
    /// UV_RUN_ONCE runs timers that are already due *before* it polls, then polls with no
    /// deadline if nothing else is scheduled, so a condition met by such a timer would
    /// never be re-checked. A 10 ms tick bounds every wait.
    @discardableResult
    func run(until condition: () -> Bool, maxIterations: Int = 100_000,
             nowait: Bool = true) -> Bool {
        let tick = nowait ? nil : try? Timer(loop: self)
        tick?.start(after: 0.01, repeating: 0.01)
        defer { tick?.close() }
        for _ in 0..<maxIterations {
            if condition() { return true }
            runOnce(nowait: nowait)
        }
        return condition()
    }

    /// Makes `run()` return after the current iteration.
    func stop() {
        uv_stop(raw)
    }

    /// Runs `work` on the next loop iteration, outside the current callback (used to resume
    /// line delivery without re-entering the caller).
    func post(_ work: @escaping () -> Void) {
        precondition(!isClosed, "post on a closed EventLoop")
        if posted.isEmpty {
            uv_idle_start(idle) { handle in
                EventLoop.from(handle!.pointee.loop).runPosted()
            }
        }
        posted.append(work)
    }

    private func runPosted() {
        let work = posted
        posted.removeAll()
        uv_idle_stop(idle)
        for item in work { item() }
    }

    // MARK: Clock

    /// CLOCK_MONOTONIC in seconds: the clock frames are stamped with and `FrameTimer` paces by.
    static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Same as the static `monotonicNow()`, for call sites holding a loop.
    func monotonicNow() -> Double { Self.monotonicNow() }

    /// The loop's own time in milliseconds (`uv_now`, as of the start of this loop
    /// iteration): no system call, for bookkeeping on every request.
    var milliseconds: UInt64 { uv_now(raw) }

    // MARK: Ownership

    /// A fresh connection id: unique on this loop and increasing.
    func makeConnectionID() -> UInt64 {
        lastConnectionID += 1
        return lastConnectionID
    }

    /// Makes `id` the next connection's id (a replay gives each connection its recorded
    /// id); false when an id that high was already given.
    func reserveConnectionID(_ id: UInt64) -> Bool {
        guard id > lastConnectionID else { return false }
        lastConnectionID = id - 1
        return true
    }

    /// Called by an owner right after it opened its handles.
    func keepAlive(_ object: any LoopOwned) {
        owned[ObjectIdentifier(object)] = object
    }

    /// Called by an owner from its last close callback; may free the object.
    func endKeepAlive(_ object: any LoopOwned) {
        owned[ObjectIdentifier(object)] = nil
    }

    /// How many handle owners are still open or closing.
    var ownedCount: Int { owned.count }

    // MARK: Teardown

    /// Closes every handle still owned, runs the loop until their close callbacks (and the
    /// cancelled writes' callbacks) have run, then closes the loop. Call it after `run()`
    /// returned, not from a callback. Returns `uv_loop_close`'s status, which must be 0.
    @discardableResult
    func close() -> Int32 {
        guard !isClosed else { return 0 }
        for object in Array(owned.values) { object.close() }
        posted.removeAll()
        for handle in [uvHandle(idle), uvHandle(prepare)] where uv_is_closing(handle) == 0 {
            uv_close(handle, freeHandleOnClose)
        }
        // Close callbacks run at the end of an iteration; a few iterations cover handles
        // whose close is started by another's callback (a connection's flush timer).
        var iterations = 0
        while uv_run(raw, UV_RUN_NOWAIT) != 0 && iterations < 1000 { iterations += 1 }
        let status = uv_loop_close(raw)
        assert(status == 0, "uv_loop_close: \(status); still open: \(openHandleNames())")
        if status == 0 {
            raw.deallocate()
            readBuffer.deallocate()
            isClosed = true
        }
        return status
    }

    /// The type names of handles still known to libuv, for the failure message above.
    func openHandleNames() -> [String] {
        var names: [String] = []
        withUnsafeMutablePointer(to: &names) { names in
            uv_walk(raw, { handle, context in
                let names = context!.assumingMemoryBound(to: [String].self)
                names.pointee.append(String(cString: uv_handle_type_name(handle!.pointee.type)))
            }, names)
        }
        return names
    }
}

/// A typed handle pointer seen as the `uv_handle_t` it starts with (libuv's C "inheritance").
@inline(__always)
func uvHandle<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<uv_handle_t> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: uv_handle_t.self)
}

/// A typed stream handle pointer seen as the `uv_stream_t` it starts with.
@inline(__always)
func uvStream<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<uv_stream_t> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: uv_stream_t.self)
}

/// The close callback for a handle with no Swift owner left: frees its memory.
let freeHandleOnClose: uv_close_cb = { handle in
    UnsafeMutableRawPointer(handle!).deallocate()
}
