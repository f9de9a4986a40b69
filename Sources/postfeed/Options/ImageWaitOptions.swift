import ArgumentParser
import Foundation
import PostFeed
import PostFeedPreview

/// `--image-wait SECONDS` of `list` and `page`: how long a page's text waits for its images.
struct ImageWaitOptions: ParsableArguments {
    /// The wait when the option is not given.
    static let defaultSeconds = 2.0

    @Option(
        name: .customLong("image-wait"), parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a page's text waits for its images (default 2; 0 prints at once). Images still loading are shown so, finish in the background before postfeed exits, and are cached for the next run.",
            valueName: "seconds"))
    var imageWait: Double = Self.defaultSeconds

    func validate() throws {
        guard imageWait.isFinite, imageWait >= 0, imageWait <= BackendDescription.maximumRequestTimeout else {
            throw ValidationError(
                "--image-wait \(imageWait) is out of range; give seconds from 0 to \(Int(BackendDescription.maximumRequestTimeout)).")
        }
    }

    /// The wait as a duration, in whole milliseconds; out-of-range values (only possible
    /// before ``validate()``) are clamped, never trapped on.
    var duration: Duration {
        let seconds = imageWait.isFinite ? min(max(imageWait, 0), BackendDescription.maximumRequestTimeout) : Self.defaultSeconds
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
