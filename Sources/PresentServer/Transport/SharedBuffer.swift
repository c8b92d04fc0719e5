/// Immutable bytes shared by many queued writes, with a plain manual reference count.
///
/// A broadcast frame is serialised once and queued on every subscriber; ARC's atomic
/// counting on a class, once per queued write, is a visible cost in a flood, where a plain
/// counter is not. The
/// value is a bare pointer, so copying it costs nothing and does not count as a reference.
///
/// Rules: a new buffer holds one reference (the creator's). Each queue that keeps it calls
/// `retain()` and `release()` when its write completes (`Connection` does this). The creator
/// calls `release()` once it has handed the buffer out; the last `release()` frees the memory.
/// Loop thread only: the count is not atomic.
struct SharedBuffer {
    private struct Header {
        var references: Int
        let count: Int
    }

    private let header: UnsafeMutablePointer<Header>

    /// A buffer of `count` bytes filled by `initialize` (serialise straight into it).
    init(count: Int, initializingWith initialize: (UnsafeMutableRawBufferPointer) -> Void) {
        precondition(count >= 0)
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<Header>.stride + count,
            alignment: MemoryLayout<Header>.alignment)
        header = raw.bindMemory(to: Header.self, capacity: 1)
        header.initialize(to: Header(references: 1, count: count))
        initialize(UnsafeMutableRawBufferPointer(start: raw + MemoryLayout<Header>.stride,
                                                 count: count))
    }

    /// A buffer holding a copy of `bytes`.
    init(copying bytes: UnsafeRawBufferPointer) {
        self.init(count: bytes.count) { target in
            if let source = bytes.baseAddress, let base = target.baseAddress {
                base.copyMemory(from: source, byteCount: bytes.count)
            }
        }
    }

    /// A buffer holding a copy of `bytes`.
    init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { SharedBuffer(copying: $0) }
    }

    var count: Int { header.pointee.count }

    /// The bytes; valid while this holder's reference is.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: UnsafeRawPointer(header + 1), count: header.pointee.count)
    }

    /// How many holders still reference the bytes (tests, diagnostics).
    var referenceCount: Int { header.pointee.references }

    /// Adds a holder.
    func retain() {
        precondition(header.pointee.references > 0, "retain of a freed SharedBuffer")
        header.pointee.references += 1
    }

    /// Drops a holder; the last one frees the memory, after which this value must not be used.
    func release() {
        precondition(header.pointee.references > 0, "release of a freed SharedBuffer")
        header.pointee.references -= 1
        if header.pointee.references == 0 {
            header.deinitialize(count: 1)
            UnsafeMutableRawPointer(header).deallocate()
        }
    }
}
