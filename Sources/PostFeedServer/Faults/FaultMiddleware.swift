import Hummingbird

/// Applies the configured ``FaultInjection`` to every route except `/test/…`.
struct FaultMiddleware: RouterMiddleware {
    typealias Context = FixtureRequestContext

    let planner: FaultPlanner

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard planner.plan.isEnabled, !path.hasPrefix("/test/") else {
            return try await next(request, context)
        }
        let response = try await faulted(request, context: context, path: path, next: next)
        guard let rate = planner.plan.bandwidthLimits[path] else { return response }
        return BandwidthLimit.throttle(response, bytesPerSecond: rate)
    }

    private func faulted(
        _ request: Request, context: Context, path: String, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let decision = planner.decide(path: path)
        if decision.delay > .zero {
            try await Task.sleep(for: decision.delay)
        }
        switch decision.fault {
        case nil:
            return try await next(request, context)
        case .status(let code, let retryAfter):
            var error = APIError(
                status: HTTPResponse.Status(code: code),
                message: "injected fault: status \(code) for \(request.method) \(path)")
            if let retryAfter { error.headers[.retryAfter] = String(retryAfter) }
            return error.makeResponse()
        case .connectionReset:
            try await ConnectionFaults.reset(context.channel)
        case .truncatedBody:
            return ConnectionFaults.truncate(try await responseOrError(request, context, next))
        case .stalledBody:
            return ConnectionFaults.stall(
                try await responseOrError(request, context, next), for: planner.plan.stallDuration)
        }
    }

    /// The route's response, with thrown `HTTPResponseError`s turned into their responses so
    /// that error bodies can be cut short too.
    private func responseOrError(
        _ request: Request, _ context: Context, _ next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context)
        }
    }
}
