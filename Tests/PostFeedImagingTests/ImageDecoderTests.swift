import Foundation
import Testing
import PostFeedImaging

@Suite struct ImageDecoderTests {
    let decoder = ImageDecoder()

    @Test func decodesEveryFixtureImage() throws {
        let files = try FileManager.default.contentsOfDirectory(
            at: TestImages.fixturesDirectory, includingPropertiesForKeys: nil)
        let images = files.filter { ["jpg", "png"].contains($0.pathExtension) }
        let jpegs = images.filter { $0.pathExtension == "jpg" }
        #expect(jpegs.count == 48)
        let pngs = images.filter { $0.pathExtension == "png" }
        #expect(pngs.count == 24)
        for file in images {
            let data = try Data(contentsOf: file)
            let header = try decoder.size(of: data)
            let image = try decoder.decode(data)
            #expect(image.size == header, "\(file.lastPathComponent)")
            #expect(image.pixels.count == header.width * header.height * 4)
            let preview = try decoder.decode(data, fittingIn: PixelSize(width: 64, height: 64))
            #expect(preview.width <= 64 && preview.height <= 64)
            #expect(preview.width == 64 || preview.height == 64 || (header.width <= 64 && header.height <= 64))
        }
    }

    @Test func decodesGeneratedWebPAndGIF() throws {
        let source = TestImages.gradient(width: 120, height: 80)
        let webp = TestImages.webp(source)
        #expect(ImageFormat(sniffing: webp) == .webp)
        let decodedWebP = try decoder.decode(webp)
        #expect(decodedWebP.size == PixelSize(width: 120, height: 80))
        // Lossy, but the red gradient survives: left edge dark, right edge bright.
        #expect(decodedWebP.pixels[0] < 40 && decodedWebP.pixels[119 * 4] > 215)
        let scaledWebP = try decoder.decode(webp, atLeast: PixelSize(width: 60, height: 60))
        #expect(scaledWebP.size == PixelSize(width: 60, height: 40))

        for interlaced in [false, true] {
            let gif = TestImages.gif(source, interlaced: interlaced)
            #expect(ImageFormat(sniffing: gif) == .gif)
            let decodedGIF = try decoder.decode(gif)
            #expect(decodedGIF.size == PixelSize(width: 120, height: 80))
            // Palette entry i is (i, 255 - i, 128); the index was the source's red.
            for (x, y) in [(0, 0), (60, 17), (119, 79), (33, 41)] {
                let offset = (y * 120 + x) * 4
                let red = source.pixels[offset]
                #expect(Array(decodedGIF.pixels[offset..<offset + 4]) == [red, 255 - red, 128, 255],
                        "interlaced \(interlaced) at \(x),\(y)")
            }
        }
    }

    @Test func jpegIsDecodedStraightToAScaledSize() throws {
        let jpeg = TestImages.jpeg(TestImages.gradient(width: 1600, height: 1200))
        let clock = ContinuousClock()
        var full: RGBAImage?
        let fullTime = try clock.measure { full = try decoder.decode(jpeg) }
        var scaled: RGBAImage?
        let scaledTime = try clock.measure { scaled = try decoder.decode(jpeg, atLeast: PixelSize(width: 200, height: 150)) }
        #expect(full?.size == PixelSize(width: 1600, height: 1200))
        let scaledSize = try #require(scaled?.size)
        #expect(scaledSize.width <= 400 && scaledSize.height <= 300)
        #expect(scaledSize.width >= 200 && scaledSize.height >= 150)
        let fitted = try decoder.decode(jpeg, fittingIn: PixelSize(width: 200, height: 150))
        #expect(fitted.size == PixelSize(width: 200, height: 150))
        print("JPEG 1600×1200 decode: full \(fullTime), scaled to \(scaledSize) \(scaledTime)")
    }

    @Test func aPNGBombIsRefusedFromItsHeader() throws {
        let bomb = TestImages.pngHeader(width: 50_000, height: 50_000)
        #expect(bomb.count < 4096)
        let error = try #require(throws: ImageDecodingError.self) { try decoder.decode(bomb) }
        #expect(error.isTooLarge)
        #expect(error.message.contains("50000×50000"))
        #expect(error.message.contains("100000000"))
        #expect(!error.message.contains("\n"))
    }

    @Test func aGIFWithAHugeLogicalScreenIsRefused() throws {
        var gif = Array("GIF89a".utf8)
        gif += [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00]  // 65535×65535, no colour table
        gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        let error = try #require(throws: ImageDecodingError.self) { try decoder.decode(Data(gif)) }
        #expect(error.isTooLarge)
        #expect(error.message.contains("65535×65535"))
    }

    @Test func theLimitIsAParameter() throws {
        let png = TestImages.pngHeader(width: 2000, height: 1000)
        let small = ImageDecoder(maximumPixelCount: 1_000_000)
        let error = try #require(throws: ImageDecodingError.self) { try small.size(of: png) }
        #expect(error.message.contains("2000×1000") && error.message.contains("1000000"))
        #expect(try ImageDecoder().size(of: png) == PixelSize(width: 2000, height: 1000))
    }

    /// Every format's bytes cut short and with garbage after the signature fail with one
    /// line, never a trap; and every prefix of each is either decoded or refused.
    @Test(arguments: ImageFormat.allCases)
    func truncatedAndCorruptImagesFailWithOneLine(_ format: ImageFormat) throws {
        let source = TestImages.gradient(width: 64, height: 48)
        let data: Data = switch format {
        case .jpeg: TestImages.jpeg(source)
        case .png: try Data(contentsOf: TestImages.fixturesDirectory.appendingPathComponent("img-003.png"))
        case .webp: TestImages.webp(source)
        case .gif: TestImages.gif(source)
        }
        #expect(ImageFormat(sniffing: data) == format)
        _ = try decoder.decode(data)

        let truncated = data.prefix(data.count / 2)
        let truncatedError = try #require(throws: ImageDecodingError.self) { try decoder.decode(Data(truncated)) }
        #expect(truncatedError.format == format)
        #expect(!truncatedError.message.isEmpty && !truncatedError.message.contains("\n"))

        var corrupt = [UInt8](data)
        let signatureLength = format == .webp ? 12 : (format == .gif ? 6 : 8)
        for index in signatureLength..<min(corrupt.count, signatureLength + 40) { corrupt[index] = 0xFF }
        let corruptError = try #require(throws: ImageDecodingError.self) { try decoder.decode(Data(corrupt)) }
        #expect(!corruptError.message.contains("\n"))

        let step = max(1, data.count / 97)
        for length in stride(from: 0, to: data.count, by: step) {
            do {
                _ = try decoder.decode(Data(data.prefix(length)))
            } catch {
                #expect(!error.message.contains("\n"))
                // A cut never passes for an empty image (TurboJPEG said 0×0, without an
                // error, for data ending before the frame header).
                #expect(!error.message.contains("no pixels"), "\(length) bytes: \(error.message)")
            }
        }
    }

    @Test func unknownBytesAreNotAnImage() {
        let error = #expect(throws: ImageDecodingError.self) { try decoder.decode(Data("hello".utf8)) }
        #expect(error?.isUnrecognizedFormat == true)
    }
}
