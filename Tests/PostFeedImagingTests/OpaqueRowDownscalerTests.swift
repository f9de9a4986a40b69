import Testing
@testable import PostFeedImaging

/// Opaque RGB rows take their own paths through ``RowDownscaler`` (two-column pairs up to
/// 2:1, spans beyond): both must give, to the bit, what the alpha-weighted RGBA path gives
/// for the same pixels with every alpha 255.
@Suite struct OpaqueRowDownscalerTests {
    @Test(
        "RGB rows downscale to the same pixels as the same rows as opaque RGBA",
        arguments: [
            (PixelSize(width: 400, height: 300), PixelSize(width: 320, height: 240)),  // 5:4, pairs
            (PixelSize(width: 400, height: 300), PixelSize(width: 320, height: 120)),  // rows 5:2
            (PixelSize(width: 200, height: 100), PixelSize(width: 100, height: 50)),  // exactly 2:1
            (PixelSize(width: 64, height: 40), PixelSize(width: 64, height: 13)),  // same width: one column each
            (PixelSize(width: 7, height: 5), PixelSize(width: 5, height: 4)),
            (PixelSize(width: 1200, height: 900), PixelSize(width: 320, height: 240)),  // 3.75:1, spans
            (PixelSize(width: 1, height: 9), PixelSize(width: 1, height: 2)),  // one column
            (PixelSize(width: 2, height: 2), PixelSize(width: 1, height: 1)),
        ])
    func sameAsOpaqueRGBA(source: PixelSize, target: PixelSize) {
        // Given: noisy pixels (a fixed generator: the same every run)
        var seed: UInt32 = 0x9E37_79B9 &+ UInt32(source.width * 31 + source.height)
        var rgb: [UInt8] = []
        var rgba: [UInt8] = []
        for _ in 0..<source.pixelCount {
            for _ in 0..<3 {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let value = UInt8(truncatingIfNeeded: seed >> 24)
                rgb.append(value)
                rgba.append(value)
            }
            rgba.append(255)
        }

        // When: the RGB rows and the RGBA rows are downscaled
        var opaque = RowDownscaler(from: source, to: target, channels: 3)
        var withAlpha = RowDownscaler(from: source, to: target, channels: 4)
        rgb.withUnsafeBufferPointer { rows in
            guard let base = rows.baseAddress else { return }
            for y in 0..<source.height { opaque.add(row: base + y * source.width * 3) }
        }
        rgba.withUnsafeBufferPointer { rows in
            guard let base = rows.baseAddress else { return }
            for y in 0..<source.height { withAlpha.add(row: base + y * source.width * 4) }
        }

        // Then: the same image, and not a blank one
        let image = opaque.image()
        #expect(image.size == target)
        #expect(image == withAlpha.image())
        #expect(Set(image.pixels).count > 2)
    }
}
