import CTurboJPEG
import Foundation
import Testing
import PostFeedImaging

/// CMYK and YCCK JPEGs (what print workflows and Photoshop save) decode to RGB: TurboJPEG
/// gives CMYK pixels, converted with the naive formula, Adobe's inverted polarity when the
/// Adobe marker is there. They used to fail as "corrupt JPEG image: Unsupported color
/// conversion request".
@Suite struct CMYKJPEGDecodingTests {
    let decoder = ImageDecoder()

    /// Four quadrants, stored as Adobe's inverted CMYK (255 is no ink): red (M, Y full),
    /// green (C, Y), blue (C, M), and white with half black (grey).
    static let quadrants: [(cmyk: [UInt8], rgb: [Int])] = [
        ([255, 0, 0, 255], [255, 0, 0]), ([0, 255, 0, 255], [0, 255, 0]),
        ([0, 0, 255, 255], [0, 0, 255]), ([255, 255, 255, 128], [128, 128, 128]),
    ]

    static func quadrantCMYK(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let quadrant = (y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)
                let offset = (y * width + x) * 4
                pixels.replaceSubrange(offset..<offset + 4, with: quadrants[quadrant].cmyk)
            }
        }
        return pixels
    }

    /// The colour at each quadrant's centre, within `tolerance` of what it should be.
    static func expectQuadrants(_ image: RGBAImage, tolerance: Int, _ context: String) {
        for (index, quadrant) in quadrants.enumerated() {
            let x = image.width / 4 + (index % 2) * image.width / 2
            let y = image.height / 4 + (index / 2) * image.height / 2
            let offset = (y * image.width + x) * 4
            let pixel = image.pixels[offset..<offset + 4].map(Int.init)
            let close = zip(pixel.prefix(3), quadrant.rgb).allSatisfy { abs($0 - $1) <= tolerance }
            #expect(close && pixel[3] == 255, "\(context): quadrant \(index) is \(pixel), expected \(quadrant.rgb)")
        }
    }

    @Test func aYCCKJPEGDecodesToRGBAtFullSizeAndScaled() throws {
        let (width, height) = (320, 240)
        let jpeg = TestImages.ycckJPEG(width: width, height: height, cmyk: Self.quadrantCMYK(width: width, height: height))
        #expect(ImageFormat(sniffing: jpeg) == .jpeg)

        let full = try decoder.decode(jpeg)
        #expect(full.size == PixelSize(width: 320, height: 240))
        Self.expectQuadrants(full, tolerance: 6, "full size")

        // DCT scaling still applies: 1/8 covers 40×30.
        let scaled = try decoder.decode(jpeg, atLeast: PixelSize(width: 40, height: 30))
        #expect(scaled.size == PixelSize(width: 40, height: 30))
        Self.expectQuadrants(scaled, tolerance: 6, "scaled by TurboJPEG")

        for box in [PixelSize(width: 8, height: 8), PixelSize(width: 97, height: 55), PixelSize(width: 4000, height: 4000)] {
            let preview = try decoder.decode(jpeg, fittingIn: box)
            #expect(preview.size == PixelSize(width: 320, height: 240).fitting(in: box), "\(box)")
            let general = AreaDownscaler.downscale(try decoder.decode(jpeg, atLeast: box), fittingIn: box)
            #expect(preview == general, "\(box)")
            Self.expectQuadrants(preview, tolerance: 12, "preview in \(box)")
        }
    }

    /// Polarity follows the Adobe marker: the same stored values are inverted CMYK with it
    /// (R = C·K / 255) and plain ink amounts without it (R = (255 − C)(255 − K) / 255).
    @Test func theAdobeMarkerDecidesThePolarity() throws {
        let stored: [UInt8] = [255, 0, 128, 128]
        let adobe = try decoder.decode(TestImages.solidCMYKJPEG(stored, adobeMarker: true))
        #expect(adobe.size == PixelSize(width: 8, height: 8))
        #expect(Array(adobe.pixels.prefix(4)) == [128, 0, 64, 255])
        let plain = try decoder.decode(TestImages.solidCMYKJPEG(stored, adobeMarker: false))
        #expect(Array(plain.pixels.prefix(4)) == [0, 127, 63, 255])
        let uniform = Set(stride(from: 0, to: plain.pixels.count, by: 4).map { plain.pixels[$0 + 1] })
        #expect(uniform == [127])
    }

    /// The ImageMagick-made seeds of the fuzz corpus (YCCK with the Adobe marker).
    @Test func theCorpusCMYKSeedsDecode() throws {
        let directory = FuzzSeedTests.corpusDirectory.appendingPathComponent("image-jpeg")
        let photo = try Data(contentsOf: directory.appendingPathComponent("cmyk.jpg"))
        #expect(try decoder.size(of: photo) == PixelSize(width: 24, height: 18))
        let preview = try decoder.decode(photo, fittingIn: PixelSize(width: 8, height: 8))
        #expect(preview.size == PixelSize(width: 8, height: 6))
        #expect(Set(preview.pixels).count > 10)

        // cmyk(0, 255, 127, 127) as ink amounts, made by ImageMagick: RGB (255, 0, 128) × 128/255.
        let solid = try decoder.decode(try Data(contentsOf: directory.appendingPathComponent("cmyk-solid.jpg")))
        let pixel = solid.pixels.prefix(4).map(Int.init)
        let close = zip(pixel, [128, 0, 64, 255]).allSatisfy { abs($0 - $1) <= 3 }
        #expect(close, "\(pixel)")
    }
}
