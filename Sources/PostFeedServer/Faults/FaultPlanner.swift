import Synchronization

/// Decides, request by request, what ``FaultInjection`` does to a response.
///
/// Thread-safe; the generator and the `failFirst` counters live behind one `Mutex`, so
/// sequential requests see a reproducible sequence of decisions.
final class FaultPlanner: Sendable {
    /// What to do with one request.
    struct Decision: Equatable {
        /// Wait this long before answering.
        var delay: Duration = .zero
        /// The fault to inject, if any.
        var fault: FaultInjection.Fault?
    }

    private struct State {
        var generator: SplitMix64
        var served = 0
        var servedPerPath: [String: Int] = [:]
    }

    let plan: FaultInjection
    private let state: Mutex<State>

    init(plan: FaultInjection) {
        self.plan = plan
        self.state = Mutex(State(generator: SplitMix64(seed: plan.seed)))
    }

    /// The decision for the next request to `path` (query excluded).
    func decide(path: String) -> Decision {
        guard plan.isEnabled else { return Decision() }
        return state.withLock { state in
            var decision = Decision(delay: plan.latency)
            if plan.latencyJitter > .zero {
                decision.delay += plan.latencyJitter * state.generator.nextUnitDouble()
            }
            let seenBefore: Int
            switch plan.failFirstScope {
            case .server:
                seenBefore = state.served
            case .eachPath:
                seenBefore = state.servedPerPath[path, default: 0]
            }
            state.served += 1
            state.servedPerPath[path, default: 0] += 1
            if seenBefore < plan.failFirst {
                decision.fault = plan.failFirstFault
                return decision
            }
            if plan.totalShare > 0 {
                decision.fault = randomFault(draw: state.generator.nextUnitDouble())
            }
            return decision
        }
    }

    /// Maps a draw in `0..<1` onto the shares laid end to end.
    private func randomFault(draw: Double) -> FaultInjection.Fault? {
        let bands: [(Double, FaultInjection.Fault)] = [
            (plan.serverErrorShare, .status(500)),
            (plan.unavailableShare, .status(503, retryAfter: plan.retryAfterSeconds)),
            (plan.rateLimitShare, .status(429, retryAfter: plan.retryAfterSeconds)),
            (plan.truncationShare, .truncatedBody),
            (plan.resetShare, .connectionReset),
            (plan.stallShare, .stalledBody),
        ]
        var upper = 0.0
        for (share, fault) in bands where share > 0 {
            upper += share
            if draw < upper { return fault }
        }
        return nil
    }
}
