import Foundation
import Testing
import PostFeedImaging

/// Headers whose dimensions the libraries refuse before PostFeed sees them still get
/// PostFeed's message naming them: an image of no pixels says so (it used to read as a
/// corrupt file, and "not a PNG, JPEG, GIF or WebP image" upstream), and a PNG or WebP
/// canvas beyond what libpng and libwebp accept is a bomb with its dimensions and the
/// limit, like every other (they said "Invalid IHDR data" and "unreadable WebP header").
@Suite struct DimensionMessageTests {
    let decoder = ImageDecoder()

    /// The error of `size(of:)`, `decode(_:)` and `decode(_:fittingIn:)`, which must agree.
    func errors(_ data: Data) -> [ImageDecodingError] {
        var errors: [ImageDecodingError] = []
        do { _ = try decoder.size(of: data) } catch { errors.append(error) }
        do { _ = try decoder.decode(data) } catch { errors.append(error) }
        do { _ = try decoder.decode(data, fittingIn: PixelSize(width: 64, height: 64)) } catch { errors.append(error) }
        return errors
    }

    /// A JPEG made by TurboJPEG with its frame header's height and width replaced.
    static func jpeg(width: UInt16, height: UInt16) -> Data {
        var bytes = [UInt8](TestImages.jpeg(TestImages.gradient(width: 16, height: 16)))
        var index = 2
        while index + 8 < bytes.count, !(bytes[index] == 0xFF && bytes[index + 1] == 0xC0) {
            index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
        }
        bytes.replaceSubrange(index + 5..<index + 9, with: [UInt8(height >> 8), UInt8(height & 0xFF),
                                                            UInt8(width >> 8), UInt8(width & 0xFF)])
        return Data(bytes)
    }

    static func gif(width: UInt8, height: UInt8) -> Data {
        var gif = Array("GIF89a".utf8)
        gif += [width, 0, height, 0, 0x80, 0x00, 0x00, 255, 0, 0, 0, 0, 0]
        gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        return Data(gif)
    }

    @Test(arguments: [(0, 0), (0, 12), (12, 0)])
    func anImageOfNoPixelsSaysSo(width: Int, height: Int) throws {
        let images: [(ImageFormat, Data)] = [
            (.gif, Self.gif(width: UInt8(width), height: UInt8(height))),
            (.png, TestImages.pngHeader(width: UInt32(width), height: UInt32(height))),
            (.jpeg, Self.jpeg(width: UInt16(width), height: UInt16(height))),
        ]
        for (format, data) in images {
            #expect(ImageFormat(sniffing: data) == format)
            let errors = errors(data)
            #expect(errors.count == 3, "\(format)")
            for error in errors {
                #expect(error.format == format && error.isCorrupt, "\(format): \(error.message)")
                #expect(error.message == "\(format.rawValue.uppercased()) image has no pixels (\(width)×\(height))",
                        "\(format): \(error.message)")
            }
        }
    }

    @Test func aPNGWiderThanLibPNGAcceptsIsABomb() throws {
        for (width, height) in [(UInt32(0x7FFF_FFFF), UInt32(1)), (1, 0x7FFF_FFFF), (0x7FFF_FFFF, 0x7FFF_FFFF)] {
            let errors = errors(TestImages.pngHeader(width: width, height: height))
            #expect(errors.count == 3)
            for error in errors {
                #expect(error.isTooLarge && error.format == .png, "\(error.message)")
                #expect(error.message.contains("\(width)×\(height)") && error.message.contains("100000000"), "\(error.message)")
            }
        }
    }

    @Test func aWebPCanvasLibWebPRefusesIsABomb() throws {
        // RIFF, WEBP, then a VP8X chunk declaring the largest canvas (2^24 × 2^24).
        var webp = Array("RIFF".utf8) + [22, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0]
        webp += [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let data = Data(webp)
        #expect(ImageFormat(sniffing: data) == .webp)
        let errors = errors(data)
        #expect(errors.count == 3)
        for error in errors {
            #expect(error.isTooLarge && error.format == .webp, "\(error.message)")
            #expect(error.message.contains("16777216×16777216") && error.message.contains("100000000"), "\(error.message)")
        }
    }
}

extension DimensionMessageTests {
    /// What the image pipeline says of a body it turns away (it said "is not a PNG, JPEG,
    /// GIF or WebP image" of a 0×0 GIF).
    @Test func aRejectedBodySaysWhatIsWrongWithItsHeader() {
        #expect(ImageDecoder.rejectionReason(for: Self.gif(width: 0, height: 0))
                == "is not a usable image: GIF image has no pixels (0×0)")
        #expect(ImageDecoder.rejectionReason(for: TestImages.pngHeader(width: 0, height: 7))
                == "is not a usable image: PNG image has no pixels (0×7)")
        #expect(ImageDecoder.rejectionReason(for: Data("<html>".utf8)) == "is not a PNG, JPEG, GIF or WebP image")
    }
}
