import Foundation
import Synchronization

/// Loaded fixture data shared by every server in the process, keyed by what was read and
/// when it last changed.
///
/// Why: tests start dozens of servers, each over the same unchanged files; parsing the
/// 1.3 MB peer dataset and hashing 4 MB of images again for each one made a parallel test
/// run CPU-bound. A changed file (new modification date or size) is loaded afresh.
enum LoadCache {
    private static let entries = Mutex<[String: any Sendable]>([:])

    /// The cached value for `key`, or the result of `load` (then cached).
    ///
    /// Loads run one at a time under the lock, so servers starting together wait for one load
    /// instead of each repeating it.
    static func value<Value: Sendable>(for key: String, load: () throws -> Value) throws -> Value {
        let fullKey = "\(Value.self)|\(key)"
        return try entries.withLock { entries in
            if let cached = entries[fullKey] as? Value { return cached }
            let value = try load()
            entries[fullKey] = value
            return value
        }
    }

    /// `path|modification date|size` of a file or folder, or just the path when it cannot be
    /// read (the load then reports the real problem).
    static func identity(of url: URL) -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
        return "\(url.standardizedFileURL.path)|\(modified)|\(size)"
    }
}
