import Testing
import PostFeedImaging

@Suite struct AreaDownscalerTests {
    @Test func averagesWholeBlocks() {
        // 4×2: left 2×2 block black, right 2×2 block white → 2×1 black, white.
        var pixels: [UInt8] = []
        for _ in 0..<2 {
            pixels += [0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255]
        }
        let image = RGBAImage(width: 4, height: 2, pixels: pixels)
        let scaled = AreaDownscaler.downscale(image, to: PixelSize(width: 2, height: 1))
        #expect(scaled.pixels == [0, 0, 0, 255, 255, 255, 255, 255])
    }

    @Test func fractionalCoverageIsWeighted() {
        // 3×1 → 2×1: output 0 = p0 + half of p1, output 1 = half of p1 + p2.
        let image = RGBAImage(width: 3, height: 1, pixels: [0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255])
        let scaled = AreaDownscaler.downscale(image, to: PixelSize(width: 2, height: 1))
        #expect(scaled.pixels == [30, 30, 30, 255, 150, 150, 150, 255])
    }

    @Test func fitsTheBoxKeepingTheAspectRatio() {
        let image = TestImages.gradient(width: 300, height: 100)
        let scaled = AreaDownscaler.downscale(image, fittingIn: PixelSize(width: 60, height: 60))
        #expect(scaled.size == PixelSize(width: 60, height: 20))
        #expect(AreaDownscaler.downscale(image, fittingIn: PixelSize(width: 600, height: 600)) == image)
    }

    @Test func transparentPixelsDoNotDarkenColour() {
        let image = RGBAImage(width: 2, height: 1, pixels: [200, 100, 50, 255, 0, 0, 0, 0])
        let scaled = AreaDownscaler.downscale(image, to: PixelSize(width: 1, height: 1))
        #expect(scaled.pixels == [200, 100, 50, 128])
    }
}
