/// The area average of ``AreaDownscaler``, fed one source row at a time, top to bottom:
/// a decoder hands it each row as it comes out and never holds the whole image (memory
/// is two target rows of sums plus the target itself). Rows are resampled horizontally
/// first (rounded to 8 bits), then averaged vertically, weighting colour by alpha, so
/// the result is the same, to the bit, as ``AreaDownscaler/downscale(_:to:)``. Opaque
/// RGB rows (3 channels) take a shorter path: with every alpha 255 the alpha-weighted
/// average is the plain weighted one, and its rounding a shift instead of a division.
struct RowDownscaler {
    let source: PixelSize
    let target: PixelSize
    /// 3: every row is RGB, opaque; 4: RGBA, straight alpha.
    let channels: Int
    private let columns: AreaSpans
    private let rows: AreaSpans
    /// The first target row not yet written out: a source row contributes to it and at
    /// most the one after (a source row is never taller than a target row when scaling
    /// down).
    private var pendingRow = 0
    /// Sums of two target rows in progress: `[r, g, b, a]` per pixel, alpha-weighted
    /// (4 channels), or `[r, g, b]` (opaque rows, 3 channels; at most 255 × 2¹⁶, so
    /// 32 bits hold them); the target row `t` uses slot `t % 2`.
    private var sums: [Int]
    private var opaqueSums: [UInt32]
    /// The horizontally resampled current row: RGBA, or RGB for opaque rows.
    private var resampled: [UInt8]
    /// Opaque rows when no target column covers more than two source columns (a scale
    /// of at most 2:1, what TurboJPEG's DCT scaling leaves): each target column's first
    /// source column and the two weights, the second 0 when it covers one column.
    private let pairs: [(first: Int, weights: (UInt32, UInt32))]?
    private var output: [UInt8]
    private var nextRow = 0

    /// A downscaler of `source.height` rows of `source.width` pixels of `channels` (3 or
    /// 4) bytes each.
    /// - Precondition: `0 < target.width <= source.width`, `0 < target.height <= source.height`.
    init(from source: PixelSize, to target: PixelSize, channels: Int) {
        self.source = source
        self.target = target
        self.channels = channels == 3 ? 3 : 4
        columns = AreaSpans(from: source.width, to: target.width)
        rows = AreaSpans(from: source.height, to: target.height)
        let opaque = self.channels == 3
        sums = opaque ? [] : [Int](repeating: 0, count: 2 * target.width * 4)
        opaqueSums = opaque ? [UInt32](repeating: 0, count: 2 * target.width * 3) : []
        resampled = [UInt8](repeating: 0, count: target.width * self.channels)
        pairs = opaque ? Self.pairs(of: columns, sourceWidth: source.width) : nil
        output = [UInt8](repeating: 0, count: target.width * target.height * 4)
    }

    /// True once every source row has been added.
    var isComplete: Bool { nextRow == source.height }

    /// Adds the next source row: `source.width` pixels of `channels` bytes each. Rows past
    /// the last are ignored.
    mutating func add(row: UnsafePointer<UInt8>) {
        guard nextRow < source.height else { return }
        if channels == 3 {
            resampleOpaque(row)
        } else {
            resampleWithAlpha(row)
        }
        accumulate(sourceRow: nextRow)
        nextRow += 1
    }

    /// Adds the next source row of RGBA (`channels` 4) whose pixels outside the source
    /// columns `visible` are all transparent (0, 0, 0, 0): only the target columns that
    /// cover part of `visible` are computed, the same result as ``add(row:)`` on the
    /// whole row at a cost that follows `visible`, not the source width. A frame drawn on
    /// a much larger canvas (a GIF's logical screen) is downscaled this way.
    mutating func add(row: UnsafePointer<UInt8>, visible: Range<Int>) {
        guard nextRow < source.height else { return }
        var lower = 0
        while lower < target.width, columns.first[lower] + columns.count[lower] <= visible.lowerBound { lower += 1 }
        var upper = lower
        while upper < target.width, columns.first[upper] < visible.upperBound { upper += 1 }
        resampleWithAlpha(row, targetColumns: lower..<upper)
        accumulate(sourceRow: nextRow)
        nextRow += 1
    }

    /// Adds the next source row as wholly transparent, without reading a row: what
    /// ``add(row:)`` would do with a row of zeros (4 channels), at the cost of the target
    /// width.
    mutating func addTransparentRow() {
        guard nextRow < source.height else { return }
        resampleWithAlpha(nil, targetColumns: 0..<0)
        accumulate(sourceRow: nextRow)
        nextRow += 1
    }

