import Foundation
import PostFeedCache

/// Checks bodies written by `cache-stress` (`PFSTRESS key=… writer=… seq=… len=…\n` then
/// `len` payload bytes): whole, for the right key, and matching the metadata written with
/// them. The cache's checksums guarantee the payload bytes once these hold.
enum StressBodyCheck {
    static func problem(in entry: DiskCacheEntry, key: String) -> String? {
        guard let newline = entry.data.firstIndex(of: UInt8(ascii: "\n")) else { return "no header" }
        let header = String(decoding: entry.data[..<newline], as: UTF8.self)
        var fields: [String: String] = [:]
        for part in header.split(separator: " ").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        guard fields["key"] == key else { return "body of \(fields["key"] ?? "?") under \(key)" }
        guard let length = fields["len"].flatMap(Int.init), entry.data.count - newline - 1 == length else {
            return "body length differs from its header \(header)"
        }
        if let seq = entry.metadata.attributes["seq"], fields["seq"] != seq {
            return "metadata seq \(seq) with body seq \(fields["seq"] ?? "?")"
        }
        return nil
    }
}
