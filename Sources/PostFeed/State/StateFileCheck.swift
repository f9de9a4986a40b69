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
        guard !data.isEmpty else { return .failure(Problem(kind: .corrupt, description: "is empty")) }
        // A good file — nearly every run — is parsed once. Only a file that does not decode
        // is parsed again, up to three times, to say precisely what is wrong with it: with
        // 10,000 loaded ids those parses were a third of a restore's CPU time.
        if let state = try? ListState(jsonData: data) {
            if let problem = newerVersionProblem(state.version) { return .failure(problem) }
            return matching(state, mode: mode, backendIdentity: backendIdentity)
        }
        // Tell damaged bytes apart from JSON of the wrong shape, for the message.
        guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
            return .failure(Problem(kind: .corrupt, description: "is not JSON (damaged or cut short)"))
        }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            return .failure(Problem(kind: .corrupt, description: "is not list state (\(describe(error)))"))
        }
        guard let version = header.version else {
            return .failure(Problem(kind: .corrupt, description: "is not list state (it has no version)"))
        }
        if let problem = newerVersionProblem(version) { return .failure(problem) }
        let state: ListState
        do {
            state = try ListState(jsonData: data)
        } catch {
            return .failure(Problem(kind: .corrupt, description: "is not valid list state (\(describe(error)))"))
        }
        return matching(state, mode: mode, backendIdentity: backendIdentity)
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

    private static func field(_ path: [any CodingKey], suffix: String) -> String {
        guard !path.isEmpty else { return "" }
        return path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + suffix
    }
}