    /// The downscaled image; rows never added are transparent black.
    func image() -> RGBAImage {
        RGBAImage(width: target.width, height: target.height, pixels: output)
    }

    /// Each target column as (first source column, its weight, the next one's weight),
    /// or `nil` when some target column covers more than two source columns. A column
    /// that covers one source column gets a second weight of 0 on a neighbour that
    /// exists (the one before at the right edge), so the pair never reads past the row.
    private static func pairs(of columns: AreaSpans, sourceWidth: Int) -> [(first: Int, weights: (UInt32, UInt32))]? {
        guard sourceWidth >= 2 else { return nil }
        var pairs: [(first: Int, weights: (UInt32, UInt32))] = []
        pairs.reserveCapacity(columns.first.count)
        for x in columns.first.indices {
            let first = columns.first[x], offset = columns.offset[x]
            switch columns.count[x] {
            case 1 where first + 1 < sourceWidth:
                pairs.append((first, (UInt32(columns.weights[offset]), 0)))
            case 1:
                pairs.append((first - 1, (0, UInt32(columns.weights[offset]))))
            case 2:
                pairs.append((first, (UInt32(columns.weights[offset]), UInt32(columns.weights[offset + 1]))))
            default:
                return nil
            }
        }
        return pairs
    }

    /// Opaque RGB: the alpha-weighted average reduces to the plain weighted one (every
    /// alpha is 255), with the same rounding. Written as RGB.
    private mutating func resampleOpaque(_ row: UnsafePointer<UInt8>) {
        if let pairs {
            pairs.withUnsafeBufferPointer { pairs in
            resampled.withUnsafeMutableBufferPointer { out in
                guard let out = out.baseAddress else { return }
                for x in 0..<pairs.count {
                    let (first, (w0, w1)) = pairs[x]
                    let a = row + first * 3
                    let r = w0 &* UInt32(a[0]) &+ w1 &* UInt32(a[3])
                    let g = w0 &* UInt32(a[1]) &+ w1 &* UInt32(a[4])
                    let b = w0 &* UInt32(a[2]) &+ w1 &* UInt32(a[5])
                    let pixel = out + x * 3
                    pixel[0] = UInt8(truncatingIfNeeded: (r &+ 32768) >> 16)
                    pixel[1] = UInt8(truncatingIfNeeded: (g &+ 32768) >> 16)
                    pixel[2] = UInt8(truncatingIfNeeded: (b &+ 32768) >> 16)
                }
            }}
            return
        }
        columns.first.withUnsafeBufferPointer { first in
        columns.count.withUnsafeBufferPointer { count in
        columns.offset.withUnsafeBufferPointer { offset in
        columns.weights.withUnsafeBufferPointer { weights in
        resampled.withUnsafeMutableBufferPointer { out in
            guard let out = out.baseAddress, let weights = weights.baseAddress else { return }
            for x in 0..<first.count {
                var source = row + first[x] * 3
                let w = weights + offset[x]
                var r = 0, g = 0, b = 0
                for i in 0..<count[x] {
                    let weight = w[i]
                    r &+= weight &* Int(source[0])
                    g &+= weight &* Int(source[1])
                    b &+= weight &* Int(source[2])
                    source += 3
                }
                let pixel = out + x * 3
                pixel[0] = UInt8(truncatingIfNeeded: (r &+ 32768) >> 16)
                pixel[1] = UInt8(truncatingIfNeeded: (g &+ 32768) >> 16)
                pixel[2] = UInt8(truncatingIfNeeded: (b &+ 32768) >> 16)
            }
        }}}}}
    }

    /// Resamples `row` into `resampled` for the target columns `targetColumns` (all of
    /// them by default); the other columns are set transparent, as they would be
    /// computed from transparent pixels.
    private mutating func resampleWithAlpha(_ row: UnsafePointer<UInt8>?, targetColumns: Range<Int>? = nil) {
        let computed = targetColumns ?? 0..<target.width
        if computed != 0..<target.width {
            resampled.withUnsafeMutableBufferPointer { out in
                for index in 0..<computed.lowerBound * 4 { out[index] = 0 }
                for index in computed.upperBound * 4..<out.count { out[index] = 0 }
            }
        }
        guard let row, !computed.isEmpty else { return }
        columns.first.withUnsafeBufferPointer { first in
        columns.count.withUnsafeBufferPointer { count in
        columns.offset.withUnsafeBufferPointer { offset in
        columns.weights.withUnsafeBufferPointer { weights in
        resampled.withUnsafeMutableBufferPointer { out in
            guard let out = out.baseAddress, let weights = weights.baseAddress else { return }
            for x in computed {
                var source = row + first[x] * 4
                let w = weights + offset[x]
                var r = 0, g = 0, b = 0, a = 0
                for i in 0..<count[x] {
                    let alphaWeight = w[i] &* Int(source[3])
                    r &+= alphaWeight &* Int(source[0])
                    g &+= alphaWeight &* Int(source[1])
                    b &+= alphaWeight &* Int(source[2])
                    a &+= alphaWeight
                    source += 4
                }
                Self.store(r, g, b, a, at: out + x * 4)
            }
        }}}}}
    }

