import FoundationEssentials
import PostFeedImaging

/// Decode and render timed inside one process, `runs` times over the same bytes (read from
/// the file once, before timing): the first run apart (it pays for the libraries' first
/// use: chafa's symbol tables, TurboJPEG's tables), then min / median / max of the rest.
/// Prints one Markdown table row.
enum InProcessTiming {
    static func run(_ data: Data, options: PreviewOptions, runs: Int, name: String) throws {
        let clock = ContinuousClock()
        let renderer = options.renderer
        var decodeTimes: [Double] = [], renderTimes: [Double] = [], totals: [Double] = []
        var outputBytes = 0
        for _ in 0..<runs {
            let start = clock.now
            let image = try Preview.decode(data, options: options, renderer: renderer)
            let decoded = clock.now
            let output = renderer.render(image, fittingIn: options.cells)
            let end = clock.now
            outputBytes = output.utf8.count
            decodeTimes.append(seconds(start.duration(to: decoded)))
            renderTimes.append(seconds(decoded.duration(to: end)))
            totals.append(seconds(start.duration(to: end)))
        }
        func summary(_ values: [Double]) -> String {
            let first = values[0]
            let rest = values.count > 1 ? Array(values.dropFirst()).sorted() : values
            let shown = [first, rest[0], rest[rest.count / 2], rest[rest.count - 1]].map(milliseconds)
            return "\(shown[0]) | \(shown[1]) / \(shown[2]) / \(shown[3])"
        }
        let decodeMode = options.fullDecode ? "full" : "scaled"
        print("| \(name) | \(options.format.rawValue) | \(decodeMode) | \(summary(decodeTimes)) | \(summary(renderTimes)) | \(summary(totals)) | \(outputBytes) |")
    }

    /// `seconds` in milliseconds with two decimals ("6.07"), without Foundation's `String(format:)`.
    private static func milliseconds(_ seconds: Double) -> String {
        let hundredths = Int((seconds * 100_000).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
