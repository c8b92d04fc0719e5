// The daemon's outputs as one collection: `main` first, always there, then the others in
// the order they were added. Names are unique, and so are entry ids and context names
// across screens (Daemon+Outputs refuses a second holder, and generated ids come from
// one generator here, not from each screen's stack), so each lookup below has at most
// one answer. Only `add` and `remove` change the list: whoever routes a request
// reads it, and nobody else can reorder it or lose `main`. A class, so a loop over it
// walks the live list, not a copy: nothing adds or removes a screen while one runs
// (addOutput and removeOutput are requests of their own).

import PresentCore

/// The screens of one daemon (loop thread only).
final class Screens: RandomAccessCollection {
    private var list: [Screen]
    /// Names every entry presented without an id, on any screen.
    private var generatedIDs = EntryIDGenerator()

    /// A daemon's screens at the start: `main` alone.
    init(main: Screen) {
        precondition(main.isMain, "the first screen is main")
        list = [main]
    }

    /// The screen every daemon has: requests that name no output go to it.
    var main: Screen { list[0] }

    var startIndex: Int { list.startIndex }
    var endIndex: Int { list.endIndex }
    subscript(position: Int) -> Screen { list[position] }

    /// The screen called `name`.
    func named(_ name: String) -> Screen? {
        list.first { $0.name == name }
    }

    /// The screen that holds entry `id`, on screen or queued.
    func holding(entry id: String) -> Screen? {
        list.first { $0.stack.entry(id: id) != nil }
    }

    /// A name for an entry presented without one: no screen holds it, and none was given
    /// before in this daemon's life. `spend: false` only says which it would be (a dry run).
    func newEntryID(spend: Bool = true) -> String {
        var ids = generatedIDs
        let id = ids.next { holding(entry: $0) != nil }
        if spend { generatedIDs = ids }
        return id
    }

    /// The screen that defined context `name`.
    func holding(context name: String) -> Screen? {
        list.first { $0.stack.contexts[name] != nil }
    }

    /// Adds a screen after the others.
    func add(_ screen: Screen) {
        precondition(named(screen.name) == nil, "output \(screen.name) exists already")
        list.append(screen)
    }

    /// Removes a screen other than main, and releases its clock's and its deadlines' timers.
    func remove(_ screen: Screen) {
        precondition(!screen.isMain, "main cannot be removed")
        guard let index = list.firstIndex(where: { $0 === screen }) else {
            preconditionFailure("output \(screen.name) is not one of these screens")
        }
        list.remove(at: index)
        screen.close()
    }
}