    /// Adds the resampled row `y` to the sums of the target rows it covers, and writes
    /// out each target row it completes.
    private mutating func accumulate(sourceRow y: Int) {
        let width = target.width
        var t = pendingRow
        while t < target.height, rows.first[t] <= y {
            let index = y - rows.first[t]
            guard index < rows.count[t] else {
                t += 1
                continue
            }
            let weight = rows.weights[rows.offset[t] + index]
            let slot = (t & 1) * width * channels
            if channels == 3 {
                // One run over r, g, b of the row: the compiler vectorizes it.
                let weight = UInt32(truncatingIfNeeded: weight)
                resampled.withUnsafeBufferPointer { row in
                    opaqueSums.withUnsafeMutableBufferPointer { sums in
                        guard let row = row.baseAddress, let sums = sums.baseAddress else { return }
                        let sum = sums + slot
                        for i in 0..<width * 3 { sum[i] &+= weight &* UInt32(row[i]) }
                    }
                }
            } else {
            resampled.withUnsafeBufferPointer { row in
                sums.withUnsafeMutableBufferPointer { sums in
                    guard let row = row.baseAddress, let sums = sums.baseAddress else { return }
                    let sum = sums + slot
                    for x in 0..<width {
                        let pixel = row + x * 4
                        let alphaWeight = weight &* Int(pixel[3])
                        let s = sum + x * 4
                        s[0] &+= alphaWeight &* Int(pixel[0])
                        s[1] &+= alphaWeight &* Int(pixel[1])
                        s[2] &+= alphaWeight &* Int(pixel[2])
                        s[3] &+= alphaWeight
                    }
                }
            }
            }
            if index == rows.count[t] - 1 {
                finish(targetRow: t, slot: slot)
                pendingRow = t + 1
            }
            t += 1
        }
    }

    private mutating func finish(targetRow t: Int, slot: Int) {
        let width = target.width
        if channels == 3 {
            opaqueSums.withUnsafeMutableBufferPointer { sums in
                output.withUnsafeMutableBufferPointer { output in
                    guard let sums = sums.baseAddress, let output = output.baseAddress else { return }
                    let sum = sums + slot
                    let out = output + t * width * 4
                    for x in 0..<width {
                        let s = sum + x * 3
                        let pixel = out + x * 4
                        pixel[0] = UInt8(truncatingIfNeeded: (s[0] &+ 32768) >> 16)
                        pixel[1] = UInt8(truncatingIfNeeded: (s[1] &+ 32768) >> 16)
                        pixel[2] = UInt8(truncatingIfNeeded: (s[2] &+ 32768) >> 16)
                        pixel[3] = 255
                    }
                    sum.update(repeating: 0, count: width * 3)
                }
            }
            return
        }
        sums.withUnsafeMutableBufferPointer { sums in
            output.withUnsafeMutableBufferPointer { output in
                guard let sums = sums.baseAddress, let output = output.baseAddress else { return }
                let sum = sums + slot
                let out = output + t * width * 4
                for x in 0..<width {
                    let s = sum + x * 4
                    Self.store(s[0], s[1], s[2], s[3], at: out + x * 4)
                    s[0] = 0; s[1] = 0; s[2] = 0; s[3] = 0
                }
            }
        }
    }

    /// The rounded average of alpha-weighted sums: colour divided by the alpha weight,
    /// alpha back from 16-bit fixed point. Fully transparent is stored as 0, 0, 0, 0.
    @inline(__always)
    private static func store(_ r: Int, _ g: Int, _ b: Int, _ a: Int, at pixel: UnsafeMutablePointer<UInt8>) {
        if a == 0 {
            pixel[0] = 0; pixel[1] = 0; pixel[2] = 0; pixel[3] = 0
            return
        }
        let half = a / 2
        pixel[0] = UInt8(clamping: (r + half) / a)
        pixel[1] = UInt8(clamping: (g + half) / a)
        pixel[2] = UInt8(clamping: (b + half) / a)
        pixel[3] = UInt8(clamping: (a + 32768) >> 16)
    }
}
