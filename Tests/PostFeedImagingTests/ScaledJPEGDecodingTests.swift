import CTurboJPEG
import Foundation
import Testing
import PostFeedImaging

/// A JPEG preview (`decode(_:fittingIn:)`: TurboJPEG's scaled decode as opaque RGB, then
/// the area average) against the general path (scaled RGBA decode, then
/// `AreaDownscaler`): the same pixels, for colour and grayscale JPEGs.
@Suite struct ScaledJPEGDecodingTests {
    let decoder = ImageDecoder()

    @Test(arguments: [
        (PixelSize(width: 320, height: 160), "symbols box"), (PixelSize(width: 400, height: 400), "kitty box"),
        (PixelSize(width: 97, height: 55), "odd box"), (PixelSize(width: 2000, height: 2000), "larger than the image"),
    ])
    func previewsMatchTheGeneralPath(box: PixelSize, _ name: String) throws {
        let source = TestImages.gradient(width: 1600, height: 1200, seed: 3)
        for subsampling in [TJSAMP_420, TJSAMP_444, TJSAMP_GRAY] {
            let jpeg = TestImages.jpeg(source, subsampling: subsampling)
            let preview = try decoder.decode(jpeg, fittingIn: box)
            let general = AreaDownscaler.downscale(try decoder.decode(jpeg, atLeast: box), fittingIn: box)
            #expect(preview == general, "\(name), subsampling \(subsampling.rawValue)")
            #expect(preview.size == PixelSize(width: 1600, height: 1200).fitting(in: box), "\(name)")
            #expect(Set(preview.pixels).count > 20, "\(name)")
            if subsampling == TJSAMP_GRAY {
                // Grayscale: every pixel grey and opaque.
                let pixels = preview.pixels
                var grey = true
                for offset in stride(from: 0, to: pixels.count, by: 4) {
                    let (r, g, b, a) = (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
                    if r != g || g != b || a != 255 { grey = false }
                }
                #expect(grey, "\(name)")
            }
        }
    }
}

/// `decode(_:toRender:)`: what a preview hands libchafa, which resamples to its canvas.
@Suite struct DecodeToRenderTests {
    let decoder = ImageDecoder()

    @Test("JPEG: TurboJPEG's smallest covering DCT scale as it comes, no area average; never the original's size")
    func jpegStopsAtTheDCTScale() throws {
        let source = TestImages.gradient(width: 1600, height: 1200, seed: 5)
        let jpeg = TestImages.jpeg(source, subsampling: TJSAMP_420)
        for (box, expected) in [
            (PixelSize(width: 320, height: 320), PixelSize(width: 400, height: 300)),  // 40×20 cells, symbols
            (PixelSize(width: 400, height: 400), PixelSize(width: 400, height: 300)),  // kitty
            (PixelSize(width: 97, height: 55), PixelSize(width: 200, height: 150)),  // 1/8
            (PixelSize(width: 3000, height: 3000), PixelSize(width: 1600, height: 1200)),  // never up
        ] {
            let pixels = try decoder.decode(jpeg, toRender: box)
            #expect(pixels.size == expected, "\(box)")
            #expect(pixels == (try decoder.decode(jpeg, atLeast: box)), "\(box)")
        }
    }

    @Test("PNG: the area average to the fitted size, as decode(_:fittingIn:)")
    func pngIsFitted() throws {
        let png = TestPNG(width: 640, height: 480, colorType: 2, samples: { x, y in [x % 256, y % 256, (x * y) % 256] }).encode()
        let box = PixelSize(width: 320, height: 320)
        let pixels = try decoder.decode(png, toRender: box)
        #expect(pixels.size == PixelSize(width: 320, height: 240))
        #expect(pixels == (try decoder.decode(png, fittingIn: box)))
    }

    /// Symbols, iTerm2 and sixel (libchafa resamples) get `toRender`'s pixels; kitty, sent
    /// as decoded, the exact fit of the box: 1000×750 in 40×20 cells is 375×282 from
    /// TurboJPEG's 3/8 scale for chafa, 400×300 area-averaged for kitty.
    @Test("decode(_:for:fittingIn:): the decoder's scale for libchafa's protocols, the exact fit for kitty")
    func pixelsForEachRenderer() throws {
        let jpeg = TestImages.jpeg(TestImages.gradient(width: 1000, height: 750, seed: 3))
        let cells = PixelSize(width: 40, height: 20)
        for imageProtocol in [ImageProtocol.symbols, .iterm, .sixel, .kitty] {
            let renderer = TerminalImageRenderer(imageProtocol: imageProtocol)
            let box = renderer.pixelBox(forCells: cells)
            let pixels = try decoder.decode(jpeg, for: renderer, fittingIn: cells)
            let expected = imageProtocol == .kitty ? try decoder.decode(jpeg, fittingIn: box) : try decoder.decode(jpeg, toRender: box)
            #expect(pixels == expected, "\(imageProtocol)")
        }
        let kitty = try decoder.decode(jpeg, for: TerminalImageRenderer(imageProtocol: .kitty), fittingIn: cells)
        let symbols = try decoder.decode(jpeg, for: TerminalImageRenderer(imageProtocol: .symbols), fittingIn: cells)
        #expect(kitty.size == PixelSize(width: 400, height: 300))
        #expect(symbols.size == PixelSize(width: 375, height: 282))
    }

    @Test("Not an image: the same error as decode(_:fittingIn:)")
    func notAnImage() {
        #expect(throws: ImageDecodingError.self) { try decoder.decode(Data("not an image".utf8), toRender: PixelSize(width: 8, height: 8)) }
    }
}
