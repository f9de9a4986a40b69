import ArgumentParser
import PostFeed
import PostFeedPreview
import PostFeedServer

// The library's enums are the CLI's option types: one spelling everywhere, completion
// lists and "one of …" errors made from the cases.

extension ListMode: ExpressibleByArgument {}
extension FeedOrdering: ExpressibleByArgument {}
extension BackendPreset: ExpressibleByArgument {}

extension BackendPreset {
    /// What the built-in fixture backend serves for this preset (`serve --api`, and the
    /// backend started when no `--base-url` is given).
    var fixtureFlavor: BackendFlavor {
        fixtureFlavorServed
    }

    /// The built-in backend's path for this preset's list: the RSS feed for `feed`
    /// (`/feeds/rss/`), the server root for the rest.
    var builtInBasePath: String {
        self == .feed ? "/feeds/rss/" : ""
    }

    private var fixtureFlavorServed: BackendFlavor {
        switch self {
        case .postfeed, .postfeedCursor: .postFeed
        case .jsonServer: .jsonServer017
        case .jsonServerV1: .jsonServerV1
        case .dummyJSON: .dummyJSON
        case .wordpress: .wordpress
        case .mastodon: .mastodon
        case .hackernews: .hackernews
        case .reddit: .reddit
        case .ghost: .ghost
        case .lemmy: .lemmy
        case .discourse: .discourse
        case .forem: .forem
        // Every flavor serves the feeds of Fixtures/feeds/site under /feeds/.
        case .feed: .postFeed
        }
    }
}

/// A number given as a positional argument (`page 3`, `show 42`). ArgumentParser reads
/// `-1` as an unknown option; the argument takes every unrecognized token instead, so a
/// negative or mistyped number gets a message that says what is wrong.
enum NumberArgument {
    /// The one number among `tokens`, `nil` when there is none.
    /// - Parameters:
    ///   - what: the argument's name in messages (`page`, `post id`).
    ///   - minimum: the smallest valid value; below it, `below(value)` is the message.
    static func parse(_ tokens: [String], what: String, minimum: Int, below: (Int) -> String) throws -> Int? {
        // `--` ends the options; it is no argument of its own.
        let tokens = tokens.filter { $0 != "--" }
        guard let token = tokens.first else { return nil }
        guard tokens.count == 1 else {
            throw ValidationError("give one \(what), not \(tokens.count) ('\(tokens.joined(separator: " "))').")
        }
        guard let value = Int(token) else {
            if token.hasPrefix("-"), Int(token.dropFirst()) == nil {
                throw ValidationError("Unknown option '\(token)'.")
            }
            let digits = token.hasPrefix("-") ? token.dropFirst() : Substring(token)
            if !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) {
                throw ValidationError("\(what) \(token) is out of range; no \(what) is that \(token.hasPrefix("-") ? "small" : "large").")
            }
            throw ValidationError("'\(token)' is not a \(what); give a whole number.")
        }
        guard value >= minimum else { throw ValidationError(below(value)) }
        return value
    }
}

/// A post id given as the one positional argument (`show ID`, `image ID`): any id the
/// backend has, `42`, `t3_1abc`, `109876543210987654321` or `-5`, as it is.
enum PostIDArgument {
    /// The one id among `tokens`, `nil` when there is none.
    static func parse(_ tokens: [String]) throws -> PostID? {
        // `--` ends the options; it is no argument of its own.
        let tokens = tokens.filter { $0 != "--" }
        guard let token = tokens.first else { return nil }
        guard tokens.count == 1 else {
            throw ValidationError("give one post id, not \(tokens.count) ('\(tokens.joined(separator: " "))').")
        }
        // `--json` after the id: an option's spelling, no id (single dash: `-5` is an id).
        if token.hasPrefix("--") { throw ValidationError("Unknown option '\(token)'.") }
        guard let id = PostID(token) else {
            let problem = PostID.problem(with: token) ?? "is no post id"
            throw ValidationError("the post id \"\(PostID.escaped(String(token.prefix(80))))\" \(problem).")
        }
        return id
    }
}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// The names of the cases, for help texts and completion.
    static var names: [String] { allCases.map(\.rawValue) }

    /// The case named `text` (any letter case), or a usage error naming the option, the
    /// value and the choices: `--mode 'sideways' is unknown; use infinite or paged.`
    static func parse(_ text: String, option: String, orElse alternative: String = "") throws -> Self {
        if let value = allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) { return value }
        let choices = names.count == 2 ? names.joined(separator: " or ") : "one of " + names.joined(separator: ", ")
        throw ValidationError("\(option) '\(text)' is unknown; use \(choices)\(alternative).")
    }
}
