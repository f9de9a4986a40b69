import ArgumentParser
import Foundation
import PostFeed
import PostFeedPreview

struct StateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Show or reset the saved list state of each mode.",
        discussion: """
            Examples:
              postfeed state show
              postfeed state show --json
              postfeed state reset                 both modes
              postfeed state reset --mode paged
            """,
        subcommands: [Show.self, Reset.self],
        defaultSubcommand: Show.self)

    struct Options: ParsableArguments {
        @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Cache root (see 'postfeed --help').", valueName: "dir"))
        var cacheDirectory: String?

        func validate() throws {
            try BackendOptions.validateCacheDirectory(cacheDirectory)
        }

        /// The state store of the cache root, as a client on it uses (no cache is opened).
        var store: ListStateStore { ListStateStore(cacheRoot: CacheLocation.resolve(explicit: cacheDirectory).root) }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print each mode's saved state.")
        @OptionGroup var options: Options
        @Flag(help: "Print the state files' JSON.")
        var json = false

        func run() throws {
            let store = options.store
            var states: [String: ListState] = [:]
            for mode in ListMode.allCases {
                let file = store.fileURL(for: mode)
                // Read as the store reads: by name in State/, never through a link.
                let bytes: Data?
                do {
                    bytes = try store.contents(ofFileNamed: mode.stateFileName, maximumBytes: ListStateStore.maximumFileSize)
                } catch {
                    Terminal.note("postfeed: \(RecoveryAdvice.message(for: error))")
                    continue
                }
                guard let bytes else {
                    if !json { print("\(mode): no saved state (\(PostRenderer.displayPath(file)))") }
                    continue
                }
                // In the words `list` and `page` use for the same file.
                switch ListState.checked(fileData: bytes) {
                case .success(let state):
                    states[mode.rawValue] = state
                    if !json { print(Self.summary(state, file: file)) }
                case .failure(let problem):
                    Terminal.note(
                        "postfeed: \(PostRenderer.displayPath(file)) \(problem); the next run sets it aside and starts fresh")
                }
            }
            if json { try JSONOutput.print(states) }
        }

        static func summary(_ state: ListState, file: URL) -> String {
            var lines = ["\(state.mode) (\(PostRenderer.displayPath(file))), saved \(state.savedAt.formatted(.iso8601))"]
            lines.append("  backend \(state.backendIdentity), page size \(state.pageSize)")
            switch state.mode {
            case .infinite:
                let total = state.totalCount.map { " of \($0)" } ?? ""
                // A place carried over from paged mode knows pages up to it, not yet their posts.
                let pagesWithPosts = min(
                    state.loadedPageKeys.count,
                    state.loadedPageCounts?.count ?? PlaceConverter.page(forPosition: state.loadedPostIDs.count, pageSize: state.pageSize)
                        - (state.loadedPostIDs.isEmpty ? 1 : 0))
                let toRead = state.loadedPageKeys.count - pagesWithPosts
                var loaded = state.loadedPostIDs.isEmpty && toRead > 0
                    ? "\(counted(toRead, "page")) to read back from the page cache"
                    : "\(counted(state.loadedPostIDs.count, "post")) loaded in \(counted(pagesWithPosts, "page"))\(total)"
                if !state.loadedPostIDs.isEmpty, toRead > 0 {
                    loaded += ", \(toRead) more page\(toRead == 1 ? "" : "s") to read back from the page cache"
                }
                lines.append("  \(loaded); next \(state.nextPageKey?.description ?? "none (end reached)")")
            case .paged:
                let page = state.currentPage ?? 1
                // The key is worth showing only when it is not just the page's number.
                let key = state.currentPageKey.flatMap { $0 == .number(page) ? nil : " (\($0))" } ?? ""
                lines.append("  page \(page)\(key)\(state.totalCount.map { " of \($0) posts" } ?? "")")
            }
            if let anchor = state.anchor { lines.append("  in view: post #\(anchor.position) (id \(anchor.postID.shown))") }
            if !state.seenPostIDs.isEmpty { lines.append("  seen: \(counted(state.seenPostIDs.count, "post"))") }
            return lines.joined(separator: "\n")
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reset", abstract: "Forget the saved place (caches are kept).")
        @OptionGroup var options: Options
        @Option(
            help: "infinite or paged; both when omitted.", completion: .list(ListMode.names),
            transform: { try ListMode.parse($0, option: "--mode") })
        var mode: ListMode?

        func run() throws {
            let store = options.store
            do {
                if let mode {
                    let removed = try store.reset(mode: mode)
                    print(removed ? "\(mode) state removed" : "\(mode): no saved state")
                } else {
                    let removed = try store.resetAll()
                    print(removed ? "list state removed" : "no saved state")
                }
            } catch {
                throw CLIError(RecoveryAdvice.message(for: error))
            }
        }
    }
}
