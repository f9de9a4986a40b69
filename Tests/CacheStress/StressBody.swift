import Foundation

/// Self-describing bodies: a header naming key, writer and sequence number, then bytes
/// derived from them. A reader can tell a body that is whole and belongs to its key from
/// anything else, independently of the cache's own checksums.
enum StressBody {
    static func make(key: String, writer: Int, sequence: Int, length: Int) -> Data {
        var data = Data("PFSTRESS key=\(key) writer=\(writer) seq=\(sequence) len=\(length)\n".utf8)
        data.append(payload(writer: writer, sequence: sequence, length: length))
        return data
    }

    /// Checks a body read back for `key`; returns the problem, or `nil` when it is whole.
    static func problem(in data: Data, key: String) -> String? {
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else { return "no header" }
        let header = String(decoding: data[data.startIndex..<newline], as: UTF8.self)
        var fields: [String: String] = [:]
        for part in header.split(separator: " ").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        guard fields["key"] == key else { return "header names key \(fields["key"] ?? "?"), read for \(key)" }
        guard let writer = fields["writer"].flatMap(Int.init), let sequence = fields["seq"].flatMap(Int.init),
              let length = fields["len"].flatMap(Int.init) else { return "unparsable header \(header)" }
        let body = data[(newline + 1)...]
        guard body.count == length else { return "payload is \(body.count) bytes, header says \(length)" }
        guard Data(body) == payload(writer: writer, sequence: sequence, length: length) else {
            return "payload bytes differ for writer \(writer) seq \(sequence)"
        }
        return nil
    }

    /// A 4 KiB block derived from writer and sequence, repeated: cheap to make and to
    /// check even in debug builds, and different for every (writer, sequence).
    private static func payload(writer: Int, sequence: Int, length: Int) -> Data {
        let seed = UInt8(truncatingIfNeeded: writer &* 131 &+ sequence &* 7)
        var block = Data(count: 4096)
        block.withUnsafeMutableBytes { buffer in
            for index in 0..<buffer.count {
                buffer[index] = UInt8(truncatingIfNeeded: index &* 31) &+ seed
            }
        }
        var data = Data(capacity: length)
        while data.count + block.count <= length { data.append(block) }
        data.append(block.prefix(length - data.count))
        return data
    }
}
