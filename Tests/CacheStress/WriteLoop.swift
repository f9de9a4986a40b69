import Foundation
import PostFeedCache

/// Writes large entries forever, alternating in-memory stores and streamed files, so
/// that a SIGKILL lands mid-write, mid-rename or mid-trim.
struct WriteLoop {
    var directory: URL
    var sizeLimit: Int

    func run() -> Never {
        let cache: DiskCache
        do {
            cache = try DiskCache(directory: directory,
                                  configuration: .init(sizeLimit: sizeLimit, warningHandler: { _ in }))
        } catch {
            StressOutput.fail("\(error)", status: 1)
        }
        var sequence = 0
        while true {
            sequence += 1
            let key = "https://example.test/images/\(sequence % 8).jpg"
            let length = Int.random(in: (512 << 10)...(4 << 20))
            let body = StressBody.make(key: key, writer: Int(getpid()), sequence: sequence, length: length)
            let metadata = CacheEntryMetadata(key: key, url: key, storedAt: Date(),
                                              attributes: ["seq": String(sequence)])
            do {
                if sequence.isMultiple(of: 2) {
                    try cache.store(body, metadata: metadata, forKey: key)
                } else {
                    let file = cache.temporaryDirectory.appendingPathComponent("download-\(getpid())-\(sequence)")
                    try streamToFile(body, file)
                    try cache.storeFile(at: file, metadata: metadata, forKey: key)
                }
            } catch {
                StressOutput.fail("\(error)", status: 1)
            }
            StressOutput.line("stored \(key)")
        }
    }

    /// Writes `body` in 64 KiB chunks, as a download would.
    private func streamToFile(_ body: Data, _ file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: file.path) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        defer { try? handle.close() }
        var offset = 0
        while offset < body.count {
            let end = min(offset + (64 << 10), body.count)
            try handle.write(contentsOf: body[offset..<end])
            offset = end
        }
    }
}
