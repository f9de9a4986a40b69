import Foundation

/// An image's format and size, read from its header bytes without decoding it.
public struct ImageInfo: Sendable, Hashable, Codable {
    /// The formats sniffing recognises; the raw value (`png`, …) is what the disk cache keeps
    /// in its `format` attribute.
    public enum Format: String, Sendable, Hashable, Codable, CaseIterable {
        /// Each recognised by its magic bytes; see ``ImageInfo/init(sniffing:)``.
        case png, jpeg, gif, webp

        /// The usual file name extension, without the dot: `png`, `jpg`, `gif`, `webp`.
        public var fileExtension: String {
            self == .jpeg ? "jpg" : rawValue
        }

        /// The MIME type servers should send with this format.
        public var mimeType: String {
            switch self {
            case .png: "image/png"
            case .jpeg: "image/jpeg"
            case .gif: "image/gif"
            case .webp: "image/webp"
            }
        }
    }

    /// The format the header bytes identify.
    public var format: Format
    /// Width in pixels, from the header; above 0 when sniffed.
    public var width: Int
    /// Height in pixels, from the header; above 0 when sniffed.
    public var height: Int

    /// Makes an info from known values, without checking any bytes.
    public init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Sniffs PNG, JPEG, GIF and WebP by their magic bytes and reads the dimensions from
    /// the header. Returns `nil` for anything else: an HTML error page served with `200`,
    /// a truncated header, an unknown format.
    ///
    /// ```swift
    /// ImageInfo(sniffing: pngData)   // ImageInfo(format: .png, width: 640, height: 480)
    /// ```
    public init?(sniffing data: Data) {
        let bytes = [UInt8](data.prefix(Self.headerLimit))
        guard let info = Self.png(bytes) ?? Self.gif(bytes) ?? Self.webp(bytes) ?? Self.jpeg(bytes) else {
            return nil
        }
        self = info
    }

    /// How much of a file sniffing reads at most: JPEG's frame header may sit behind EXIF
    /// data and an embedded thumbnail.
    public static let headerLimit = 512 * 1024

    // MARK: Formats

    private static func png(_ b: [UInt8]) -> ImageInfo? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard b.count >= 24, Array(b[0..<8]) == signature, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        return sized(.png, width: be32(b, 16), height: be32(b, 20))
    }

    private static func gif(_ b: [UInt8]) -> ImageInfo? {
        guard b.count >= 10, Array(b[0..<6]) == Array("GIF87a".utf8) || Array(b[0..<6]) == Array("GIF89a".utf8) else {
            return nil
        }
        return sized(.gif, width: le16(b, 6), height: le16(b, 8))
    }

    private static func webp(_ b: [UInt8]) -> ImageInfo? {
        guard b.count >= 30, Array(b[0..<4]) == Array("RIFF".utf8), Array(b[8..<12]) == Array("WEBP".utf8) else {
            return nil
        }
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8 ":
            // Lossy: frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return sized(.webp, width: le16(b, 26) & 0x3FFF, height: le16(b, 28) & 0x3FFF)
        case "VP8L":
            // Lossless: signature 0x2F, then 14 bits width-1 and 14 bits height-1.
            guard b[20] == 0x2F else { return nil }
            let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
            return sized(.webp, width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            // Extended: 24-bit canvas width-1 and height-1.
            let width = Int(b[24]) | Int(b[25]) << 8 | Int(b[26]) << 16
            let height = Int(b[27]) | Int(b[28]) << 8 | Int(b[29]) << 16
            return sized(.webp, width: width + 1, height: height + 1)
        default:
            return nil
        }
    }

    private static func jpeg(_ b: [UInt8]) -> ImageInfo? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var index = 2
        while index + 9 < b.count {
            guard b[index] == 0xFF else { return nil }
            let marker = b[index + 1]
            if marker == 0xFF { index += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { index += 2; continue }
            let length = be16(b, index + 2)
            guard length >= 2 else { return nil }
            // SOF0…SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) do not.
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                return sized(.jpeg, width: be16(b, index + 7), height: be16(b, index + 5))
            }
            if marker == 0xDA || marker == 0xD9 { return nil }  // scan data before any frame header
            index += 2 + length
        }
        return nil
    }

    // MARK: Bytes

    private static func sized(_ format: Format, width: Int, height: Int) -> ImageInfo? {
        guard width > 0, height > 0 else { return nil }
        return ImageInfo(format: format, width: width, height: height)
    }

    private static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func le16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func be32(_ b: [UInt8], _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }
}
