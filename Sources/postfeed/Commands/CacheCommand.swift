import ArgumentParser
import Foundation
import PostFeed
import PostFeedPreview
import PostFeedCache

struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect and maintain the image, page and thumbnail caches (never the list state).",
        discussion: """
            Examples:
              postfeed cache stats
              postfeed cache verify --json
              postfeed cache prune
              postfeed cache clear        keeps State/ ('postfeed state reset' clears that)
            """,
        subcommands: [Stats.self, Verify.self, Prune.self, Clear.self],
        defaultSubcommand: Stats.self)

    /// Options of every cache subcommand.
    struct Options: ParsableArguments {
        @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Cache root (see 'postfeed --help').", valueName: "dir"))
        var cacheDirectory: String?

        func validate() throws {
            try BackendOptions.validateCacheDirectory(cacheDirectory)
        }

        @Flag(help: "Print JSON instead of text.")
        var json = false

        var location: CacheLocation { CacheLocation.resolve(explicit: cacheDirectory) }

        /// The disk layers, by name, opened with the settings the client uses (the same
        /// size limits, so `stats` and `prune` judge the caches as a run does).
        func openCaches() throws -> [(name: String, cache: DiskCache)] {
            try openStorage().diskCaches
        }

        func openStorage() throws -> FeedStorage {
            do {
                return try FeedStorage(location: location, layers: ImagePreviews().diskLayers)
            } catch {
                throw CLIError(RecoveryAdvice.message(for: error))
            }
        }
    }

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats", abstract: "Entries, bytes, oldest and newest entry; hits, misses and writes of every run so far.")
        @OptionGroup var options: Options

        func run() throws {
            let caches = try options.openCaches()
            let report = CacheReport(
                root: options.location.root.path, rootSource: RecoveryAdvice.rootSource(options.location.source),
                caches: caches.map { CacheReport.Layer(name: $0.name, path: $0.cache.directory.path, statistics: $0.cache.statistics()) })
            if options.json { return try JSONOutput.print(report) }
            print("cache root: \(report.root) (from \(report.rootSource))")
            for layer in report.caches {
                let s = layer.statistics
                print("\(layer.name): \(counted(s.entryCount, "entry", "entries")), \(ByteFormat.string(s.totalBytes)) of \(ByteFormat.string(s.sizeLimit))\(s.isWritable ? "" : " (read-only)")")
                let refused = s.failedWrites > 0 ? " (\(s.failedWrites) refused by the disk)" : ""
                print("  hits \(s.hits), misses \(s.misses), writes \(s.writes)\(refused), corrupt removed \(s.corruptEntriesRemoved), temporary files \(s.temporaryFiles)")
                if let oldest = s.oldestStoredAt, let newest = s.newestStoredAt {
                    print("  oldest \(oldest.formatted(.iso8601)), newest \(newest.formatted(.iso8601))")
                }
            }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "verify", abstract: "Check every entry; report and remove bad ones.")
        @OptionGroup var options: Options

        func run() throws {
            let reports = try options.openCaches().map { (name: $0.name, report: $0.cache.verifyCounted()) }
            if options.json {
                try JSONOutput.print(Dictionary(uniqueKeysWithValues: reports.map { ($0.name, VerifyJSON($0.report)) }))
            } else {
                for (name, report) in reports {
                    print("\(name): \(report.checkedEntries) checked, \(report.validEntries) valid (\(ByteFormat.string(report.validBytes))), \(report.problems.count) bad")
                    for problem in report.problems { print("  \(problem)") }
                }
            }
            // Problems found means a failing status, with --json too: scripts read the status.
            if reports.contains(where: { !$0.report.isClean }) { throw ExitCode(1) }
        }
    }

    struct Prune: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune",
            abstract: "Apply the size limit and expiry now; remove thumbnails whose image is gone or changed.")
        @OptionGroup var options: Options

        func run() throws {
            let storage = try options.openStorage()
            // First the images (their expiry can orphan thumbnails), then the orphans.
            var reports: [(name: String, report: DiskCache.PruneReport, orphans: DiskCache.RemovalReport?)] = []
            for (name, cache) in storage.diskCaches where cache !== storage.thumbnailCache {
                reports.append((name, cache.pruneCounted(), nil))
            }
            if let thumbnailCache = storage.thumbnailCache, let orphans = storage.thumbnails?.removeOrphans() {
                var thumbnails = thumbnailCache.pruneCounted()
                thumbnails.bytesFreed += orphans.bytesFreed
                reports.append((ImagePreviews.folderName, thumbnails, orphans))
            }
            if options.json {
                return try JSONOutput.print(Dictionary(uniqueKeysWithValues: reports.map { ($0.name, PruneJSON($0.report, orphans: $0.orphans)) }))
            }
            for (name, r, orphans) in reports {
                let orphaned = orphans.map { "\($0.entriesRemoved) whose image is gone or changed, " } ?? ""
                print("\(name): removed \(orphaned)\(r.expiredEntriesRemoved) expired, \(r.entriesEvictedForSize) for size, \(r.corruptEntriesRemoved) corrupt, \(r.obstructionsRemoved) in the way, \(r.temporaryFilesRemoved) temporary; freed \(ByteFormat.string(r.bytesFreed)); \(counted(r.remainingEntries, "entry", "entries")) (\(ByteFormat.string(r.remainingBytes))) left")
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every image, page and thumbnail entry. State/ is never touched.")
        @OptionGroup var options: Options

        func run() throws {
            var cleared: [String: Int] = [:]
            for (name, cache) in try options.openCaches() {
                let before = cache.statistics().entryCount
                do { try cache.removeAll() } catch { throw CLIError("cannot clear \(cache.directory.path): \(RecoveryAdvice.message(for: error))") }
                cleared[name] = before
            }
            if options.json { return try JSONOutput.print(["removed": cleared]) }
            let (images, pages, thumbnails) = (cleared["ImageCache"] ?? 0, cleared["PageCache"] ?? 0, cleared["ThumbnailCache"] ?? 0)
            print("removed \(counted(images, "image")), \(counted(pages, "page")) and "
                + "\(counted(thumbnails, "thumbnail")); \(options.location.state.path) kept")
        }
    }

}

