// `--check-invariants`: after every change the daemon publishes, the stack's invariants
// (ModalStack.invariantViolations) are checked and any broken rule is logged as an error.
// For tests, soak runs and debugging; off by default (it costs a scene per check).

extension Daemon {
    /// Logs every broken stack rule of `screen`, once per distinct set of problems.
    func checkInvariantsIfEnabled(on screen: Screen) {
        guard configuration.checkInvariants else { return }
        let problems = screen.stack.invariantViolations()
        guard screen.noteInvariantProblems(problems), !problems.isEmpty else { return }
        log.error(
            "stack invariant broken on output \(screen.name) at t=\(screen.stack.time): "
            + "\(problems.joined(separator: "; "))"
        )
    }
}
