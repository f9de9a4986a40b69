import Hummingbird
import Logging
import NIOCore

/// Assembles the Hummingbird application for one configuration.
enum FixtureApplication {
    static func makeResponder(state: FixtureServerState) -> some HTTPResponder<FixtureRequestContext> {
        let router = Router(context: FixtureRequestContext.self, options: [.autoGenerateHeadEndpoints])
        // Middleware applies to the routes added after it, and to unknown routes.
        router.add(middleware: ErrorBodyMiddleware())
        router.add(middleware: FaultMiddleware(planner: state.faults))
        ImageRoutes(state: state).register(on: router)
        FeedRoutes(state: state).register(on: router)
        switch state.configuration.flavor {
        case .postFeed:
            PostFeedRoutes(state: state).register(on: router)
        case .jsonServer017:
            JSONServer017Routes(state: state, items: state.peerData?.items ?? []).register(on: router)
        case .jsonServerV1:
            JSONServerV1Routes(items: state.peerData?.items ?? []).register(on: router)
        case .dummyJSON:
            DummyJSONRoutes(items: state.peerData?.items ?? []).register(on: router)
        case .wordpress, .mastodon, .hackernews, .reddit, .ghost, .lemmy, .discourse, .forem:
            if let recordings = state.recordings {
                router.add(middleware: RecordedAPIMiddleware(recordings: recordings, state: state))
            }
        }
        if state.configuration.enablesTestRoutes {
            TestRoutes(state: state).register(on: router)
        }
        return CountingResponder(inner: router.buildResponder(), log: state.requestLog)
    }
}

/// Records every request (including unknown routes and faulted ones) before routing it.
struct CountingResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == FixtureRequestContext {
    let inner: Inner
    let log: RequestLog

    func respond(to request: Request, context: FixtureRequestContext) async throws -> Response {
        log.record(
            RecordedRequest(
                method: request.method.rawValue, path: request.uri.path, query: request.uri.query,
                headers: TestRoutes.lowercasedHeaders(request)))
        return try await inner.respond(to: request, context: context)
    }
}
