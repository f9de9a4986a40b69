import Foundation

/// Prints `Encodable` values as stable, pretty JSON on stdout (`--json`).
enum JSONOutput {
    static func print<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        try StandardStream.output.write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
