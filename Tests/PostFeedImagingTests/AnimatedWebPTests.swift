import Foundation
import Testing
import PostFeedImaging

/// An animated WebP previews its first frame (libwebpdemux), drawn at its offset on a
/// transparent canvas, as an animated GIF does. It used to fail as "corrupt WEBP image:
/// bitstream error".
@Suite struct AnimatedWebPTests {
    let decoder = ImageDecoder()

    @Test func theFirstFrameIsDrawnAtItsOffset() throws {
        let first = TestImages.gradient(width: 90, height: 50, seed: 1)
        let second = TestImages.gradient(width: 300, height: 200, seed: 2)
        let canvas = PixelSize(width: 300, height: 200)
        let webp = TestImages.animatedWebP(canvas: canvas, frames: [
            (TestImages.webp(first), first.size, 120, 36), (TestImages.webp(second), second.size, 0, 0),
        ])
        #expect(ImageFormat(sniffing: webp) == .webp)
        #expect(try decoder.size(of: webp) == canvas)

        let full = try decoder.decode(webp)
        #expect(full.size == canvas)
        let still = try decoder.decode(TestImages.webp(first))
        func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
            let offset = (y * image.width + x) * 4
            return Array(image.pixels[offset..<offset + 4])
        }
        // The first frame, where it is; transparent around it (the second frame is not drawn).
        for (x, y) in [(0, 0), (10, 25), (89, 49), (45, 3)] {
            #expect(pixel(full, 120 + x, 36 + y) == pixel(still, x, y), "frame pixel \(x),\(y)")
        }
        for (x, y) in [(0, 0), (119, 36), (210, 36), (120, 86), (299, 199)] {
            #expect(pixel(full, x, y) == [0, 0, 0, 0], "canvas pixel \(x),\(y)")
        }

        for box in [PixelSize(width: 64, height: 64), PixelSize(width: 97, height: 55), PixelSize(width: 8, height: 8)] {
            let preview = try decoder.decode(webp, fittingIn: box)
            #expect(preview.size == canvas.fitting(in: box), "\(box)")
            #expect(preview == AreaDownscaler.downscale(full, fittingIn: box), "\(box)")
        }
    }

    @Test func aFrameCoveringTheCanvasIsScaledByLibWebP() throws {
        let first = TestImages.gradient(width: 160, height: 120, seed: 3)
        let webp = TestImages.animatedWebP(canvas: first.size, frames: [
            (TestImages.webp(first), first.size, 0, 0), (TestImages.webp(first), first.size, 0, 0),
        ])
        let full = try decoder.decode(webp)
        #expect(full == (try decoder.decode(TestImages.webp(first))))
        let scaled = try decoder.decode(webp, atLeast: PixelSize(width: 40, height: 40))
        #expect(scaled.size == PixelSize(width: 40, height: 30))
        #expect(scaled == (try decoder.decode(TestImages.webp(first), atLeast: PixelSize(width: 40, height: 40))))
    }

    @Test func theCorpusAnimationPreviews() throws {
        let data = try Data(contentsOf: FuzzSeedTests.corpusDirectory.appendingPathComponent("image-webp/animated.webp"))
        let preview = try decoder.decode(data, fittingIn: PixelSize(width: 8, height: 8))
        #expect(preview.size == PixelSize(width: 8, height: 6))
        #expect(Set(preview.pixels).count > 5)
    }
}
