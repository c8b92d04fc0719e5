// The flight recorder's storage: records of any length, back to back in one byte ring.

#if canImport(Glibc)
import Glibc
#endif

/// A bounded FIFO of variable-length records in one contiguous byte buffer: each record is
/// its payload's length (32 bits), a fixed `Header` and the payload, back to back, wrapping
/// around the buffer's end. A record that does not fit makes the oldest leave; one larger
/// than the whole ring is not kept. It knows nothing of what the records mean.
///
/// The buffer is allocated with the first record, so a ring never used costs no memory (and
/// its pages become resident only as records reach them). Noncopyable: it owns the buffer.
struct RecordRing<Header: BitwiseCopyable>: ~Copyable {
    /// The bytes a record takes besides its payload: its length, then its header.
    static var overhead: Int { MemoryLayout<UInt32>.size + MemoryLayout<Header>.size }

    /// The bound: the records held take at most this many bytes.
    private(set) var capacity: Int
    /// Bytes the records held take, overheads included.
    private(set) var bytes = 0
    /// Records held.
    private(set) var count = 0
    /// Records that left to make room, or that were larger than the whole ring.
    private(set) var dropped: UInt64 = 0
    /// `capacity` bytes; nil until the first record, and while a resize leaves none.
    private var storage: UnsafeMutableRawPointer?
    /// Where the oldest record starts (its length's first byte).
    private var head = 0

    /// An empty ring of `capacity` bytes (none allocated yet).
    init(capacity: Int) {
        Self.checkCapacity(capacity)
        self.capacity = capacity
    }

    deinit { storage?.deallocate() }

    /// Whether the buffer is allocated: not before the first record.
    var isAllocated: Bool { storage != nil }

    /// Appends a record, dropping first the oldest ones whose room it needs. One larger than
    /// the whole ring is dropped itself (and counted).
    mutating func append(_ header: Header, payload: UnsafeRawBufferPointer) {
        let size = Self.overhead + payload.count
        guard size <= capacity else {
            dropped += 1
            return
        }
        while bytes + size > capacity { dropOldest() }
        if storage == nil { storage = .allocate(byteCount: capacity, alignment: 1) }
        var end = wrapped(head + bytes)
        end = store(UInt32(payload.count), at: end)   // fits: capacity < 2^32 (checkCapacity)
        end = store(header, at: end)
        _ = copy(payload, to: end)
        bytes += size
        count += 1
    }

    /// Makes `newCapacity` the bound: the oldest records that no longer fit leave (counted
    /// as dropped) and the rest move to a buffer of that size, allocated only if some are
    /// left. A ring that keeps its size keeps its buffer (the recorder asks with every
    /// record: this much is inlined).
    mutating func resize(to newCapacity: Int) {
        if newCapacity != capacity { move(to: newCapacity) }
    }

    /// Calls `body` with each record held, oldest first. A payload that wraps around the
    /// buffer's end is handed over as a copy (at most one record's does).
    func forEach(_ body: (Header, UnsafeRawBufferPointer) -> Void) {
        guard let storage else { return }
        var at = head
        for _ in 0..<count {
            let length = Int(load(UInt32.self, at: at))
            let header = load(Header.self, at: wrapped(at + MemoryLayout<UInt32>.size))
            let start = wrapped(at + Self.overhead)
            if start + length <= capacity {
                body(header, UnsafeRawBufferPointer(start: storage + start, count: length))
            } else {
                let payload = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
                    _ = copy(from: start, to: UnsafeMutableRawBufferPointer(buffer))
                    initialized = length
                }
                payload.withUnsafeBytes { body(header, $0) }
            }
            at = wrapped(start + length)
        }
        assert(at == wrapped(head + bytes), "the records held do not add up to the bytes held")
    }

    // MARK: The buffer

    // The helpers that every record runs (several times) are inlined: called, their
    // prologues cost as much as their work.

    /// `resize` to another capacity: drops what no longer fits, moves the rest.
    private mutating func move(to newCapacity: Int) {
        Self.checkCapacity(newCapacity)
        while bytes > newCapacity { dropOldest() }
        var moved: UnsafeMutableRawPointer?
        if bytes > 0 {
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 1)
            _ = copy(from: head, to: UnsafeMutableRawBufferPointer(start: buffer, count: bytes))
            moved = buffer
        }
        storage?.deallocate()
        storage = moved
        head = 0
        capacity = newCapacity
    }

    /// A record's length is stored in 32 bits, and none is longer than the ring.
    private static func checkCapacity(_ capacity: Int) {
        precondition(capacity >= 0 && capacity <= Int(UInt32.max), "a ring's capacity is 0 to 2^32 - 1 bytes")
    }

    /// Drops the oldest record.
    private mutating func dropOldest() {
        precondition(count > 0, "no record left to drop")
        let size = Self.overhead + Int(load(UInt32.self, at: head))
        precondition(size <= bytes, "the oldest record's length runs past the bytes held")
        head = wrapped(head + size)
        bytes -= size
        count -= 1
        dropped += 1
    }

    /// An offset past the buffer's end, brought back into it (offsets stay below twice the
    /// capacity: no record is longer than the buffer).
    @inline(__always)
    private func wrapped(_ offset: Int) -> Int {
        assert(offset >= 0 && offset < 2 * capacity, "an offset more than once around the ring")
        return offset >= capacity ? offset - capacity : offset
    }

    /// Stores `value`'s bytes at `offset` (unaligned: records are packed); returns the
    /// offset after them.
    @inline(__always)
    private func store<T: BitwiseCopyable>(_ value: T, at offset: Int) -> Int {
        guard let storage, offset + MemoryLayout<T>.size <= capacity else {
            return withUnsafeBytes(of: value) { copy($0, to: offset) }   // around the end
        }
        (storage + offset).storeBytes(of: value, as: T.self)
        return wrapped(offset + MemoryLayout<T>.size)
    }

    /// The value whose bytes are at `offset` (unaligned; if they wrap around the end, copied
    /// out whole first).
    @inline(__always)
    private func load<T: BitwiseCopyable>(_ type: T.Type, at offset: Int) -> T {
        guard let storage, offset + MemoryLayout<T>.size <= capacity else {
            return withUnsafeTemporaryAllocation(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
            { buffer in
                _ = copy(from: offset, to: buffer)
                return buffer.load(as: T.self)
            }
        }
        return storage.loadUnaligned(fromByteOffset: offset, as: T.self)
    }

    /// Copies `source` into the buffer at `offset`, wrapping at its end; returns the offset
    /// after it.
    @inline(__always)
    private func copy(_ source: UnsafeRawBufferPointer, to offset: Int) -> Int {
        guard let storage, let base = source.baseAddress else { return offset }
        precondition(offset < capacity && source.count <= capacity, "a copy larger than the ring")
        let first = min(source.count, capacity - offset)
        (storage + offset).copyMemory(from: base, byteCount: first)
        if first < source.count { storage.copyMemory(from: base + first, byteCount: source.count - first) }
        return wrapped(offset + source.count)
    }

    /// Fills `destination` from the buffer at `offset`, wrapping at its end; returns the
    /// offset after what it read.
    private func copy(from offset: Int, to destination: UnsafeMutableRawBufferPointer) -> Int {
        guard let storage, let base = destination.baseAddress else { return offset }
        precondition(offset < capacity && destination.count <= capacity, "a copy larger than the ring")
        let first = min(destination.count, capacity - offset)
        base.copyMemory(from: storage + offset, byteCount: first)
        if first < destination.count { (base + first).copyMemory(from: storage, byteCount: destination.count - first) }
        return wrapped(offset + destination.count)
    }
}
