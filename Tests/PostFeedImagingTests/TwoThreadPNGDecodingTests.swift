import Foundation
import Testing
@testable import PostFeedImaging

/// The two-thread PNG read of a preview (`pf_png_rows`: zlib on a helper thread, rows
/// unfiltered on the caller's) against libpng's one-thread row reader and its whole-image
/// path: the same pixels for every row filter and IDAT split, and a one-line error for
/// damaged image data that libpng refuses too.
@Suite struct TwoThreadPNGDecodingTests {
    let box = PixelSize(width: 23, height: 17)
    /// Reads every PNG it can on two threads, however small.
    let twoThreads = PNGDecoder(limit: ImageDecoder.defaultMaximumPixelCount, twoThreadsFrom: 0)
    let oneThread = PNGDecoder(limit: ImageDecoder.defaultMaximumPixelCount, twoThreadsFrom: .max)

    static func png(colorType: UInt8, filters: [UInt8] = [0, 1, 2, 3, 4], idatChunks: Int = 7, transparentColor: Bool = false) -> Data {
        var png = TestPNG(width: 97, height: 61, colorType: colorType) { _, _ in [] }
        let channels = png.channels
        png.samples = { x, y in (0..<channels).map { ScaledPNGDecodingTests.value(x, y, $0, max: 255) } }
        png.filters = filters
        png.idatChunks = idatChunks
        if transparentColor { png.paletteAlpha = [0, 1, 0, 2, 0, 3] }
        return png.encode()
    }

    func decode(_ decoder: PNGDecoder, _ data: Data) throws -> RGBAImage {
        try withBytes(of: data) { bytes throws(ImageDecodingError) in try decoder.decode(bytes, fittingIn: box) }
    }

    func wholeImage(_ data: Data) throws -> RGBAImage {
        AreaDownscaler.downscale(try ImageDecoder().decode(data), fittingIn: box)
    }

    @Test(arguments: [UInt8(2), 6])
    func everyFilterAndChunkingGivesLibpngsPixels(colorType: UInt8) throws {
        for (filters, chunks) in [([UInt8(0), 1, 2, 3, 4], 7), ([4], 1), ([3], 200), ([1, 2], 2)] {
            let png = Self.png(colorType: colorType, filters: filters, idatChunks: chunks)
            let split = try decode(twoThreads, png)
            #expect(split.size == PixelSize(width: 23, height: 14))
            #expect(split == (try decode(oneThread, png)), "type \(colorType), filters \(filters), \(chunks) chunks")
            #expect(split == (try wholeImage(png)), "type \(colorType), filters \(filters), \(chunks) chunks")
            #expect(Set(split.pixels).count > 20)
        }
    }

    @Test func rgbWithATransparentColourIsLeftToLibpng() throws {
        let png = Self.png(colorType: 2, transparentColor: true)
        let plain = Self.png(colorType: 2)
        let direct = png.withUnsafeBytes { raw in PNGDecoder.readsOnTwoThreads(raw.bindMemory(to: UInt8.self)) }
        let plainDirect = plain.withUnsafeBytes { raw in PNGDecoder.readsOnTwoThreads(raw.bindMemory(to: UInt8.self)) }
        #expect(!direct)
        #expect(plainDirect)
        #expect(try decode(twoThreads, png) == (try wholeImage(png)))
    }

    /// The failure's message, or nil when it decoded.
    func failure(_ decoder: PNGDecoder, _ data: Data) -> String? {
        do {
            _ = try decode(decoder, data)
            return nil
        } catch {
            return (error as? ImageDecodingError)?.message ?? "\(error)"
        }
    }

    @Test func aDamagedIDATFailsWithLibpngsReason() throws {
        var png = Self.png(colorType: 2, idatChunks: 3)
        // A byte inside the second IDAT chunk's data: its CRC no longer matches.
        let second = try #require(png.range(of: Data("IDAT".utf8), in: png.count / 2..<png.count))
        png[second.upperBound + 10] ^= 0x5A
        let message = try #require(failure(twoThreads, png))
        #expect(message.contains("CRC"), "\(message)")
        #expect(!message.contains("\n"))
        #expect(failure(oneThread, png) != nil)
    }

