import Foundation
import Testing
import PostFeedImaging

/// A GIF's first frame drawn at its offset on the logical screen: at full size, and as a
/// preview drawn straight onto a canvas of the preview's size (the same pixels as the
/// whole screen downscaled), so a few bytes declaring a huge screen cost a preview's
/// memory. They used to allocate the whole screen: 438 MB for a 35-byte 10000×10000 GIF.
@Suite struct GIFCanvasTests {
    let decoder = ImageDecoder()

    /// A frame of 90×50 with index 0 transparent (its left column), at `left`, `top` on a
    /// 300×200 screen: inside it, and reaching past its right and bottom edges.
    @Test(arguments: [(120, 35, false), (120, 35, true), (250, 180, false), (250, 180, true), (0, 0, true)])
    func anOffsetFrameIsTheScreenDownscaled(left: Int, top: Int, interlaced: Bool) throws {
        let source = TestImages.gradient(width: 90, height: 50, seed: 1)
        let screen = PixelSize(width: 300, height: 200)
        let gif = TestImages.gif(source, interlaced: interlaced, screen: screen, left: left, top: top, transparent: 0)
        let context = "frame at \(left),\(top), interlaced \(interlaced)"

        let full = try decoder.decode(gif)
        #expect(full.size == screen, "\(context)")
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(full.pixels[(y * 300 + x) * 4..<(y * 300 + x) * 4 + 4]) }
        // Palette entry i is (i, 255 − i, 128); the index was the source's red.
        let red = source.pixels[(5 * 90 + 10) * 4]
        #expect(pixel(left + 10, top + 5) == [red, 255 - red, 128, 255], "\(context)")
        #expect(pixel(left, top) == [0, 0, 0, 0], "\(context): index 0 is transparent")
        if left > 0 { #expect(pixel(left - 1, top) == [0, 0, 0, 0], "\(context)") }
        if top > 0 { #expect(pixel(left, top - 1) == [0, 0, 0, 0], "\(context)") }

        for box in [PixelSize(width: 97, height: 55), PixelSize(width: 64, height: 64), PixelSize(width: 8, height: 8),
                    PixelSize(width: 300, height: 199), PixelSize(width: 1, height: 1)] {
            let preview = try decoder.decode(gif, fittingIn: box)
            let general = AreaDownscaler.downscale(full, fittingIn: box)
            #expect(preview.size == screen.fitting(in: box), "\(context), \(box)")
            #expect(preview == general, "\(context), \(box)")
        }
    }

    /// 35 bytes: a 10000×10000 logical screen (100 megapixels, at the limit) with a red
    /// 1×1 frame at `left`, `top`.
    static func hugeScreen(left: UInt8, top: UInt8) -> Data {
        var gif = Array("GIF89a".utf8)
        gif += [0x10, 0x27, 0x10, 0x27, 0x80, 0x00, 0x00]  // 10000×10000, a 2-colour global table
        gif += [255, 0, 0, 0, 0, 0]
        gif += [0x2C, left, 0x13, top, 0x13, 1, 0, 1, 0, 0x00]  // 1×1 at (left + 4864, top + 4864)
        gif += [0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        return Data(gif)
    }

    static func peakResidentKilobytes() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss
    }

    /// The preview of a 35-byte GIF with a 10000×10000 screen: a 64×64 canvas, not the
    /// 400 MB screen. The process's peak resident size (which only grows) must not jump by
    /// the screen's size: it did by ~400 MB when the whole screen was drawn, then scaled.
    @Test func aHugeScreenIsNeverAllocatedForAPreview() throws {
        for (left, top) in [(UInt8(0), UInt8(0)), (UInt8(0x10), UInt8(0x20))] {
            let gif = Self.hugeScreen(left: left, top: top)
            #expect(gif.count == 35)
            #expect(try decoder.size(of: gif) == PixelSize(width: 10_000, height: 10_000))
            let before = Self.peakResidentKilobytes()
            let preview = try decoder.decode(gif, fittingIn: PixelSize(width: 64, height: 64))
            let grown = Self.peakResidentKilobytes() - before
            #expect(preview.size == PixelSize(width: 64, height: 64))
            // One red pixel in the 156×156 screen pixels of each preview pixel: transparent.
            let visible = preview.pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element != 0 }
            #expect(!visible)
            #expect(grown < 100_000, "peak resident size grew by \(grown) kB for a 64×64 preview")
        }
    }
}
