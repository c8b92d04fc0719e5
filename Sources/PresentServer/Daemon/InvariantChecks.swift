// `--check-invariants`: after every change the daemon publishes, the stack's invariants
// (ModalStack.invariantViolations) are checked and any broken rule is logged as an error.
// For tests, soak runs and debugging; off by default (it costs a scene per check).

extension Daemon {
    /// Logs every broken stack rule, once per distinct set of problems.
    func checkInvariantsIfEnabled() {
        guard configuration.checkInvariants else { return }
        let problems = stack.invariantViolations()
        defer { reportedInvariantProblems = problems }
        guard !problems.isEmpty, problems != reportedInvariantProblems else { return }
        log.error("stack invariant broken at t=\(stack.time): \(problems.joined(separator: "; "))")
    }
}
