import Foundation
import PostFeedCache
import Synchronization

/// A disk that fills up, for real: `RLIMIT_FSIZE` makes the kernel refuse to grow any
/// file of this process past 64 KiB with `EFBIG` — which works even as root, unlike
/// permission bits. Prints what the cache did as JSON.
struct FullDisk {
    var directory: URL

    func run() -> Never {
        signal(SIGXFSZ, SIG_IGN)  // get EFBIG instead of being killed
        var limit = rlimit(rlim_cur: 64 << 10, rlim_max: 64 << 10)
        guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else {
            StressOutput.fail("setrlimit: \(String(cString: strerror(errno)))", status: 1)
        }
        let warnings = Mutex<[String]>([])
        let cache: DiskCache
        do {
            cache = try DiskCache(directory: directory, configuration: .init(
                now: { Date(timeIntervalSince1970: 1_800_000_000) },  // frozen: no retry interval passes
                warningHandler: { error in warnings.withLock { $0.append(error.description) } }))
        } catch {
            StressOutput.fail("\(error)", status: 1)
        }
        let small = Data(repeating: 1, count: 16 << 10)
        let large = Data(repeating: 2, count: 1 << 20)
        let metadata = CacheEntryMetadata(key: "", storedAt: Date(timeIntervalSince1970: 1_800_000_000))
        var summary: [String: Any] = [:]
        summary["smallStored"] = (try? cache.store(small, metadata: metadata, forKey: "small")) != nil
        do {
            try cache.store(large, metadata: metadata, forKey: "large")
            summary["firstLargeError"] = "none"
        } catch let error as DiskCacheError {
            summary["firstLargeError"] = error.code.description
            summary["firstLargeMessage"] = error.description
        } catch {
            summary["firstLargeError"] = "\(error)"
        }
        do {
            try cache.store(large, metadata: metadata, forKey: "large-2")
            summary["secondLargeThrew"] = false
        } catch {
            summary["secondLargeThrew"] = true
        }
        let statistics = cache.statistics()
        summary["isWritable"] = cache.isWritable
        summary["smallReadable"] = cache.entry(forKey: "small")?.data == small
        summary["largeVisible"] = cache.entry(forKey: "large") != nil
        summary["skippedWrites"] = statistics.skippedWrites
        summary["temporaryFiles"] = statistics.temporaryFiles
        summary["warnings"] = warnings.withLock { $0 }
        StressOutput.json(summary)
        exit(0)
    }
}
