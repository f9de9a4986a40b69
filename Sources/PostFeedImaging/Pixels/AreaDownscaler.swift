/// Box-filter (area average) downscaling: each output pixel is the average of the source
/// pixels its area covers, weighted by coverage. No upscaling: a source that already fits
/// is returned as it is.
public enum AreaDownscaler {
    /// Scales `image` down to the largest size that fits in `box`, keeping its aspect ratio.
    public static func downscale(_ image: RGBAImage, fittingIn box: PixelSize) -> RGBAImage {
        let target = image.size.fitting(in: box)
        return downscale(image, to: target)
    }

    /// Scales `image` down to exactly `target` (each dimension no larger than the source's).
    public static func downscale(_ image: RGBAImage, to target: PixelSize) -> RGBAImage {
        let source = image.size
        guard target != source, target.width > 0, target.height > 0,
              target.width <= source.width, target.height <= source.height else { return image }
        // Separable: rows first (source height × target width), then columns.
        let horizontal = resampleRows(image.pixels, width: source.width, height: source.height,
                                      to: target.width)
        let vertical = resampleColumns(horizontal, width: target.width, height: source.height,
                                       to: target.height)
        return RGBAImage(width: target.width, height: target.height, pixels: vertical)
    }

    /// The contributions of source samples 0..<sourceCount to each of targetCount outputs,
    /// in fixed point: weights of each output sum to `1 << 16`.
    private struct Span {
        var first: Int
        var weights: [Int]
    }

    private static func spans(from sourceCount: Int, to targetCount: Int) -> [Span] {
        // Output i covers [i * s / t, (i + 1) * s / t) in source units; work in units of
        // 1/t source pixels so every boundary is an integer.
        var result: [Span] = []
        result.reserveCapacity(targetCount)
        for i in 0..<targetCount {
            let start = i * sourceCount  // in 1/targetCount units
            let end = (i + 1) * sourceCount
            let firstPixel = start / targetCount
            let lastPixel = (end - 1) / targetCount
            var weights: [Int] = []
            var total = 0
            for pixel in firstPixel...lastPixel {
                let covered = min(end, (pixel + 1) * targetCount) - max(start, pixel * targetCount)
                weights.append(covered)
                total += covered
            }
            // Normalize to 16-bit fixed point, giving the rounding remainder to the largest.
            var fixed = weights.map { $0 * 65536 / total }
            let remainder = 65536 - fixed.reduce(0, +)
            if let largest = fixed.indices.max(by: { fixed[$0] < fixed[$1] }) { fixed[largest] += remainder }
            result.append(Span(first: firstPixel, weights: fixed))
        }
        return result
    }

    private static func resampleRows(_ pixels: [UInt8], width: Int, height: Int, to targetWidth: Int) -> [UInt8] {
        let spans = spans(from: width, to: targetWidth)
        var output = [UInt8](repeating: 0, count: targetWidth * height * 4)
        pixels.withUnsafeBufferPointer { src in
            output.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let rowIn = y * width * 4
                    let rowOut = y * targetWidth * 4
                    for (x, span) in spans.enumerated() {
                        accumulate(src, start: rowIn + span.first * 4, stride: 4, weights: span.weights,
                                   into: dst, at: rowOut + x * 4)
                    }
                }
            }
        }
        return output
    }

    private static func resampleColumns(_ pixels: [UInt8], width: Int, height: Int, to targetHeight: Int) -> [UInt8] {
        let spans = spans(from: height, to: targetHeight)
        var output = [UInt8](repeating: 0, count: width * targetHeight * 4)
        pixels.withUnsafeBufferPointer { src in
            output.withUnsafeMutableBufferPointer { dst in
                for (y, span) in spans.enumerated() {
                    for x in 0..<width {
                        accumulate(src, start: (span.first * width + x) * 4, stride: width * 4,
                                   weights: span.weights, into: dst, at: (y * width + x) * 4)
                    }
                }
            }
        }
        return output
    }

    /// Weighted average of `weights.count` RGBA samples `stride` bytes apart. Colour is
    /// weighted by alpha too, so transparent pixels do not darken their neighbours' edges.
    @inline(__always)
    private static func accumulate(
        _ src: UnsafeBufferPointer<UInt8>, start: Int, stride: Int, weights: [Int],
        into dst: UnsafeMutableBufferPointer<UInt8>, at offset: Int
    ) {
        var r = 0, g = 0, b = 0, a = 0
        var index = start
        for weight in weights {
            let alphaWeight = weight * Int(src[index + 3])
            r += alphaWeight * Int(src[index])
            g += alphaWeight * Int(src[index + 1])
            b += alphaWeight * Int(src[index + 2])
            a += alphaWeight
            index += stride
        }
        if a == 0 {
            dst[offset] = 0; dst[offset + 1] = 0; dst[offset + 2] = 0; dst[offset + 3] = 0
            return
        }
        dst[offset] = UInt8(clamping: (r + a / 2) / a)
        dst[offset + 1] = UInt8(clamping: (g + a / 2) / a)
        dst[offset + 2] = UInt8(clamping: (b + a / 2) / a)
        dst[offset + 3] = UInt8(clamping: (a + 32768) >> 16)
    }
}
