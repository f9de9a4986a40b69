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
        let styles = "use \"page\", \"offset\", \"cursor\", \"link\" or \"nextURL\""
        guard let style = try object.string("style") else {
            throw object.error("style", "missing; \(styles)")
        }
        switch style.lowercased() {
        case "page", "pagenumber", "page-number":
            try object.rejectUnknownKeys(["style", "page", "limit", "first"])
            return .pageNumber(page: try object.string("page") ?? "page", limit: try object.string("limit") ?? "limit")
        case "nexturl", "next-url", "bodyurl":
            try object.rejectUnknownKeys(["style", "field", "limit"])
            guard let field = try object.fieldPath("field") else {
                throw object.error("field", "missing; name the body field holding the next page's URL, e.g. \"next_url\"")
            }
            let limit: String? = object.members["limit"]?.isNull == true ? nil : try object.string("limit") ?? "limit"
            return .nextURL(field: field, limit: limit)
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
            throw object.error("style", "unknown style \"\(style)\"; \(styles)")
        }
    }

    /// `pagination.first`: the number of the backend's first page in the `page` style, 0 or 1.
    static func parseFirstPageNumber(_ root: ConfigObject) throws(BackendConfigurationError) -> Int? {
        guard case .object? = root.members["pagination"], let object = try root.object("pagination"),
              let first = try object.integer("first")
        else { return nil }
        guard first == 0 || first == 1 else {
            throw object.error("first", "must be 0 or 1 (the number of the backend's first page), got \(first)")
        }
        return first
    }

    /// `endStatus`: error statuses that mean the end, each `{"status": 400, "code": "…"}` or a bare status.
    static func parseEndStatuses(_ root: ConfigObject) throws(BackendConfigurationError) -> [EndStatus] {
        guard let value = root.members["endStatus"], !value.isNull else { return [] }
        let elements: [JSONValue]
        if case .array(let array) = value { elements = array } else { elements = [value] }
        var statuses: [EndStatus] = []
        for (index, element) in elements.enumerated() {
            let field = "endStatus[\(index)]"
            let status: Int?
            var code: String?
            switch element {
            case .number:
                status = element.integerValue
            case .object:
                let object = try ConfigObject(element, path: root.fieldPath(field), file: root.file)
                try object.rejectUnknownKeys(["status", "code"])
                status = try object.integer("status")
                code = try object.string("code")
            default:
                throw root.error(field, "expected a status such as 400 or {\"status\": 400, \"code\": \"…\"}, got \(element.typeDescription)")
            }
            guard let status, (400...599).contains(status) else {
                throw root.error(field, "needs a \"status\" from 400 to 599")
            }
            statuses.append(EndStatus(status: status, code: code))
        }
        return statuses
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
        let known = "use \"linkWithoutNext\", \"totalReached\", \"shortPage\", {\"flagFalse\": \"field\"}, {\"fieldNull\": \"field\"}, "
            + "{\"fieldMissing\": \"field\"}, {\"pageCountField\": \"field\"} or {\"pageCountHeader\": \"header\"}"
        let withField: [(String, (String) -> EndSignal)] = [
            ("flagfalse", EndSignal.flagFalse), ("fieldnull", EndSignal.fieldNull), ("fieldmissing", EndSignal.fieldMissing),
            ("pagecountfield", EndSignal.pageCountField), ("pagecountheader", EndSignal.pageCountHeader),
        ]
        switch value {
        case .string(let text):
            let parts = text.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch (parts.first?.lowercased() ?? "", parts.count) {
            case ("linkwithoutnext", 1): return .linkWithoutNext
            case ("totalreached", 1): return .totalReached
            case ("shortpage", 1): return .shortPage
            case (let name, 2) where !parts[1].isEmpty:
                guard let make = withField.first(where: { $0.0 == name })?.1 else {
                    throw root.error(field, "unknown end signal \"\(text)\"; \(known)")
                }
                if name != "pagecountheader", let problem = FieldPath.problem(parts[1]) { throw root.error(field, problem) }
                return make(parts[1])
            default: throw root.error(field, "unknown end signal \"\(text)\"; \(known)")
            }
        case .object(let members) where members.count == 1:
            let object = try ConfigObject(value, path: root.fieldPath(field), file: root.file)
            if let flag = try object.fieldPath("flagFalse") { return .flagFalse(flag) }
            if let name = try object.fieldPath("fieldNull") { return .fieldNull(name) }
            if let name = try object.fieldPath("fieldMissing") { return .fieldMissing(name) }
            if let name = try object.fieldPath("pageCountField") { return .pageCountField(name) }
            if let name = try object.string("pageCountHeader") { return .pageCountHeader(name) }
            try object.rejectUnknownKeys(["flagFalse", "fieldNull", "fieldMissing", "pageCountField", "pageCountHeader"])
            throw root.error(field, "empty end signal; \(known)")
        default:
            throw root.error(field, "expected an end signal, got \(value.typeDescription); \(known)")
        }
    }

    static func parseFields(_ object: ConfigObject, base: FieldMapping) throws(BackendConfigurationError) -> FieldMapping {
        try object.rejectUnknownKeys(["id", "title", "body", "author", "image", "createdAt", "popularity", "titleFromBody"])
        var fields = base
        func paths(_ key: String) throws(BackendConfigurationError) -> [String]? {
            guard let names = try object.stringList(key) else { return nil }
            for (index, name) in names.enumerated() {
                if let problem = FieldPath.problem(name) {
                    throw object.error(names.count > 1 || object.members[key]?.arrayValue != nil ? "\(key)[\(index)]" : key, problem)
                }
            }
            return names
        }
        if let names = try paths("id") { fields.id = names }
        if let names = try paths("title") { fields.title = names }
        if let names = try paths("body") { fields.body = names }
        if let names = try paths("author") { fields.author = names }
        if let names = try paths("image") { fields.image = names }
        if let names = try paths("createdAt") { fields.createdAt = names }
        if let names = try paths("popularity") { fields.popularity = names }
        if let flag = try object.bool("titleFromBody") { fields.titleFromBody = flag }
        return fields
    }
}
