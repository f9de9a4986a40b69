import Foundation
import PostFeedCache
import Synchronization

/// Wall-clock time for a `DiskCache` that moves only when told to.
final class ManualDate: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_750_000_000)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// A configuration reading this clock, with every other setting as given.
    func configuration(
        sizeLimit: Int = 64 << 20,
        lowWaterRatio: Double = 0.8,
        accessTimeResolution: Duration = .zero,
        warningHandler: @escaping @Sendable (DiskCacheError) -> Void = { _ in }
    ) -> DiskCache.Configuration {
        DiskCache.Configuration(
            sizeLimit: sizeLimit,
            lowWaterRatio: lowWaterRatio,
            accessTimeResolution: accessTimeResolution,
            now: { [self] in now },
            warningHandler: warningHandler
        )
    }
}
