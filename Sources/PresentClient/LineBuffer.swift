// The bytes a client has read from the daemon and not yet taken as lines.

#if canImport(Glibc)
import Glibc
#endif
import PresentSystem

/// Newline-separated messages read from a descriptor. A read goes straight into the free
/// room at the end: no scratch buffer to zero or copy from, and only the pages the kernel
/// writes to are touched, which is most of the cost for a command that reads one short reply.
/// The room is reused once its lines are taken, and doubles only for a line longer than it.
public struct LineBuffer: ~Copyable {
    private var storage: UnsafeMutableRawBufferPointer
    /// Bytes not yet taken: `storage[start..<end]`.
    private var start = 0
    private var end = 0

    public init(capacity: Int = 4096) {
        storage = .allocate(byteCount: max(capacity, 1), alignment: 1)
    }

    deinit { storage.deallocate() }

    /// Bytes read and not yet taken.
    public var count: Int { end - start }

    /// Room for the next read before it has to move or grow.
    public var capacity: Int { storage.count }

    /// The next whole line, without its newline, or nil until one has been read whole.
    public mutating func takeLine() -> [UInt8]? {
        guard start < end, let base = storage.baseAddress,
              let found = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start) else { return nil }
        let newline = base.distance(to: UnsafeMutableRawPointer(found))
        let line = [UInt8](UnsafeRawBufferPointer(rebasing: storage[start..<newline]))
        start = newline + 1
        if start == end { start = 0; end = 0 }
        return line
    }

    /// Reads once from `fd` into the free room (made first, by moving what is left to the
    /// front or by doubling): the byte count, 0 at end of file.
    public mutating func read(from fd: Int32) throws(SystemCallError) -> Int {
        if end == storage.count { makeRoom() }
        let room = UnsafeMutableRawBufferPointer(rebasing: storage[end...])
        let n = try valueOrErrno("read") { Glibc.read(fd, room.baseAddress, room.count) }
        end += n
        return n
    }

    private mutating func makeRoom() {
        let kept = end - start
        if start > 0 {
            if kept > 0, let base = storage.baseAddress { memmove(base, base + start, kept) }
        } else {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count * 2, alignment: 1)
            grown.copyMemory(from: UnsafeRawBufferPointer(storage))
            storage.deallocate()
            storage = grown
        }
        start = 0
        end = kept
    }
}
