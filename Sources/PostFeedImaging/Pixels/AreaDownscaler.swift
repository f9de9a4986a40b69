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
    /// Separable: each row is resampled to the target width (rounded to 8 bits), then the
    /// rows are averaged vertically; colour is weighted by alpha in both passes, so
    /// transparent pixels do not darken their neighbours' edges. ``RowDownscaler`` does the
    /// work, one row at a time, as the row-streaming decoders use it.
    public static func downscale(_ image: RGBAImage, to target: PixelSize) -> RGBAImage {
        let source = image.size
        guard target != source, target.width > 0, target.height > 0,
              target.width <= source.width, target.height <= source.height else { return image }
        var scaler = RowDownscaler(from: source, to: target, channels: 4)
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            for y in 0..<source.height {
                scaler.add(row: base + y * image.bytesPerRow)
            }
        }
        return scaler.image()
    }
}
