import Foundation

/// Decides whether a state file's bytes may be restored for one mode and backend, and
/// if not, says why in words that fit after the file's name.
enum StateFileCheck {
    struct Problem: Error, CustomStringConvertible {
        let kind: ListStateStore.DiscardReason.Kind
        let description: String
    }

    /// Just enough of the file to tell a newer schema from a corrupt one: a newer
    /// version may have changed any other field.
    private struct Header: Decodable {
        let version: Int?
    }

    static func check(_ data: Data, mode: ListMode, backendIdentity: String) -> Result<ListState, Problem> {
        decode(data).flatMap { matching($0, mode: mode, backendIdentity: backendIdentity) }
    }

    /// The state in `data`, or why it is none (empty, not JSON, not list state, a newer
    /// version), whatever mode and backend it belongs to.
    static func decode(_ data: Data) -> Result<ListState, Problem> {
        guard !data.isEmpty else { return .failure(Problem(kind: .corrupt, description: "is empty")) }
        // A good file — nearly every run — is parsed once. Only a file that does not decode
        // is parsed again, up to three times, to say precisely what is wrong with it: with
        // 10,000 loaded ids those parses were a third of a restore's CPU time.
        if let state = try? ListState(jsonData: data) {
            if let problem = newerVersionProblem(state.version) { return .failure(problem) }
            return .success(state)
        }
        // Tell damaged bytes apart from JSON of the wrong shape, for the message.
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return .failure(Problem(kind: .corrupt, description: "is not JSON (damaged or cut short)"))
        }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            return .failure(Problem(kind: .corrupt, description: "is not list state (\(describe(error, in: object)))"))
        }
        guard let version = header.version else {
            return .failure(Problem(kind: .corrupt, description: "is not list state (it has no version)"))
        }
        if let problem = newerVersionProblem(version) { return .failure(problem) }
        let state: ListState
        do {
            state = try ListState(jsonData: data)
        } catch {
            return .failure(Problem(kind: .corrupt, description: "is not valid list state (\(describe(error, in: object)))"))
        }
        return .success(state)
    }

    private static func newerVersionProblem(_ version: Int) -> Problem? {
        guard version > ListState.currentVersion else { return nil }
        return Problem(
            kind: .newerVersion,
            description: "was saved by a newer PostFeed (state version \(version); this one reads up to "
                + "\(ListState.currentVersion)), update postfeed to use it")
    }

    /// `state` if it belongs to `mode` and `backendIdentity`, else why not.
    private static func matching(_ state: ListState, mode: ListMode, backendIdentity: String) -> Result<ListState, Problem> {
        if state.mode != mode {
            return .failure(Problem(kind: .otherMode, description: "holds \(state.mode) state, not \(mode)"))
        }
        if state.backendIdentity != backendIdentity {
            return .failure(Problem(
                kind: .otherBackend,
                description: "was saved for backend \(state.backendIdentity), not \(backendIdentity)"))
        }
        return .success(state)
    }

    /// One line naming the field and what is wrong with it.
    static func describe(_ error: any Error) -> String {
        let text: String
        switch error {
        case DecodingError.dataCorrupted(let context):
            let underlying = context.underlyingError.map { " \(String(describing: $0))" } ?? ""
            text = field(context.codingPath, suffix: ": ") + context.debugDescription + underlying
        case DecodingError.keyNotFound(let key, let context):
            text = "missing field \(field(context.codingPath + [key], suffix: ""))"
        case DecodingError.typeMismatch(let type, let context):
            text = context.codingPath.isEmpty
                ? "expected a JSON object" : field(context.codingPath, suffix: ": ") + "expected \(type)"
        case DecodingError.valueNotFound(let type, let context):
            text = field(context.codingPath, suffix: ": ") + "expected \(type), found null"
        default:
            text = "\(error)"
        }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// ``describe(_:)``, except that a number a whole-number field cannot hold (`2.5`,
    /// `2^70`) is named with its field: JSONDecoder says only that the data "was not valid
    /// JSON", without a path.
    static func describe(_ error: any Error, in object: Any) -> String {
        wholeNumberProblem(in: object) ?? describe(error)
    }

    /// The fields of list state that hold whole numbers (`Int`), as paths from the top;
    /// `[]` stands for every element of an array, `?` for the number or offset of a page key.
    private static let wholeNumberFields: [[String]] = [
        ["version"], ["generation"], ["pageSize"], ["totalCount"], ["currentPage"],
        ["anchor", "index"], ["anchor", "postID"], ["loadedPostIDs", "[]"], ["loadedPostIDs", "[]", "[]"],
        ["loadedPageCounts", "[]"],
        ["seenPostIDs", "[]"], ["seenPostIDs", "[]", "[]"],
        ["loadedPageKeys", "[]", "?"], ["nextPageKey", "?"], ["currentPageKey", "?"],
    ]

    /// The first whole-number field of `object` holding a number no `Int` can: a fraction,
    /// or out of range. `nil` when there is none (other mistakes are the decoder's to name).
    static func wholeNumberProblem(in object: Any) -> String? {
        for path in wholeNumberFields {
            if let problem = wholeNumberProblem(in: object, path: path[...], name: "") { return problem }
        }
        return nil
    }

    private static func wholeNumberProblem(in value: Any, path: ArraySlice<String>, name: String) -> String? {
        guard let step = path.first else {
            guard let number = value as? NSNumber, !(value is Bool) else { return nil }
            // The text as parsed: exact for integers of any size (a double would round
            // Int.max up past the range).
            let text = number.stringValue
            if Int(text) != nil { return nil }
            let double = number.doubleValue
            if !double.isFinite || double.rounded() != double { return "\(name): \(text) is not a whole number" }
            // A whole number written as a double (`1e3`) is read as one when it fits.
            if let whole = Int(exactly: double), whole.magnitude < 1 << 53 { return nil }
            return "\(name): \(text) is out of range (\(Int.min)…\(Int.max))"
        }
        let rest = path.dropFirst()
        switch step {
        case "[]":
            guard let array = value as? [Any] else { return nil }
            for (index, element) in array.enumerated() {
                if let problem = wholeNumberProblem(in: element, path: rest, name: "\(name)[\(index)]") { return problem }
            }
            return nil
        case "?":
            guard let key = value as? [String: Any] else { return nil }
            for style in ["number", "offset"] {
                if let element = key[style], let problem = wholeNumberProblem(in: element, path: rest, name: "\(name).\(style)") {
                    return problem
                }
            }
            return nil
        default:
            guard let object = value as? [String: Any], let element = object[step] else { return nil }
            return wholeNumberProblem(in: element, path: rest, name: name.isEmpty ? step : "\(name).\(step)")
        }
    }

    private static func field(_ path: [any CodingKey], suffix: String) -> String {
        guard !path.isEmpty else { return "" }
        return path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + suffix
    }
}
