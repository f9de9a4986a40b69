import Foundation

/// Order statistics over a set of samples.
struct BenchSamples {
    private(set) var sorted: [Double]

    init(_ samples: [Double]) {
        sorted = samples.sorted()
    }

    var count: Int { sorted.count }
    var median: Double { percentile(50) }
    var minimum: Double { sorted.first ?? .nan }
    var maximum: Double { sorted.last ?? .nan }
    var mean: Double { sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count) }

    /// Nearest-rank percentile, `p` in 0…100.
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
