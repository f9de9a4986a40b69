import Foundation
import PostFeedCache

/// One of two processes hammering the same keys: stores, adopted files, metadata updates
/// and reads, each read checked byte for byte. Prints a JSON summary.
struct Hammer {
    var directory: URL
    var writer: Int
    var keyCount: Int
    var iterations: Int

    func run() -> Never {
        let cache: DiskCache
        do {
            // Large limit: the test checks that no key is lost, so nothing may be trimmed.
            cache = try DiskCache(directory: directory,
                                  configuration: .init(sizeLimit: 1 << 30, accessTimeResolution: .zero,
                                                       warningHandler: { _ in }))
        } catch {
            StressOutput.fail("\(error)", status: 1)
        }
        var reads = 0, hits = 0, writes = 0, updates = 0
        var problems: [String] = []
        for iteration in 0..<iterations {
            let key = "key-\(Int.random(in: 0..<keyCount))"
            let sequence = iteration
            do {
                switch Int.random(in: 0..<10) {
                case 0..<3:
                    let body = StressBody.make(key: key, writer: writer, sequence: sequence,
                                               length: Int.random(in: 1...(64 << 10)))
                    try cache.store(body, metadata: metadata(key, sequence), forKey: key)
                    writes += 1
                case 3..<5:
                    let body = StressBody.make(key: key, writer: writer, sequence: sequence,
                                               length: Int.random(in: 1...(64 << 10)))
                    let file = cache.temporaryDirectory.appendingPathComponent("hammer-\(writer)-\(iteration)")
                    try body.write(to: file)
                    try cache.storeFile(at: file, metadata: metadata(key, sequence), forKey: key)
                    writes += 1
                case 5:
                    do {
                        try cache.updateMetadata(forKey: key) { $0.attributes["touchedBy"] = String(writer) }
                        updates += 1
                    } catch let error as DiskCacheError where error.code == .entryNotFound {
                        // not written yet by anyone: fine
                    }
                default:
                    reads += 1
                    guard let entry = cache.entry(forKey: key) else { continue }
                    hits += 1
                    if let problem = StressBody.problem(in: entry.data, key: key) {
                        problems.append("\(key): \(problem)")
                    } else if entry.metadata.key != key || !header(entry.data, matches: entry.metadata) {
                        problems.append("\(key): metadata \(entry.metadata.attributes) does not belong to its body")
                    }
                }
            } catch {
                problems.append("\(key): \(error)")
            }
        }
        let statistics = cache.statistics()
        StressOutput.json([
            "writer": writer, "reads": reads, "hits": hits, "writes": writes, "updates": updates,
            "corruptEntriesRemoved": statistics.corruptEntriesRemoved,
            "problems": Array(problems.prefix(20)), "problemCount": problems.count,
        ])
        exit(0)
    }

    private func metadata(_ key: String, _ sequence: Int) -> CacheEntryMetadata {
        CacheEntryMetadata(key: key, storedAt: Date(),
                           attributes: ["writer": String(writer), "seq": String(sequence)])
    }

    /// The metadata travels with its body: both name the same writer and sequence.
    private func header(_ data: Data, matches metadata: CacheEntryMetadata) -> Bool {
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else { return false }
        let header = String(decoding: data[data.startIndex..<newline], as: UTF8.self)
        guard let writer = metadata.attributes["writer"], let sequence = metadata.attributes["seq"] else { return false }
        return header.contains(" writer=\(writer) seq=\(sequence) ")
    }
}
