// The ids of entries presented without one: `p1`, `p2`, … A number is never given twice,
// and a name already in use (an explicit `id: "p3"`, an entry restored after a restart) is
// skipped. Whoever keeps one generator for a set of stacks keeps their generated ids apart:
// a lone ModalStack has its own; the daemon keeps one across all its screens.

/// Names entries that were presented without an id.
public struct EntryIDGenerator: Hashable, Sendable {
    /// The number the next name is tried with.
    private var number = 1

    public init() {}

    /// The next name for which `inUse` is false; every number tried is spent.
    public mutating func next(skipping inUse: (String) -> Bool) -> String {
        while true {
            let id = "p\(number)"
            number += 1
            if !inUse(id) { return id }
        }
    }
}
