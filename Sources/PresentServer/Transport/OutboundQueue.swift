import CLibUV

/// The bytes a connection still has to write, in order, and which of them are in flight.
///
/// Two classes of traffic: *lossless* items (replies, events) are all written, and counted
/// in `losslessBytes` for the overflow bound; *frame* items are coalesced: a frame not yet
/// handed to the kernel is dropped when a newer frame arrives. The newer frame goes to the
/// tail rather than into the old one's slot, so what a client receives is always a
/// subsequence of what was sent (only frames missing) and a frame never overtakes an event
/// sent before it. At most one frame is ever waiting, so frames cannot pile up.
///
/// The queue holds one `SharedBuffer` reference per item and releases it when the item is
/// written or the queue is emptied.
struct OutboundQueue {
    enum Kind {
        case lossless
        case frame
    }

    private struct Item {
        /// nil once a newer frame replaced this one (skipped, already released).
        var buffer: SharedBuffer?
        /// Bytes of `buffer` already taken by the kernel (by `send(2)`).
        let offset: Int
        let kind: Kind
        var remaining: Int { (buffer?.count ?? offset) - offset }
    }

    private var items: [Item] = []
    private var head = 0
    /// `items[head..<writeEnd]` are in the current `uv_write`.
    private var writeEnd = 0
    /// Frames dropped for a newer one since the queue was made (`stats`).
    private(set) var framesCoalesced = 0
    /// The frame that may still be replaced: queued whole, not yet in a write.
    private var replaceableFrame: Int?
    /// Lossless bytes queued or in flight.
    private(set) var losslessBytes = 0

    var isEmpty: Bool { head == items.count }
    var isWriting: Bool { writeEnd > head }
    /// Live items waiting or in flight (tests, diagnostics).
    var count: Int { items[head...].lazy.filter { $0.buffer != nil }.count }

    /// Queues `buffer` from `offset` on, taking over one reference. A whole frame replaces
    /// the frame still waiting, if any.
    mutating func append(_ buffer: SharedBuffer, offset: Int = 0, kind: Kind) {
        precondition(offset <= buffer.count)
        switch kind {
        case .lossless:
            losslessBytes += buffer.count - offset
        case .frame:
            if let index = replaceableFrame {
                items[index].buffer?.release()
                items[index].buffer = nil
                framesCoalesced += 1
            }
            // A partly written frame is already on the wire: it must finish, unreplaced.
            replaceableFrame = offset == 0 ? items.count : nil
        }
        items.append(Item(buffer: buffer, offset: offset, kind: kind))
    }

    /// Fills `buffers` with up to `capacity` items from the head and marks them in flight.
    /// Returns how many buffers were filled (0 when nothing is waiting).
    mutating func beginWrite(into buffers: UnsafeMutablePointer<uv_buf_t>,
                             capacity: Int) -> Int {
        precondition(!isWriting, "one uv_write at a time")
        var filled = 0
        var index = head
        while index < items.count && filled < capacity {
            if let buffer = items[index].buffer {
                let offset = items[index].offset
                let base = UnsafeMutableRawPointer(mutating: buffer.bytes.baseAddress)
                buffers[filled] = uv_buf_t(
                    base: base.map { ($0 + offset).assumingMemoryBound(to: CChar.self) },
                    len: buffer.count - offset)
                filled += 1
                if index == replaceableFrame { replaceableFrame = nil }
            }
            index += 1
        }
        if filled > 0 {
            writeEnd = index
        } else {
            // Only replaced frames were left: nothing to write, drop them.
            head = index
            compact()
        }
        return filled
    }

    /// The current write completed: releases its items.
    mutating func completeWrite() {
        for index in head..<writeEnd { releaseItem(at: index) }
        head = writeEnd
        compact()
    }

    /// The current write failed; its items stay until `removeAll()`.
    mutating func abandonWrite() {
        writeEnd = head
    }

    /// Releases every item (connection closed).
    mutating func removeAll() {
        for index in head..<items.count { releaseItem(at: index) }
        items.removeAll()
        head = 0
        writeEnd = 0
        replaceableFrame = nil
    }

    private mutating func releaseItem(at index: Int) {
        guard let buffer = items[index].buffer else { return }
        if items[index].kind == .lossless { losslessBytes -= items[index].remaining }
        buffer.release()
        items[index].buffer = nil
    }

    /// Drops written items from the front of the array once they dominate it.
    private mutating func compact() {
        if head == items.count {
            // No storage kept: an idle connection holds no memory for its queue, and
            // `isEmpty`, which every frame's send asks, then reads no cache line of its own.
            // The price: a subscriber that keeps falling a little behind allocates anew
            // each time it queues, which its send(2) costs many times over anyway.
            items.removeAll()
            head = 0
            writeEnd = 0
            replaceableFrame = nil
        } else if head >= 64 && head * 2 >= items.count {
            items.removeFirst(head)
            writeEnd -= head
            replaceableFrame = replaceableFrame.map { $0 - head }
            head = 0
        }
    }
}
