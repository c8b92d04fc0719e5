// The rules the stack must keep after every operation; the randomized tests and the
// daemon's debug checks call this.

extension ModalStack {
    /// Every broken rule, in words; empty when the stack is sound.
    public func invariantViolations() -> [String] {
        var problems: [String] = []
        let ids = allEntries.map(\.id)
        if Set(ids).count != ids.count { problems.append("duplicate ids: \(ids)") }
        for e in entries where e.state == .queued { problems.append("\(e.id) is on screen but queued") }
        for e in queue where e.state != .queued { problems.append("\(e.id) is in the queue but \(e.state)") }
        for level in Level.allCases {
            let waiting = queue.filter { $0.level == level }
            if waiting.contains(where: { !isHeld($0) }) && !isTransitionRunning(in: level) {
                problems.append("\(level.rawValue) entries wait although no transition runs on that level")
            }
            for (a, b) in zip(waiting, waiting.dropFirst())
            where a.priority < b.priority || (a.priority == b.priority && a.sequence > b.sequence) {
                problems.append("queue out of order: \(a.id) before \(b.id)")
            }
        }
        for (a, b) in zip(entries, entries.dropFirst()) where a.level > b.level {
            problems.append("\(a.id) (\(a.level.rawValue)) is drawn below \(b.id) (\(b.level.rawValue))")
        }
        for e in allEntries where e.state != .dismissing {   // a leaving entry may outlive its context
            if let name = e.presentation.context, e.area != contexts[name] {
                problems.append(
                    "\(e.id) is laid out in \(String(describing: e.area)), not its context \(name)'s "
                    + "\(String(describing: contexts[name]))"
                )
            }
        }
        for e in entries where e.isInTransition && e.swipe == nil {
            guard let a = e.animation else { problems.append("\(e.id) is \(e.state) without an animation"); continue }
            if a.end < time { problems.append("\(e.id) finished at \(a.end) but is still \(e.state) at \(time)") }
        }
        for e in entries where e.state == .dismissing && e.dismissReason == nil {
            problems.append("\(e.id) leaves without a reason")
        }
        if statusBar != resolvedStatusBar {
            problems.append("status bar \(statusBar) is stale (should be \(resolvedStatusBar))")
        }
        for e in entries {
            let v = e.visual(at: time, in: container)
            if v.components.contains(where: { !$0.isFinite }) { problems.append("\(e.id) has a non-finite state \(v)") }
        }
        return problems
    }
}
