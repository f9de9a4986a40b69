import ArgumentParser
import Foundation
import PostFeed
import PostFeedPreview

struct Mode: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mode",
        abstract: "Show the current list mode, or switch to another keeping your place.",
        discussion: """
            Switching carries the post in view over: infinite at post #37 with page size 10
            opens paged mode at page 4, and back. Naming the current mode changes nothing.

            Examples:
              postfeed mode
              postfeed mode paged
              postfeed mode infinite
            """)

    @OptionGroup var backend: BackendOptions

    @Argument(
        help: "infinite or paged", completion: .list(ListMode.names),
        transform: { try ListMode.parse($0, option: "mode") })
    var target: ListMode?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        try await Session.run(backend) { client in
            guard let mode = target else {
                let (mode, notices) = client.currentMode()
                notices.forEach { Terminal.note("postfeed: \($0)") }
                if json { return try JSONOutput.print(["mode": mode.rawValue]) }
                print(mode.rawValue)
                return
            }
            let report: ModeSwitchReport
            do {
                report = try client.switchMode(to: mode)
            } catch {
                throw CLIError(RecoveryAdvice.message(for: error))
            }
            report.notices.forEach { Terminal.note("postfeed: \($0)") }
            if json {
                return try JSONOutput.print(ModeOutput(
                    mode: report.to.rawValue, page: report.page, anchorPostID: report.anchor?.postID,
                    anchorPosition: report.anchor?.position, startedFresh: report.startedFresh,
                    alreadyCurrent: report.alreadyCurrent))
            }
            var line = "\(report.to.rawValue) mode"
            if let page = report.page { line += " at page \(page)" }
            if let anchor = report.anchor { line += ", post #\(anchor.position) (id \(anchor.postID.shown)) in view" }
            if report.startedFresh { line += " (no place to carry over: from the top)" }
            if report.alreadyCurrent { line += " (already the current mode: nothing changed)" }
            print(line)
        }
    }
}

struct ModeOutput: Encodable {
    var mode: String
    var page: Int?
    var anchorPostID: PostID?
    var anchorPosition: Int?
    var startedFresh: Bool
    var alreadyCurrent: Bool
}
