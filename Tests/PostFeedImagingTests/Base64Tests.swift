import Foundation
import Testing

@testable import PostFeedImaging

/// The byte-level base64 ``KittyFraming`` re-frames chafa's payload with, against
/// Foundation's on the same bytes.
@Suite struct Base64Tests {
    /// `text` decoded by ``Base64/decode(_:into:at:)`` after two bytes already in the
    /// buffer, or nil when it refuses it.
    private func decoded(_ text: [UInt8]) -> [UInt8]? {
        var refused = false
        let bytes = [UInt8](unsafeUninitializedCapacity: 2 + text.count / 4 * 3) { buffer, count in
            buffer[0] = 7
            buffer[1] = 9
            let end = text.withUnsafeBufferPointer { Base64.decode($0[...], into: buffer, at: 2) }
            refused = end == nil
            count = end ?? 2
        }
        guard !refused else { return nil }
        #expect(bytes.prefix(2) == [7, 9], "the bytes before the offset were overwritten")
        return Array(bytes.dropFirst(2))
    }

    @Test func encodingMatchesFoundationAndDecodesBack() {
        var generator = SystemRandomNumberGenerator()
        for length in Array(0...40) + [511, 512, 513, 3072, 3073, 100_000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let capacity = 1 + (length + 2) / 3 * 4
            let encoded = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                buffer[0] = UInt8(ascii: "#")
                count = bytes.withUnsafeBufferPointer { Base64.encode($0, into: buffer, at: 1) }
            }
            #expect(encoded.count == capacity, "length \(length)")
            #expect(Array(encoded.dropFirst()) == Array(Data(bytes).base64EncodedData()), "length \(length)")
            #expect(decoded(Array(encoded.dropFirst())) == bytes, "length \(length)")
        }
    }

    @Test(arguments: ["A", "AB", "ABC", "AB=A", "A===", "====", "AB*D", "ABC=D===", "AB==AB==", "AB\nC"])
    func textsThatAreNotOnePaddedBase64AreRefused(_ text: String) {
        // (Foundation on Linux takes "AB=A" and "====": refusing more only means chafa's
        // output is kept as it is.)
        let result = decoded(Array(text.utf8))
        #expect(result == nil, "\(text) decoded to \(String(describing: result))")
    }

    /// chafa's encoder leaves bits set in the last character before `=` ("…/8P="): they are
    /// ignored, as Foundation ignores them (RFC 4648 §3.5 allows either).
    @Test(arguments: ["QR==", "QUJ=", "/8P=", "AP8P"])
    func leftoverBitsBeforePaddingAreIgnoredAsFoundationDoes(_ text: String) throws {
        let foundation = try #require(Data(base64Encoded: text))
        #expect(decoded(Array(text.utf8)) == Array(foundation), "\(text)")
    }
}
