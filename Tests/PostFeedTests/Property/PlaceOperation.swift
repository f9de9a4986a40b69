import Foundation
import PostFeed
import PostFeedServer

/// One step a reader (or a second process, or the world) takes, for the property test of
/// the reader's place. Each step is one "run" of PostFeed: a new ``FeedClient`` on the
/// shared cache root, as each `postfeed` command is.
enum PlaceOperation: Sendable, CustomStringConvertible {
    /// `postfeed list --pages N` (with `--restart`, `--unseen` as given).
    case list(pages: Int, pageSize: Int, restart: Bool, unseen: Bool)
    /// `postfeed page K`.
    case page(Int, pageSize: Int)
    /// `postfeed page --next` / `--previous`.
    case step(forward: Bool, pageSize: Int)
    /// `postfeed mode X`.
    case switchMode(ListMode, pageSize: Int)
    /// `mode <other>` then `mode <this>`: the reader must be back on the same post.
    case roundTrip(pageSize: Int)
    /// Refresh from the network, back to page 1.
    case refresh(pageSize: Int)
    /// Another process saves while this one has the state loaded (`browse` left open).
    case concurrentList(pages: Int, pageSize: Int, otherRestarts: Bool)
    /// The backend grows or shrinks: later runs talk to backend `index` (same identity).
    case resizeBackend(index: Int)
    /// A state file damaged between runs.
    case damage(ListMode, Damage)
    /// `postfeed browse`: opens the infinite feed at its place and shows `screens` screens
    /// of `rows` posts in the backend's order, loads `ahead` pages it never shows (the next
    /// page loaded ahead, the background catalog walk), with `popularity` shows one screen
    /// of the loaded posts most popular first (seen, no place), and quits (saving).
    case browse(pageSize: Int, rows: Int, screens: Int, ahead: Int, popularity: Bool)

    enum Damage: Int, Sendable, CaseIterable {
        case truncated, garbage, hugeAnchor, negativeTotal, pageZero, millionAnchor
    }

    var description: String {
        switch self {
        case .list(let pages, let size, let restart, let unseen):
            "list --pages \(pages) --page-size \(size)\(restart ? " --restart" : "")\(unseen ? " --unseen" : "")"
        case .page(let number, let size): "page \(number) --page-size \(size)"
        case .step(let forward, let size): "page --\(forward ? "next" : "previous") --page-size \(size)"
        case .switchMode(let mode, let size): "mode \(mode) --page-size \(size)"
        case .roundTrip(let size): "mode round trip --page-size \(size)"
        case .refresh(let size): "refresh --page-size \(size)"
        case .concurrentList(let pages, let size, let restarts):
            "second process: list --pages \(pages)\(restarts ? " --restart" : "") --page-size \(size) while one is open"
        case .resizeBackend(let index): "backend now serves size #\(index)"
        case .damage(let mode, let damage): "damage \(mode) state: \(damage)"
        case .browse(let size, let rows, let screens, let ahead, let popularity):
            "browse --page-size \(size): \(screens) screen(s) of \(rows), \(ahead) page(s) loaded unseen\(popularity ? ", s" : "")"
        }
    }

    /// A random operation from `random`; `backends` is how many backend sizes exist.
    static func random(using random: inout SplitMix64, backends: Int) -> PlaceOperation {
        // Mostly the default page size; sometimes another, to exercise resizing.
        let size = Int.random(in: 0..<5, using: &random) == 0 ? 7 : 10
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<5:
            return .list(pages: Int.random(in: 1..<4, using: &random), pageSize: size, restart: Int.random(in: 0..<8, using: &random) == 0, unseen: Int.random(in: 0..<6, using: &random) == 0)
        case 5..<7: return .page(Int.random(in: 1..<40, using: &random), pageSize: size)
        case 7..<9: return .step(forward: Int.random(in: 0..<3, using: &random) != 0, pageSize: size)
        case 9..<11: return .switchMode(Int.random(in: 0..<2, using: &random) == 0 ? .infinite : .paged, pageSize: size)
        case 11..<13: return .roundTrip(pageSize: size)
        case 13: return .refresh(pageSize: size)
        case 14..<16: return .concurrentList(pages: Int.random(in: 1..<3, using: &random), pageSize: size, otherRestarts: Int.random(in: 0..<4, using: &random) == 0)
        case 16..<18: return .resizeBackend(index: Int.random(in: 0..<backends, using: &random))
        default:
            let damage = Damage.allCases[Int.random(in: 0..<Damage.allCases.count, using: &random)]
            return .damage(Int.random(in: 0..<2, using: &random) == 0 ? .infinite : .paged, damage)
        }
    }

    /// As ``random(using:backends:)``, with browse-like sessions in one step of three.
    static func randomWithBrowse(using random: inout SplitMix64, backends: Int) -> PlaceOperation {
        guard Int.random(in: 0..<3, using: &random) == 0 else { return Self.random(using: &random, backends: backends) }
        return .browse(
            pageSize: Int.random(in: 0..<4, using: &random) == 0 ? 7 : 10, rows: Int.random(in: 1..<15, using: &random),
            screens: Int.random(in: 0..<4, using: &random), ahead: Int.random(in: 0..<8, using: &random),
            popularity: Int.random(in: 0..<3, using: &random) == 0)
    }
}
