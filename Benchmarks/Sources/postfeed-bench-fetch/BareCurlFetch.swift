import CBareCurl
import Foundation

/// The C baseline: `bare_curl_fetch` runs the whole multi loop on this thread.
enum BareCurlFetch {
    static func run(urls: [String], concurrency: Int, freshBuffers: Bool) throws -> Tally {
        let strings = urls.map { UnsafePointer(strdup($0)) }
        defer { strings.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        var result = bare_curl_result()
        let status = strings.withUnsafeBufferPointer { buffer in
            bare_curl_fetch(buffer.baseAddress, Int32(urls.count), Int32(concurrency), freshBuffers ? 1 : 0, &result)
        }
        guard status == 0 else { throw SpawnError("bare_curl_fetch could not set up libcurl") }
        return Tally(bytes: Int(result.bytes), succeeded: Int(result.succeeded), failed: Int(result.failed))
    }
}
