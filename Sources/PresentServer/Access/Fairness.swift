// Fairness between clients. libuv reads many chunks from one ready socket per wakeup —
// tens of thousands of pipelined pings — and every line read is handled before any other
// connection's turn, so one client sending as fast as it can would stall everyone else.
// A connection that has had `requestsPerTurn` requests handled in one turn of the loop
// stops reading until the next, so every other ready connection (and the frame clock) is
// served in between. Its unread bytes wait in the kernel: the sender is slowed down,
// nothing is dropped.
//
// The count starts again with each turn of the loop (`EventLoop.turn`), not after a
// yield: a client that sends one request at a time never reaches the bound, so it never
// pays for a yield (two `epoll_ctl` calls and one more poll).

extension Daemon {
    /// Requests (batch elements count one each) a connection may have handled per turn.
    static let requestsPerTurn = 64

    /// Counts `requests` against the client's turn; at the end of its turn it yields.
    func charge(_ client: Client, requests: Int = 1) {
        guard client.charge(requests, inTurn: loop.turn, share: Self.requestsPerTurn) else { return }
        client.connection.pauseReading()
        let id = client.id
        loop.post { [unowned self] in
            guard let client = self.clients[id] else { return }
            client.endYield()
            client.connection.resumeReading()
        }
    }
}