extension DiskCache {
    /// ``verify()``, its removals added to the lifetime counters `cache stats` reports.
    fileprivate func verifyCounted() -> VerificationReport {
        defer { try? persistCounters() }  // a counter that cannot be saved is no reason to fail
        return verify()
    }

    /// ``prune()``, its removals added to the lifetime counters `cache stats` reports.
    fileprivate func pruneCounted() -> PruneReport {
        defer { try? persistCounters() }
        return prune()
    }
}

// MARK: - Output shapes

struct CacheReport: Encodable {
    struct Layer: Encodable {
        var name: String
        var path: String
        var statistics: DiskCache.Statistics
    }
    var root: String
    var rootSource: String
    var caches: [Layer]
}

extension DiskCache.Statistics: Encodable {
    enum CodingKeys: String, CodingKey {
        case entryCount, totalBytes, sizeLimit, hits, misses, corruptEntriesRemoved, writes, failedWrites, skippedWrites
        case temporaryFiles
        case oldestStoredAt, newestStoredAt, isWritable
    }
    /// Dates in ISO-8601, the other statistics as they are.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(entryCount, forKey: .entryCount)
        try c.encode(totalBytes, forKey: .totalBytes)
        try c.encode(sizeLimit, forKey: .sizeLimit)
        try c.encode(hits, forKey: .hits)
        try c.encode(misses, forKey: .misses)
        try c.encode(corruptEntriesRemoved, forKey: .corruptEntriesRemoved)
        try c.encode(writes, forKey: .writes)
        try c.encode(failedWrites, forKey: .failedWrites)
        try c.encode(skippedWrites, forKey: .skippedWrites)
        try c.encode(temporaryFiles, forKey: .temporaryFiles)
        try c.encodeIfPresent(oldestStoredAt, forKey: .oldestStoredAt)
        try c.encodeIfPresent(newestStoredAt, forKey: .newestStoredAt)
        try c.encode(isWritable, forKey: .isWritable)
    }
}

struct VerifyJSON: Encodable {
    var checkedEntries: Int
    var validEntries: Int
    var validBytes: Int
    var problems: [[String: String]]
    init(_ report: DiskCache.VerificationReport) {
        checkedEntries = report.checkedEntries
        validEntries = report.validEntries
        validBytes = report.validBytes
        problems = report.problems.map { ["file": $0.file.path, "reason": $0.reason, "removed": "\($0.removed)"] }
    }
}

struct PruneJSON: Encodable {
    var expiredEntriesRemoved, entriesEvictedForSize, corruptEntriesRemoved, obstructionsRemoved, temporaryFilesRemoved: Int
    var bytesFreed, remainingEntries, remainingBytes: Int
    /// Thumbnails only: those whose image is no longer cached or has a new validator.
    var orphansRemoved: Int?
    init(_ r: DiskCache.PruneReport, orphans: DiskCache.RemovalReport? = nil) {
        orphansRemoved = orphans?.entriesRemoved
        expiredEntriesRemoved = r.expiredEntriesRemoved
        entriesEvictedForSize = r.entriesEvictedForSize
        corruptEntriesRemoved = r.corruptEntriesRemoved
        obstructionsRemoved = r.obstructionsRemoved
        temporaryFilesRemoved = r.temporaryFilesRemoved
        bytesFreed = r.bytesFreed
        remainingEntries = r.remainingEntries
        remainingBytes = r.remainingBytes
    }
}

/// `1.2 MB`-style sizes.
enum ByteFormat {
    static func string(_ bytes: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }
}
