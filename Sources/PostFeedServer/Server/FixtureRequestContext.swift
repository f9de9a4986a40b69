import Hummingbird
import NIOCore

/// The request context of the fixture server: Hummingbird's core storage plus the connection's
/// channel, which the connection-level faults (reset, truncation, stall) need.
struct FixtureRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The TCP connection the request arrived on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}
