// The `shouldDismiss` questions the daemon has put to owners and not had answered: each
// with the owner asked, the timer that gives up on it and what to do with the answer.
// The questions are the protocol's requests from the daemon, numbered
// "shouldDismiss-1", "shouldDismiss-2", … across the daemon's life.

/// The open `shouldDismiss` questions (loop thread only).
final class OwnerQuestions {
    private struct Question {
        let ownerID: UInt64
        let timer: Timer
        let resolve: (_ allow: Bool, _ how: String) -> Void
    }

    private var open: [String: Question] = [:]
    private var asked = 0

    /// Opens a question to connection `ownerID`. After `timeout` seconds without an answer,
    /// `timedOut` is told its id and it is settled as allowed ("timeout"). `resolve` runs
    /// once, whichever way it is settled. Returns the question's id, nil when no timer
    /// could be made (then nothing was opened).
    func ask(_ ownerID: UInt64, on loop: EventLoop, timeout: Double, timedOut: @escaping (String) -> Void,
             resolve: @escaping (_ allow: Bool, _ how: String) -> Void) -> String? {
        guard let timer = try? Timer(loop: loop) else { return nil }
        asked += 1
        let id = "shouldDismiss-\(asked)"
        open[id] = Question(ownerID: ownerID, timer: timer, resolve: resolve)
        timer.onFire = { [unowned self] in
            timedOut(id)
            self.settle(id, allow: true, how: "timeout")
        }
        timer.start(after: timeout)
        return id
    }

    /// The connection question `id` was put to; nil when it is not open.
    func owner(of id: String) -> UInt64? { open[id]?.ownerID }

    /// Settles question `id` (its timer stops, its `resolve` runs); nothing when it is not open.
    func settle(_ id: String, allow: Bool, how: String) {
        guard let question = open.removeValue(forKey: id) else { return }
        question.timer.close()
        question.resolve(allow, how)
    }

    /// Settles every question put to `ownerID` as allowed, with `how`.
    func settleAll(askedOf ownerID: UInt64, how: String) {
        for (id, question) in open where question.ownerID == ownerID { settle(id, allow: true, how: how) }
    }
}
