import Foundation
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
            return String(format: "%.2f | %.2f / %.2f / %.2f", first * 1000, rest[0] * 1000,
                          rest[rest.count / 2] * 1000, rest[rest.count - 1] * 1000)
        }
        let decodeMode = options.fullDecode ? "full" : "scaled"
        print("| \(name) | \(options.format.rawValue) | \(decodeMode) | \(summary(decodeTimes)) | \(summary(renderTimes)) | \(summary(totals)) | \(outputBytes) |")
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
