import Foundation

extension ListStateStore {
    /// What ``ListStateStore/load(mode:backendIdentity:setAside:)`` found.
    public enum LoadResult: Sendable, Equatable {
        /// No state was saved for this mode: start at the top.
        case none
        /// The saved state, ready to restore.
        case restored(ListState)
        /// A state file was there but could not be used; start at the top and tell the user
        /// ``DiscardReason/message``. `movedTo` is where the file was kept aside, or `nil`
        /// when it could not be moved (a read-only folder) and was left in place.
        case discarded(DiscardReason, movedTo: URL?)
    }

    /// Why a state file was not restored.
    public struct DiscardReason: Sendable, Hashable, CustomStringConvertible {
        /// What was wrong with the file. Compare with the static members.
        public struct Kind: Sendable, Hashable, CustomStringConvertible {
            fileprivate enum Base: String, Sendable, Hashable {
                case unreadable, corrupt, newerVersion = "newer version", otherBackend = "other backend"
                case otherMode = "other mode"
            }
            fileprivate let base: Base

            /// The file could not be read.
            public static let unreadable = Kind(base: .unreadable)
            /// Not JSON, truncated, or not list state (a missing field, a bad value).
            public static let corrupt = Kind(base: .corrupt)
            /// Written by a newer PostFeed with a schema this one does not know.
            public static let newerVersion = Kind(base: .newerVersion)
            /// Saved for another backend.
            public static let otherBackend = Kind(base: .otherBackend)
            /// Holds the other mode's state.
            public static let otherMode = Kind(base: .otherMode)

            /// A short name, e.g. `other backend`.
            public var description: String { base.rawValue }
        }

        /// What was wrong with the file.
        public let kind: Kind
        /// The state file that was discarded (its original path).
        public let file: URL
        /// One line for the user: the file, what was wrong, where it went, "starting fresh".
        /// `…/pagination-state.json was saved for backend A, not B; moved aside to
        /// …/pagination-state.json.corrupt-20250501T100000Z; starting fresh`
        public let message: String

        /// The one-line ``message``.
        public var description: String { message }
    }
}
