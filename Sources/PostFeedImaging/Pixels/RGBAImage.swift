/// Decoded pixels: RGBA, 8 bits per channel, straight (unassociated) alpha, rows packed
/// top to bottom with no padding (`width * 4` bytes per row).
public struct RGBAImage: Sendable, Equatable {
    public let size: PixelSize
    public let pixels: [UInt8]

    public var width: Int { size.width }
    public var height: Int { size.height }
    public var bytesPerRow: Int { size.width * 4 }

    /// - Precondition: `pixels.count == width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "RGBAImage: \(pixels.count) bytes for \(width)×\(height)")
        self.size = PixelSize(width: width, height: height)
        self.pixels = pixels
    }
}
