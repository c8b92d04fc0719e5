// Handing entries to another owner: after a daemon restart, a client that reconnects
// and proves it made them (a resume token) takes its entries back.

extension ModalStack {
    /// Gives every entry of `old` (on screen and queued) to `new`; returns their ids,
    /// bottom to top, then in queue order. Nothing moves: only the owner changes.
    public mutating func transferOwnership(from old: OwnerID, to new: OwnerID) -> [String] {
        var moved: [String] = []
        for i in entries.indices where entries[i].owner == old {
            entries[i].owner = new
            moved.append(entries[i].id)
        }
        for i in queue.indices where queue[i].owner == old {
            queue[i].owner = new
            moved.append(queue[i].id)
        }
        if !moved.isEmpty {
            events.append(.stackChanged)
            stateChanged()   // an owner is not drawn
        }
        return moved
    }
}
