/// A width and height in pixels (or, for a terminal, in cells).
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var pixelCount: Int { width.multipliedReportingOverflow(by: height).partialValue }

    public var description: String { "\(width)×\(height)" }

    /// The largest size with this size's aspect ratio that fits in `box`, never larger than
    /// this size itself (no upscaling) and never smaller than 1×1.
    public func fitting(in box: PixelSize) -> PixelSize {
        guard width > 0, height > 0, box.width > 0, box.height > 0 else {
            return PixelSize(width: max(1, min(width, box.width)), height: max(1, min(height, box.height)))
        }
        if width <= box.width && height <= box.height { return self }
        // Compare width/box.width against height/box.height without floating point.
        if width * box.height >= height * box.width {
            let scaledHeight = max(1, (height * box.width + width / 2) / width)
            return PixelSize(width: box.width, height: min(scaledHeight, box.height))
        } else {
            let scaledWidth = max(1, (width * box.height + height / 2) / height)
            return PixelSize(width: min(scaledWidth, box.width), height: box.height)
        }
    }
}
