/// Why bytes could not be decoded: one line, naming the format and, for a refused image,
/// its dimensions and the limit. A struct over a private code so cases can be added.
public struct ImageDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case unrecognizedFormat
        case tooLarge
        case invalidDimensions
        case corrupt
    }

    private let code: Code
    /// The format, when it was recognized.
    public let format: ImageFormat?
    /// The one-line reason.
    public let message: String

    private init(_ code: Code, format: ImageFormat?, message: String) {
        self.code = code
        self.format = format
        // One line, whatever the C library said.
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    public var description: String { message }

    /// The bytes start like no supported format.
    public static func unrecognizedFormat(byteCount: Int) -> Self {
        Self(.unrecognizedFormat, format: nil,
             message: "not a JPEG, PNG, WebP or GIF image (\(byteCount) bytes)")
    }

    /// The header declares more pixels than the decoder accepts (a decompression bomb or
    /// simply too big); refused before any pixel buffer is allocated.
    public static func tooLarge(_ format: ImageFormat, size: PixelSize, limit: Int, what: String = "image") -> Self {
        Self(.tooLarge, format: format,
             message: "\(format.rawValue.uppercased()) \(what) of \(size.width)×\(size.height) pixels "
                + "(\(size.pixelCount) pixels) exceeds the limit of \(limit) pixels")
    }

    /// The header declares a zero or negative size: "GIF image has no pixels (0×0)".
    public static func invalidDimensions(_ format: ImageFormat, size: PixelSize) -> Self {
        let name = format.rawValue.uppercased()
        let message = size.width >= 0 && size.height >= 0
            ? "\(name) image has no pixels (\(size.width)×\(size.height))"
            : "\(name) image has invalid dimensions \(size.width)×\(size.height)"
        return Self(.invalidDimensions, format: format, message: message)
    }

    /// Truncated, corrupt or lying data; `reason` is the library's words.
    public static func corrupt(_ format: ImageFormat, _ reason: String) -> Self {
        Self(.corrupt, format: format, message: "corrupt \(format.rawValue.uppercased()) image: \(reason)")
    }

    public var isTooLarge: Bool { code == .tooLarge }
    public var isCorrupt: Bool { code == .corrupt || code == .invalidDimensions }
    public var isUnrecognizedFormat: Bool { code == .unrecognizedFormat }
}
