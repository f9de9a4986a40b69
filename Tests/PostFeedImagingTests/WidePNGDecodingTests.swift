import Foundation
import Testing
@testable import PostFeedImaging

/// Issue 17: libpng refuses a width or height over 1,000,000 by default (its user limits,
/// "Invalid IHDR data"), though a 2,000,000×10 PNG is 20 megapixels, far under PostFeed's
/// own 100-megapixel limit. Every PNG path (the header, the whole image, the row-streamed
/// and two-thread previews) reads such PNGs, and the pixel-count limit still refuses bombs
/// from the header.
@Suite struct WidePNGDecodingTests {
    let decoder = ImageDecoder()
    let box = PixelSize(width: 64, height: 64)

    /// Four flat bands across `count` samples: 0, 85, 170, 255.
    static func band(_ index: Int, of count: Int) -> UInt8 { UInt8(index * 4 / count * 85) }

    /// A `width`×`height` PNG whose columns go through the four bands (gray or RGB, 8 bits).
    static func banded(width: Int, height: Int, colorType: UInt8) -> Data {
        let channels = colorType == 2 ? 3 : 1
        var row: [UInt8] = []
        row.reserveCapacity(width * channels)
        for part in 0..<4 {
            let count = (part + 1) * width / 4 - part * width / 4
            row += [UInt8](repeating: UInt8(part * 85), count: count * channels)
        }
        return ZlibPNG.encode(width: width, height: height, colorType: colorType) { _ in row }
    }

    /// A 1×`height` gray PNG whose rows go through the four bands.
    static func tall(height: Int) -> Data {
        ZlibPNG.encode(width: 1, height: height, colorType: 0) { y in [band(y, of: height)] }
    }

