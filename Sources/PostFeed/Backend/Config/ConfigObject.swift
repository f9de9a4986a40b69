import Foundation

/// One JSON object of a backend config file, read field by field with the path of each
/// field kept for error messages; fields never read are reported as unknown.
struct ConfigObject {
    let members: [String: JSONValue]
    /// The object's own path (`""` at the root, `pagination`, …).
    let path: String
    let file: URL?

    init(_ value: JSONValue, path: String, file: URL?) throws(BackendConfigurationError) {
        guard case .object(let members) = value else {
            throw BackendConfigurationError(
                file: file, field: path.isEmpty ? nil : path,
                message: "expected an object, got \(value.typeDescription)")
        }
        // A repeated key keeps its last value, as in any JSON reader.
        self.members = Dictionary(members, uniquingKeysWith: { _, last in last })
        self.path = path
        self.file = file
    }

    func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func error(_ key: String?, _ message: String) -> BackendConfigurationError {
        BackendConfigurationError(file: file, field: key.map(fieldPath) ?? (path.isEmpty ? nil : path), message: message)
    }

    /// Whether `key` is present and not null.
    func has(_ key: String) -> Bool {
        guard let value = members[key] else { return false }
        return !value.isNull
    }

    /// A non-empty string, or `nil` when absent or null.
    func string(_ key: String) throws(BackendConfigurationError) -> String? {
        guard let value = members[key], !value.isNull else { return nil }
        guard case .string(let text) = value else {
            throw error(key, "expected a string, got \(value.typeDescription)")
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw error(key, "must not be empty") }
        return trimmed
    }

    /// A string that may be empty, or `nil` when absent or null.
    func possiblyEmptyString(_ key: String) throws(BackendConfigurationError) -> String? {
        guard let value = members[key], !value.isNull else { return nil }
        guard case .string(let text) = value else {
            throw error(key, "expected a string, got \(value.typeDescription)")
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// `true` or `false`, or `nil` when absent or null.
    func bool(_ key: String) throws(BackendConfigurationError) -> Bool? {
        guard let value = members[key], !value.isNull else { return nil }
        guard case .bool(let flag) = value else { throw error(key, "expected true or false, got \(value.typeDescription)") }
        return flag
    }

    /// A field path (``FieldPath``): a non-empty string whose syntax can be followed.
    func fieldPath(_ key: String) throws(BackendConfigurationError) -> String? {
        guard let path = try string(key) else { return nil }
        if let problem = FieldPath.problem(path) { throw error(key, problem) }
        return path
    }

    func integer(_ key: String) throws(BackendConfigurationError) -> Int? {
        guard let value = members[key], !value.isNull else { return nil }
        if case .number(let literal) = value {
            if let number = Int(literal) { return number }
            if let number = Double(literal), number.rounded() == number, abs(number) < 1e9 { return Int(number) }
        }
        throw error(key, "expected a whole number, got \(value.typeDescription)")
    }

    /// A string or an array of non-empty strings (at least one).
    func stringList(_ key: String) throws(BackendConfigurationError) -> [String]? {
        guard let value = members[key], !value.isNull else { return nil }
        switch value {
        case .string:
            return try string(key).map { [$0] }
        case .array(let elements):
            var names: [String] = []
            for (index, element) in elements.enumerated() {
                guard case .string(let text) = element, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw error("\(key)[\(index)]", "expected a non-empty string, got \(element.typeDescription)")
                }
                names.append(text.trimmingCharacters(in: .whitespaces))
            }
            guard !names.isEmpty else { throw error(key, "needs at least one field name") }
            return names
        default:
            throw error(key, "expected a field name or an array of field names, got \(value.typeDescription)")
        }
    }

    func object(_ key: String) throws(BackendConfigurationError) -> ConfigObject? {
        guard let value = members[key], !value.isNull else { return nil }
        return try ConfigObject(value, path: fieldPath(key), file: file)
    }

    /// Throws for the first key not in `known`, so a typo is reported instead of ignored.
    /// Keys starting with `//` are comments.
    func rejectUnknownKeys(_ known: [String]) throws(BackendConfigurationError) {
        for key in members.keys.sorted() where !known.contains(key) && !key.hasPrefix("//") {
            throw error(key, "unknown field; known fields here: \(known.joined(separator: ", "))")
        }
    }
}
