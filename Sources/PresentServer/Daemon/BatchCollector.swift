// A JSON-RPC batch answers once, with every reply, though some of its requests answer
// later than the batch was read (a gesture waiting for an owner's shouldDismiss).

import PresentProtocol

/// Collects a batch's replies, some of which may arrive later, and hands them over once.
final class BatchCollector {
    private var replies: [RPCReply] = []
    private var outstanding = 0
    private var sealed = false
    private let done: ([RPCReply]) -> Void

    init(done: @escaping ([RPCReply]) -> Void) { self.done = done }

    func expect() { outstanding += 1 }
    func add(_ reply: RPCReply) {
        replies.append(reply)
        outstanding -= 1
        finishIfComplete()
    }
    /// Every request of the batch has been started.
    func seal() {
        sealed = true
        finishIfComplete()
    }
    private func finishIfComplete() {
        guard sealed, outstanding == 0 else { return }
        sealed = false
        done(replies)
    }
}