    @Test func aBadFilterByteFails() throws {
        let png = Self.png(colorType: 6, filters: [0, 0, 9])
        let message = try #require(failure(twoThreads, png))
        #expect(message.contains("filter"), "\(message)")
        #expect(failure(oneThread, png) != nil)
    }

    /// `png` (one IDAT chunk) with the last `count` bytes of its compressed data cut, the
    /// chunk's length and CRC fixed: every row is there, the zlib stream's end is not.
    static func cuttingTheStreamsEnd(_ png: Data, by count: Int) throws -> Data {
        let idat = try firstIDAT(png)
        let body = Array(idat.bytes[idat.body.lowerBound..<idat.body.upperBound - count])
        return Data(idat.bytes[..<idat.start] + TestImages.pngChunk("IDAT", body) + idat.bytes[(idat.body.upperBound + 4)...])
    }

    /// The bytes of `png` and where its first IDAT chunk starts (its length field) and
    /// where its body is.
    static func firstIDAT(_ png: Data) throws -> (bytes: [UInt8], start: Int, body: Range<Int>) {
        let type = try #require(png.range(of: Data("IDAT".utf8)))
        let bytes = [UInt8](png)
        let start = type.lowerBound - 4
        let length = bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
        return (bytes, start, type.upperBound..<type.upperBound + length)
    }

    @Test func aStreamWithoutItsEndFailsAsWithLibpng() throws {
        let png = Self.png(colorType: 2, idatChunks: 1)
        #expect(failure(twoThreads, try Self.cuttingTheStreamsEnd(png, by: 0)) == nil)
        // The Adler-32 (unchecked, but zlib reads it to end the stream) cut off.
        let cut = try Self.cuttingTheStreamsEnd(png, by: 4)
        let message = try #require(failure(twoThreads, cut))
        #expect(message.contains("PNG") && !message.contains("\n"), "\(message)")
        #expect(failure(oneThread, cut) != nil)
    }

    /// `png` (one IDAT chunk of stored blocks) with damaged compressed data after the last
    /// row: its last block no longer ends the stream, the rows end with the IDAT chunk, and
    /// a second IDAT chunk holds an invalid block header instead of the Adler-32. libpng's
    /// row reader only warns about damage it finds past the rows (a benign error).
    static func damagingAfterTheRows(_ png: Data) throws -> Data {
        let idat = try firstIDAT(png)
        var rows = Array(idat.bytes[idat.body.lowerBound..<idat.body.upperBound - 4])
        // The zlib header, then the only stored block's header: BFINAL cleared.
        rows[2] = 0
        // BFINAL 1 with the reserved block type 3: zlib's "invalid block type".
        let damage: [UInt8] = [0x07, 0, 0, 0]
        return Data(
            idat.bytes[..<idat.start] + TestImages.pngChunk("IDAT", rows) + TestImages.pngChunk("IDAT", damage)
                + idat.bytes[(idat.body.upperBound + 4)...])
    }

    @Test func damageAfterTheRowsPreviewsWithLibpngsPixels() throws {
        let damaged = try Self.damagingAfterTheRows(Self.png(colorType: 6, idatChunks: 1))
        let single = try decode(oneThread, damaged)
        let split = try decode(twoThreads, damaged)
        #expect(split == single)
        #expect(split == (try decode(oneThread, Self.png(colorType: 6, idatChunks: 1))))
        // Through the product's decoder too, with the two-thread reader from any size.
        var decoder = ImageDecoder()
        decoder.twoThreadPNGPixelCount = 0
        #expect(try decoder.decode(damaged, fittingIn: box) == single)
    }

    @Test func truncatedDataFailsWithOneLine() throws {
        let png = Self.png(colorType: 2)
        for length in [png.count / 2, png.count - 40, png.count - 13, 80] {
            let message = try #require(failure(twoThreads, png.prefix(length)), "\(length) bytes")
            #expect(message.contains("PNG") && !message.contains("\n"), "\(message)")
        }
    }
}
