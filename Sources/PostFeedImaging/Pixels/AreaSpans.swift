/// The contributions of `sourceCount` source samples to each of `targetCount` outputs of
/// an area average, flattened for tight loops: output `i` averages the samples
/// `first[i] ..< first[i] + count[i]`, with the weights `weights[offset[i] ..< offset[i] +
/// count[i]]`, in 16-bit fixed point (each output's weights sum to `1 << 16`).
struct AreaSpans {
    let first: [Int]
    let count: [Int]
    let offset: [Int]
    let weights: [Int]

    /// - Precondition: `0 < targetCount <= sourceCount`.
    init(from sourceCount: Int, to targetCount: Int) {
        // Output i covers [i * s / t, (i + 1) * s / t) in source units; work in units of
        // 1/t source pixels so every boundary is an integer.
        var first: [Int] = [], count: [Int] = [], offset: [Int] = [], weights: [Int] = []
        first.reserveCapacity(targetCount)
        count.reserveCapacity(targetCount)
        offset.reserveCapacity(targetCount)
        weights.reserveCapacity(targetCount + sourceCount)
        var covered: [Int] = []
        for i in 0..<targetCount {
            let start = i * sourceCount
            let end = (i + 1) * sourceCount
            let firstPixel = start / targetCount
            let lastPixel = (end - 1) / targetCount
            covered.removeAll(keepingCapacity: true)
            var total = 0
            for pixel in firstPixel...lastPixel {
                let part = min(end, (pixel + 1) * targetCount) - max(start, pixel * targetCount)
                covered.append(part)
                total += part
            }
            // Normalize to 16-bit fixed point, giving the rounding remainder to the largest.
            var fixed = covered.map { $0 * 65536 / total }
            let remainder = 65536 - fixed.reduce(0, +)
            if let largest = fixed.indices.max(by: { fixed[$0] < fixed[$1] }) { fixed[largest] += remainder }
            first.append(firstPixel)
            count.append(fixed.count)
            offset.append(weights.count)
            weights.append(contentsOf: fixed)
        }
        self.first = first
        self.count = count
        self.offset = offset
        self.weights = weights
    }
}
