import Foundation
import Testing
@testable import PostFeedImaging

/// The row-streamed PNG decode of a preview (`decode(_:fittingIn:)`) against the
/// whole-image path (libpng's simplified API, then `AreaDownscaler`): the same pixels for
/// every PNG kind it streams, and the whole-image path for the kinds it does not.
@Suite struct ScaledPNGDecodingTests {
    let decoder = ImageDecoder()
    let box = PixelSize(width: 23, height: 17)

    /// A busy pattern, so that any difference in rows, columns or rounding shows.
    static func value(_ x: Int, _ y: Int, _ channel: Int, max: Int) -> Int {
        ((x * 37 + y * 91 + channel * 53) ^ (x * y)) % (max + 1)
    }

    static func png(colorType: UInt8, bitDepth: UInt8 = 8, interlaced: Bool = false, gamma: UInt32? = nil) -> Data {
        let maxSample = (1 << Int(bitDepth)) - 1
        var png = TestPNG(width: 97, height: 61, colorType: colorType, bitDepth: bitDepth, interlaced: interlaced,
                          gamma: gamma) { _, _ in [] }
        let channels = png.channels
        png.samples = { x, y in (0..<channels).map { value(x, y, $0, max: maxSample) } }
        if colorType == 3 {
            png.palette = (0...maxSample).map { (UInt8($0 * 255 / maxSample), UInt8(255 - $0 * 200 / maxSample), 77) }
            png.paletteAlpha = (0...maxSample).map { UInt8(($0 * 97) % 256) }
        }
        return png.encode()
    }

    func wholeImagePath(_ data: Data) throws -> RGBAImage {
        AreaDownscaler.downscale(try decoder.decode(data), fittingIn: box)
    }

    func streams(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in PNGDecoder.readsRows(raw.bindMemory(to: UInt8.self)) }
    }

    @Test(arguments: [
        (UInt8(2), UInt8(8)), (6, 8), (0, 8), (4, 8), (3, 8), (3, 4), (3, 1), (0, 1), (0, 2), (0, 4),
    ])
    func streamedRowsGiveTheWholeImagePathsPixels(colorType: UInt8, bitDepth: UInt8) throws {
        let png = Self.png(colorType: colorType, bitDepth: bitDepth)
        #expect(streams(png), "colour type \(colorType), \(bitDepth) bits")
        let streamed = try decoder.decode(png, fittingIn: box)
        #expect(streamed.size == PixelSize(width: 23, height: 14))
        #expect(streamed == (try wholeImagePath(png)), "colour type \(colorType), \(bitDepth) bits")
        // Not a flat image: the pattern survived the average.
        #expect(Set(streamed.pixels).count > 8)
    }

    @Test func anSRGBGammaStillStreams() throws {
        let png = Self.png(colorType: 2, gamma: 45455)
        #expect(streams(png))
        #expect(try decoder.decode(png, fittingIn: box) == (try wholeImagePath(png)))
    }

    @Test(arguments: [
        ("interlaced RGB", Self.png(colorType: 2, interlaced: true)),
        ("interlaced palette", Self.png(colorType: 3, bitDepth: 4, interlaced: true)),
        ("16-bit RGBA", Self.png(colorType: 6, bitDepth: 16)),
        ("16-bit gray", Self.png(colorType: 0, bitDepth: 16)),
        ("linear gamma", Self.png(colorType: 2, gamma: 100_000)),
    ])
    func otherPNGsAreDecodedWholeThenDownscaled(_ name: String, _ png: Data) throws {
        #expect(!streams(png), "\(name)")
        let scaled = try decoder.decode(png, fittingIn: box)
        #expect(scaled.size == PixelSize(width: 23, height: 14), "\(name)")
        #expect(scaled == (try wholeImagePath(png)), "\(name)")
        #expect(Set(scaled.pixels).count > 20, "\(name)")
    }

    @Test func interlacedAndPlainGiveTheSameImage() throws {
        let plain = try decoder.decode(Self.png(colorType: 6), fittingIn: box)
        let interlaced = try decoder.decode(Self.png(colorType: 6, interlaced: true), fittingIn: box)
        #expect(plain == interlaced)
    }

    @Test func aPNGThatFitsIsNotScaled() throws {
        let png = Self.png(colorType: 2)
        let image = try decoder.decode(png, fittingIn: PixelSize(width: 200, height: 200))
        #expect(image == (try decoder.decode(png)))
    }

    @Test func aTruncatedStreamedPNGFailsWithOneLine() throws {
        let png = Self.png(colorType: 2)
        #expect(streams(png))
        for length in [png.count / 2, png.count - 40, 70] {
            #expect {
                _ = try decoder.decode(png.prefix(length), fittingIn: box)
            } throws: { error in
                guard let error = error as? ImageDecodingError else { return false }
                return !error.message.isEmpty && !error.message.contains("\n") && error.message.contains("PNG")
            }
        }
    }

    @Test func aBombIsRefusedBeforeStreaming() throws {
        let bomb = TestImages.pngHeader(width: 50_000, height: 50_000)
        #expect {
            _ = try decoder.decode(bomb, fittingIn: box)
        } throws: { error in
            (error as? ImageDecodingError)?.message.contains("50000") ?? false
        }
    }
}
