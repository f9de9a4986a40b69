import Foundation

/// The nested parts of a config file: pagination, total, end signals, fields.
extension BackendDescription {
    static func parsePagination(_ root: ConfigObject) throws(BackendConfigurationError) -> PaginationStyle {
        let object: ConfigObject
        if case .string(let style)? = root.members["pagination"] {
            // Shorthand: "pagination": "offset" uses the default parameter names.
            object = try ConfigObject(.object(["style": .string(style)]), path: "pagination", file: root.file)
        } else if let nested = try root.object("pagination") {
            object = nested
        } else {
            throw root.error("pagination", "must not be null")
        }
        guard let style = try object.string("style") else {
            throw object.error("style", "missing; use \"page\", \"offset\", \"cursor\" or \"link\"")
        }
        switch style.lowercased() {
        case "page", "pagenumber", "page-number":
            try object.rejectUnknownKeys(["style", "page", "limit"])
            return .pageNumber(page: try object.string("page") ?? "page", limit: try object.string("limit") ?? "limit")
        case "offset":
            try object.rejectUnknownKeys(["style", "offset", "limit"])
            return .offset(offset: try object.string("offset") ?? "offset", limit: try object.string("limit") ?? "limit")
        case "cursor":
            try object.rejectUnknownKeys(["style", "cursor", "limit", "nextCursorField"])
            return .cursor(
                cursor: try object.string("cursor") ?? "cursor", limit: try object.string("limit") ?? "limit",
                nextCursorField: try object.string("nextCursorField") ?? "nextCursor")
        case "link", "linkheader", "link-header":
            try object.rejectUnknownKeys(["style", "limit"])
            if object.members["limit"]?.isNull == true { return .linkHeader(limit: nil) }
            return .linkHeader(limit: try object.string("limit") ?? "limit")
        default:
            throw object.error("style", "unknown style \"\(style)\"; use \"page\", \"offset\", \"cursor\" or \"link\"")
        }
    }

    static func parseTotal(_ root: ConfigObject) throws(BackendConfigurationError) -> TotalSource {
        guard let object = try root.object("total") else { return .unknown }
        try object.rejectUnknownKeys(["header", "bodyField"])
        return TotalSource(header: try object.string("header"), bodyField: try object.string("bodyField"))
    }

    static func parseEndSignals(_ root: ConfigObject) throws(BackendConfigurationError) -> [EndSignal] {
        guard let value = root.members["end"], !value.isNull else { return [] }
        let elements: [JSONValue]
        switch value {
        case .array(let array): elements = array
        case .string: elements = [value]
        default: throw root.error("end", "expected an array of end signals, got \(value.typeDescription)")
        }
        var signals: [EndSignal] = []
        for (index, element) in elements.enumerated() {
            let field = "end[\(index)]"
            signals.append(try parseEndSignal(element, field: field, in: root))
        }
        return signals
    }

    private static func parseEndSignal(_ value: JSONValue, field: String, in root: ConfigObject)
        throws(BackendConfigurationError) -> EndSignal
    {
        let known = "use \"linkWithoutNext\", \"totalReached\", \"shortPage\", {\"flagFalse\": \"field\"} or {\"fieldNull\": \"field\"}"
        switch value {
        case .string(let text):
            let parts = text.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch (parts.first?.lowercased() ?? "", parts.count) {
            case ("linkwithoutnext", 1): return .linkWithoutNext
            case ("totalreached", 1): return .totalReached
            case ("shortpage", 1): return .shortPage
            case ("flagfalse", 2) where !parts[1].isEmpty: return .flagFalse(parts[1])
            case ("fieldnull", 2) where !parts[1].isEmpty: return .fieldNull(parts[1])
            default: throw root.error(field, "unknown end signal \"\(text)\"; \(known)")
            }
        case .object(let members) where members.count == 1:
            let object = try ConfigObject(value, path: root.fieldPath(field), file: root.file)
            if let flag = try object.string("flagFalse") { return .flagFalse(flag) }
            if let name = try object.string("fieldNull") { return .fieldNull(name) }
            try object.rejectUnknownKeys(["flagFalse", "fieldNull"])
            throw root.error(field, "empty end signal; \(known)")
        default:
            throw root.error(field, "expected an end signal, got \(value.typeDescription); \(known)")
        }
    }

    static func parseFields(_ object: ConfigObject, base: FieldMapping) throws(BackendConfigurationError) -> FieldMapping {
        try object.rejectUnknownKeys(["id", "title", "body", "author", "image", "createdAt", "popularity"])
        var fields = base
        if let names = try object.stringList("id") { fields.id = names }
        if let names = try object.stringList("title") { fields.title = names }
        if let names = try object.stringList("body") { fields.body = names }
        if let names = try object.stringList("author") { fields.author = names }
        if let names = try object.stringList("image") { fields.image = names }
        if let names = try object.stringList("createdAt") { fields.createdAt = names }
        if let names = try object.stringList("popularity") { fields.popularity = names }
        return fields
    }
}
