/// A frame drawn at an offset on a transparent canvas (a GIF's logical screen, an
/// animated WebP's canvas), produced at `target` size one canvas row at a time: memory
/// follows the target and the frame's width, never the canvas. At full size the rows go
/// straight into the image; smaller, through a ``RowDownscaler`` that skips the
/// transparent rows and columns around the frame (the same pixels as drawing the whole
/// canvas, then ``AreaDownscaler``).
struct FrameCanvas {
    let canvas: PixelSize
    /// The frame's place on the canvas; it may reach past the canvas's edges (clipped).
    let left: Int, top: Int
    let frame: PixelSize
    /// The output size: the canvas, or smaller (each dimension at most the canvas's).
    let target: PixelSize

    /// The canvas columns the frame covers.
    var visibleColumns: Range<Int> { min(left, canvas.width)..<min(left + frame.width, canvas.width) }
    /// The number of the frame's rows on the canvas (rows past the bottom are not drawn).
    var visibleRows: Int { max(0, min(frame.height, canvas.height - top)) }

    /// The image. `drawRow(y, pixels)` writes frame row `y` (0, 1, … in order, up to
    /// ``visibleRows``) as RGBA into `pixels`, which holds ``visibleColumns``'s count of
    /// pixels (straight alpha; 0, 0, 0, 0 where the frame is transparent).
    func render<E: Error>(
        _ drawRow: (Int, UnsafeMutableBufferPointer<UInt8>) throws(E) -> Void
    ) throws(E) -> RGBAImage {
        let columns = visibleColumns
        let rows = visibleRows
        // One canvas row: transparent outside the frame's columns, which each row rewrites.
        var line = [UInt8](repeating: 0, count: canvas.width * 4)
        if target == canvas {
            var pixels = [UInt8](repeating: 0, count: canvas.width * canvas.height * 4)
            for y in 0..<rows {
                try draw(row: y, columns: columns, into: &line, drawRow)
                let start = ((top + y) * canvas.width + columns.lowerBound) * 4
                pixels.replaceSubrange(start..<start + columns.count * 4,
                                       with: line[columns.lowerBound * 4..<columns.upperBound * 4])
            }
            return RGBAImage(width: canvas.width, height: canvas.height, pixels: pixels)
        }
        var scaler = RowDownscaler(from: canvas, to: target, channels: 4)
        for _ in 0..<min(top, canvas.height) { scaler.addTransparentRow() }
        for y in 0..<rows {
            try draw(row: y, columns: columns, into: &line, drawRow)
            line.withUnsafeBufferPointer { line in
                guard let base = line.baseAddress else { return }
                scaler.add(row: base, visible: columns)
            }
        }
        while !scaler.isComplete { scaler.addTransparentRow() }
        return scaler.image()
    }

    private func draw<E: Error>(
        row y: Int, columns: Range<Int>, into line: inout [UInt8],
        _ drawRow: (Int, UnsafeMutableBufferPointer<UInt8>) throws(E) -> Void
    ) throws(E) {
        try line.withUnsafeMutableBufferPointer { (line) throws(E) in
            guard let base = line.baseAddress else { return }
            try drawRow(y, UnsafeMutableBufferPointer(start: base + columns.lowerBound * 4, count: columns.count * 4))
        }
    }
}
