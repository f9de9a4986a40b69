import Logging
import Synchronization

/// Standard-error logging for the fixture server that goes quiet once shutdown begins.
///
/// Why: the server stops by task cancellation (so stalled test bodies end at once), and
/// Hummingbird then logs each cancelled connection at `error` level; those lines are expected
/// and would only bury real problems in test output.
struct ServerLogHandler: LogHandler {
    /// Set when the owner starts stopping the server.
    final class ShutdownFlag: Sendable {
        private let stopping = Mutex(false)
        var isSet: Bool { stopping.withLock { $0 } }
        func set() { stopping.withLock { $0 = true } }
    }

    private var base: StreamLogHandler
    private let shutdown: ShutdownFlag

    init(label: String, shutdown: ShutdownFlag) {
        self.base = StreamLogHandler.standardError(label: label)
        self.shutdown = shutdown
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        guard !shutdown.isSet else { return }
        base.log(event: event)
    }
}
