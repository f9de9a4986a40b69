/// The two ways of reading the list. Each keeps its own state file.
public enum ListMode: String, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Pages are appended as the reader nears the end.
    case infinite
    /// The reader jumps between numbered pages.
    case paged

    /// The name of this mode's file in `<cacheRoot>/State/`.
    public var stateFileName: String {
        switch self {
        case .infinite: "infinite-scroll-state.json"
        case .paged: "pagination-state.json"
        }
    }

    /// `infinite` or `paged`, as in the JSON and on the command line.
    public var description: String { rawValue }
}
