import Foundation
import PostFeedCache

/// `Codable` in the config-file format, every field written out, so an encoded
/// description is also a valid config file and decodes to an equal description.
extension BackendDescription: Codable {
    /// Decodes a config-file object. A missing, unknown or mistyped field throws
    /// `DecodingError.dataCorrupted`, its description the message a config file would get.
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        do {
            self = try Self.parse(try ConfigObject(json, path: "", file: nil), baseURL: nil)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// Encodes the config-file object, every field written out.
    public func encode(to encoder: any Encoder) throws {
        try configurationJSON.encode(to: encoder)
    }

    /// The description as a config-file object.
    var configurationJSON: JSONValue {
        if pageFormat == .feed {
            // A feed carries its own paging, items and fields: the preset says it all.
            var object: [String: JSONValue] = [
                "preset": .string("feed"), "name": .string(name), "baseURL": .string(baseURL.absoluteString),
                "maximumPageBytes": .integer(maximumPageBodySize),
            ]
            if let fixedIdentity { object["identity"] = .string(fixedIdentity) }
            if let requestTimeout { object["timeout"] = .double(requestTimeout) }
            if let sharedCache { object["sharedCache"] = .string(sharedCache.description) }
            if let bodyFormat { object["bodyFormat"] = .string(bodyFormat.rawValue) }
            return .object(object)
        }
        var object: [String: JSONValue] = [
            "name": .string(name),
            "baseURL": .string(baseURL.absoluteString),
            "postsPath": .string(postsPath),
            "postPath": postPath.map(JSONValue.string) ?? .null,
            "pagination": pagination.configurationJSON,
            "items": {
                switch items {
                case .root: .string("")
                case .key(let key): .string(key)
                }
            }(),
            "end": .array(endSignals.map(\.configurationJSON)),
            "fields": fields.configurationJSON,
            "maximumPageSize": .integer(maximumPageSize),
            "maximumPageBytes": .integer(maximumPageBodySize),
        ]
        if let fixedIdentity { object["identity"] = .string(fixedIdentity) }
        if let fixedPageSize { object["pageSize"] = .integer(fixedPageSize) }
        if !endStatuses.isEmpty {
            object["endStatus"] = .array(endStatuses.map { end in
                var members: [String: JSONValue] = ["status": .integer(end.status)]
                if let code = end.code { members["code"] = .string(code) }
                return .object(members)
            })
        }
        if firstPageNumber != 1, case .object(var members) = object["pagination"] {
            members.append((key: "first", value: .integer(firstPageNumber)))
            object["pagination"] = .object(members)
        }
        if let requestTimeout { object["timeout"] = .double(requestTimeout) }
        if let sharedCache { object["sharedCache"] = .string(sharedCache.description) }
        if let bodyFormat { object["bodyFormat"] = .string(bodyFormat.rawValue) }
        var total: [String: JSONValue] = [:]
        if let header = self.total.header { total["header"] = .string(header) }
        if let bodyField = self.total.bodyField { total["bodyField"] = .string(bodyField) }
        object["total"] = total.isEmpty ? .null : .object(total)
        return .object(object)
    }
}

extension PaginationStyle {
    var configurationJSON: JSONValue {
        switch self {
        case .pageNumber(let page, let limit):
            .object(["style": .string("page"), "page": .string(page), "limit": .string(limit)])
        case .offset(let offset, let limit):
            .object(["style": .string("offset"), "offset": .string(offset), "limit": .string(limit)])
        case .cursor(let cursor, let limit, let nextCursorField):
            .object([
                "style": .string("cursor"), "cursor": .string(cursor), "limit": .string(limit),
                "nextCursorField": .string(nextCursorField),
            ])
        case .linkHeader(let limit):
            .object(["style": .string("link"), "limit": limit.map(JSONValue.string) ?? .null])
        case .nextURL(let field, let limit):
            .object(["style": .string("nextURL"), "field": .string(field), "limit": limit.map(JSONValue.string) ?? .null])
        }
    }
}

extension EndSignal {
    var configurationJSON: JSONValue {
        switch self {
        case .linkWithoutNext: .string("linkWithoutNext")
        case .totalReached: .string("totalReached")
        case .shortPage: .string("shortPage")
        case .flagFalse(let field): .object(["flagFalse": .string(field)])
        case .fieldNull(let field): .object(["fieldNull": .string(field)])
        case .fieldMissing(let field): .object(["fieldMissing": .string(field)])
        case .pageCountField(let field): .object(["pageCountField": .string(field)])
        case .pageCountHeader(let name): .object(["pageCountHeader": .string(name)])
        }
    }
}

extension FieldMapping {
    var configurationJSON: JSONValue {
        func list(_ names: [String]) -> JSONValue { .array(names.map(JSONValue.string)) }
        var members: [String: JSONValue] = [
            "id": list(id), "title": list(title), "body": list(body), "author": list(author),
            "image": list(image), "createdAt": list(createdAt), "popularity": list(popularity),
        ]
        if titleFromBody { members["titleFromBody"] = .bool(true) }
        return .object(members)
    }
}