    /// A `width`×`height` 16-bit gray Adam7 PNG whose row y is all `level(y)`: not read
    /// row by row, so a preview decodes it whole.
    static func interlaced16(width: Int, height: Int, bitDepth: UInt8 = 16, level: (Int) -> UInt16) -> Data {
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var raw: [UInt8] = []
        for (x0, y0, dx, dy) in passes where x0 < width {
            let columns = (width - x0 + dx - 1) / dx
            for y in stride(from: y0, to: height, by: dy) {
                let value = level(y)
                raw.append(0)
                for _ in 0..<columns { raw += bitDepth == 16 ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value >> 8)] }
            }
        }
        return ZlibPNG.encode(width: width, height: height, colorType: 0, bitDepth: bitDepth, interlacedRows: raw)
    }

    /// The gray level of pixel `x` of row `y` (all channels equal, opaque).
    static func level(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let start = (y * image.width + x) * 4
        return Array(image.pixels[start..<start + 4])
    }

    @Test(arguments: [(UInt8(0), "gray"), (2, "RGB")])
    func aPNGTwoMillionPixelsWideDecodes(colorType: UInt8, kind: String) throws {
        let png = Self.banded(width: 2_000_000, height: 10, colorType: colorType)
        #expect(try decoder.size(of: png) == PixelSize(width: 2_000_000, height: 10), "\(kind)")

        // The preview: gray streams row by row, RGB on two threads (and on one).
        let preview = try decoder.decode(png, fittingIn: box)
        #expect(preview.size == PixelSize(width: 64, height: 1), "\(kind)")
        #expect(Self.level(preview, 0, 0) == [0, 0, 0, 255], "\(kind)")
        #expect(Self.level(preview, 20, 0) == [85, 85, 85, 255], "\(kind)")
        #expect(Self.level(preview, 63, 0) == [255, 255, 255, 255], "\(kind)")
        let oneThread = PNGDecoder(limit: ImageDecoder.defaultMaximumPixelCount, twoThreadsFrom: .max)
        let rows = try withBytes(of: png) { bytes throws(ImageDecodingError) in try oneThread.decode(bytes, fittingIn: box) }
        #expect(rows == preview, "\(kind)")

        // The whole image.
        let whole = try decoder.decode(png)
        #expect(whole.size == PixelSize(width: 2_000_000, height: 10), "\(kind)")
        #expect(Self.level(whole, 0, 0) == [0, 0, 0, 255])
        #expect(Self.level(whole, 999_999, 4) == [85, 85, 85, 255])
        #expect(Self.level(whole, 1_000_000, 5) == [170, 170, 170, 255])
        #expect(Self.level(whole, 1_999_999, 9) == [255, 255, 255, 255])
    }

    @Test func aPNGTwoMillionPixelsTallDecodes() throws {
        let png = Self.tall(height: 2_000_000)
        #expect(try decoder.size(of: png) == PixelSize(width: 1, height: 2_000_000))
        let preview = try decoder.decode(png, fittingIn: box)
        #expect(preview.size == PixelSize(width: 1, height: 64))
        #expect(Self.level(preview, 0, 0) == [0, 0, 0, 255])
        #expect(Self.level(preview, 0, 63) == [255, 255, 255, 255])
        let whole = try decoder.decode(png)
        #expect(whole.size == PixelSize(width: 1, height: 2_000_000))
        #expect(Self.level(whole, 0, 499_999) == [0, 0, 0, 255])
        #expect(Self.level(whole, 0, 500_000) == [85, 85, 85, 255])
        #expect(Self.level(whole, 0, 1_999_999) == [255, 255, 255, 255])
    }

    /// A wide 16-bit interlaced PNG takes the whole-image path past libpng's limits; its
    /// pixels are those libpng's simplified API gives a narrow, non-interlaced PNG of the
    /// same rows (16-bit samples without gAMA are linear, drawn as 8-bit sRGB).
    @Test func aWideInterlacedSixteenBitPNGGivesTheSimplifiedAPIsPixels() throws {
        let levels: [UInt16] = [0, 0x1234, 0x8000, 0xFFFF]
        let wide = Self.interlaced16(width: 1_000_003, height: 4) { levels[$0] }
        let narrow = TestPNG(width: 9, height: 4, colorType: 0, bitDepth: 16) { _, y in [Int(levels[y])] }.encode()
        let reference = try decoder.decode(narrow)
        let whole = try decoder.decode(wide)
        #expect(whole.size == PixelSize(width: 1_000_003, height: 4))
        for y in 0..<4 {
            #expect(Self.level(whole, 0, y) == Self.level(reference, 0, y), "row \(y)")
            #expect(Self.level(whole, 1_000_002, y) == Self.level(reference, 8, y), "row \(y)")
        }
        #expect(Self.level(reference, 0, 1) != Self.level(reference, 0, 2))
        let preview = try decoder.decode(wide, fittingIn: box)
        #expect(preview.size == PixelSize(width: 64, height: 1))
    }

    /// A small interlaced PNG (16 or 8 bits), within libpng's limits, decodes to the same pixels as
    /// the same rows not interlaced, whole and as a preview. libpng 1.6.39's simplified
    /// API mixed up rows of such images (rows 0 and 2 of this one were wrong).
    @Test(arguments: [PixelSize(width: 9, height: 4), PixelSize(width: 33, height: 17), PixelSize(width: 1, height: 9)], [UInt8(16), 8])
    func aSmallInterlacedPNGKeepsItsRows(_ size: PixelSize, bitDepth: UInt8) throws {
        let level = { (y: Int) -> UInt16 in UInt16(truncatingIfNeeded: (y * 0x2F1D + 0x0123) % 0x10000) }
        let interlaced = Self.interlaced16(width: size.width, height: size.height, bitDepth: bitDepth, level: level)
        let plain = TestPNG(width: size.width, height: size.height, colorType: 0, bitDepth: bitDepth) { _, y in
            [bitDepth == 16 ? Int(level(y)) : Int(level(y) >> 8)]
        }.encode()
        let reference = try decoder.decode(plain)
        let whole = try decoder.decode(interlaced)
        #expect(whole.size == size)
        for y in 0..<size.height {
            #expect(Self.level(whole, 0, y) == Self.level(reference, 0, y), "row \(y)")
            #expect(Self.level(whole, size.width - 1, y) == Self.level(reference, size.width - 1, y), "row \(y)")
        }
        let small = PixelSize(width: 4, height: 4)
        #expect(try decoder.decode(interlaced, fittingIn: small).pixels == (try decoder.decode(plain, fittingIn: small)).pixels)
    }

    /// Past libpng's limits, the pixel-count limit still refuses a bomb from its header,
    /// in every path, with its dimensions and the limit.
    @Test(arguments: [(100_000_001, 1), (1, 100_000_001), (2_000_000, 51)])
    func aWidePNGOverThePixelLimitIsABomb(width: Int, height: Int) {
        let png = TestImages.pngHeader(width: UInt32(width), height: UInt32(height))
        var errors: [ImageDecodingError] = []
        do { _ = try decoder.size(of: png) } catch { errors.append(error) }
        do { _ = try decoder.decode(png) } catch { errors.append(error) }
        do { _ = try decoder.decode(png, fittingIn: box) } catch { errors.append(error) }
        #expect(errors.count == 3)
        for error in errors {
            #expect(error.isTooLarge && error.message.contains("\(width)×\(height)"), "\(error.message)")
        }
    }
}
