import Foundation
import Testing

@testable import PostFeedImaging

/// The byte-level base64 ``KittyGraphics`` writes its payload with, against Foundation's
/// on the same bytes.
@Suite struct Base64Tests {
    @Test func encodingMatchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in Array(0...40) + [511, 512, 513, 3072, 3073, 100_000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let capacity = 1 + (length + 2) / 3 * 4
            let encoded = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                buffer[0] = UInt8(ascii: "#")
                count = bytes.withUnsafeBufferPointer { Base64.encode($0, into: buffer, at: 1) }
            }
            #expect(encoded.count == capacity, "length \(length)")
            #expect(encoded.first == UInt8(ascii: "#"), "the byte before the offset was overwritten")
            #expect(Array(encoded.dropFirst()) == Array(Data(bytes).base64EncodedData()), "length \(length)")
        }
    }

    /// RGBA pixels encoded as RGB (alpha skipped): Foundation's base64 of the RGB bytes.
    @Test(arguments: [0, 1, 2, 3, 1024, 4097])
    func rgbEncodingSkipsAlpha(_ pixelCount: Int) {
        var generator = SystemRandomNumberGenerator()
        let rgba = (0..<pixelCount * 4).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let rgb = rgba.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        let encoded = [UInt8](unsafeUninitializedCapacity: pixelCount * 4 + 1) { buffer, count in
            buffer[pixelCount * 4] = UInt8(ascii: "#")
            rgba.withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return }
                Base64.encodeRGB(of: base, pixels: pixelCount, into: UnsafeMutableBufferPointer(rebasing: buffer[0..<pixelCount * 4]))
            }
            count = pixelCount * 4 + 1
        }
        #expect(encoded.last == UInt8(ascii: "#"), "written past the pixels' characters")
        #expect(Array(encoded.dropLast()) == Array(Data(rgb).base64EncodedData()), "\(pixelCount) pixels")
    }
}
