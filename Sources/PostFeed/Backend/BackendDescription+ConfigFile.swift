import Foundation
import PostFeedCache

// MARK: - Config file format
//
// A backend config file is one JSON object. Every field but `baseURL` is optional;
// `preset` starts from a preset and the other fields override it.
//
// ```json
// {
//   "name": "my-api",
//   "identity": "my-api production",
//   "preset": "dummyjson",
//   "baseURL": "http://localhost:3000",
//   "postsPath": "/posts",
//   "postPath": "/posts/{id}",
//   "pagination": {"style": "offset", "offset": "skip", "limit": "limit"},
//   "items": "posts",
//   "total": {"header": "X-Total-Count", "bodyField": "total"},
//   "end": ["totalReached", "shortPage", {"flagFalse": "hasMore"}, {"fieldNull": "next"}],
//   "fields": {"image": ["thumbnail"], "author": "userId"},
//   "maximumPageSize": 100,
//   "maximumPageBytes": 8388608,
//   "// comment": "keys starting with // are ignored"
// }
// ```
//
// | field | meaning | default without a preset |
// |---|---|---|
// | `name` | identifies the backend in list state, with the base URL | the preset's, else `custom` |
// | `identity` | identifies it alone, when the address changes between runs | name + base URL + posts path |
// | `preset` | `postfeed`, `postfeed-cursor`, `json-server`, `json-server-v1`, `dummyjson`, `wordpress`, `mastodon`, `hackernews`, `reddit`, `ghost`, `lemmy`, `discourse`, `forem` | none |
// | `baseURL` | `http` or `https` server root (the `baseURL:` argument overrides it) | required |
// | `postsPath` | path of the list, may carry a fixed query (`/posts?userId=1`) | `/posts` |
// | `postPath` | path of one post with `{id}`; `null` for none | none |
// | `pagination` | an object, or just the style name as a string, see below | required |
// | `items` | key or dotted path of the item array; `""` or `null` when the body is the array | the body |
// | `total` | `{"header": …, "bodyField": …}`, either or both; `null` for none | none |
// | `end` | end-of-list signals, any of which ends the list | `["totalReached", "shortPage"]`; none for `nextURL` |
// | `fields` | per part (`id`, `title`, `body`, `author`, `image`, `createdAt`, `popularity`) a field name or a list of fallbacks | see ``FieldMapping`` |
// | `maximumPageSize` | the largest page size the backend accepts | `100` |
// | `timeout` | seconds one request may take at most (connect and stalls included) | the client's, 60 |
// | `pageSize` | the server's fixed page size, for a backend without a page-size parameter (none is sent; `--page-size` is not used) | none: the reader's |
// | `endStatus` | error statuses that mean the end, e.g. `[{"status": 400, "code": "rest_post_invalid_page_number"}]` (`code`: the body's `code` or `error` field) | none |
// | `maximumPageBytes` | the most bytes one page's body may hold, 1 to 1073741824 (1 GiB); a larger body fails while it streams in | 8388608 (8 MiB) |
// | `bodyFormat` | how titles and bodies are written: `"plain"` (or `"text"`), `"html"` or `"markdown"` | looked at per post: HTML when it plainly is |
//
// Pagination styles and their parameter names (defaults in brackets):
// - `{"style": "page", "page": ["page"], "limit": ["limit"]}`: `?page=N&limit=M`, N from 1
// - `{"style": "offset", "offset": ["offset"], "limit": ["limit"]}`: `?offset=S&limit=M`
// - `{"style": "cursor", "cursor": ["cursor"], "limit": ["limit"], "nextCursorField": ["nextCursor"]}`
// - `{"style": "link", "limit": ["limit"]}`: GitHub style, follow `Link: <…>; rel="next"`;
//   `"limit": null` sends no page size.
// - `{"style": "nextURL", "field": "next_url", "limit": ["limit"]}`: follow the URL in a body
//   field (relative to the page), until it is missing, null or empty.
// - `"first": 0` in the page style: the backend numbers its first page 0 (Algolia, Discourse).
//
// End signals: `"linkWithoutNext"`, `"totalReached"`, `"shortPage"`, `{"flagFalse": "field"}`
// (also written `"flagFalse:field"`), `{"fieldNull": "field"}` (`"fieldNull:field"`),
// `{"fieldMissing": "field"}` (absent or null), `{"pageCountField": "nbPages"}` and
// `{"pageCountHeader": "X-WP-TotalPages"}` (this page's number reaches the page count).
//
// Field paths are names joined by dots, with 0, 1, … for array elements:
// `"fields": {"author": "_embedded.author.0.name", "titleFromBody": true}`. Dates may be
// RFC 3339 with or without a zone (none: UTC), RFC 822, or epoch seconds (number or string).

extension BackendDescription {
    /// Reads a backend description from a JSON config file (format above).
    ///
    /// ```swift
    /// let backend = try BackendDescription.load(from: URL(fileURLWithPath: "dummyjson.json"))
    /// ```
    /// - Parameters:
    ///   - file: the JSON config file to read, named in every error about it.
    ///   - baseURL: overrides the file's `baseURL` (e.g. from a `--base-url` flag).
    /// - Throws: ``BackendConfigurationError`` naming the file and the field at fault.
    public static func load(from file: URL, baseURL: URL? = nil) throws(BackendConfigurationError) -> BackendDescription {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw BackendConfigurationError(file: file, field: nil, message: "\(Self.readFailure(file, error)); pass a backend config file (JSON)")
        }
        return try BackendDescription(configuration: data, file: file, baseURL: baseURL)
    }

    /// Why `file` could not be read, in the system's words (not Foundation's error dump).
    private static func readFailure(_ file: URL, _ error: any Error) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else { return "no such file" }
        if isDirectory.boolValue { return "is a folder, not a file" }
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return "cannot be read: \(String(cString: strerror(Int32(posix.code))))"
        }
        return "cannot be read"
    }

    /// Reads a backend description from config-file JSON held in memory.
    ///
    /// - Parameters:
    ///   - data: the config file's JSON, in the format above.
    ///   - file: named in errors; `nil` when the JSON did not come from a file.
    ///   - baseURL: overrides the JSON's `baseURL`.
    public init(configuration data: Data, file: URL? = nil, baseURL: URL? = nil) throws(BackendConfigurationError) {
        let json: JSONValue
        do {
            json = try JSONValue.parse(data)
        } catch {
            throw BackendConfigurationError(
                file: file, field: nil, message: "not valid JSON: \(NotJSONBody.cause(of: error, in: data, contentType: nil))")
        }
        self = try Self.parse(try ConfigObject(json, path: "", file: file), baseURL: baseURL)
    }

    static let topLevelKeys = [
        "name", "identity", "preset", "baseURL", "postsPath", "postPath", "pagination", "items", "total", "end",
        "fields", "maximumPageSize", "timeout", "maximumPageBytes", "sharedCache", "pageSize", "endStatus", "bodyFormat",
    ]

    static func parse(_ root: ConfigObject, baseURL override: URL?) throws(BackendConfigurationError) -> BackendDescription {
        try root.rejectUnknownKeys(topLevelKeys)
        let baseURL: URL
        if let override { baseURL = override } else { baseURL = try parseBaseURL(root) }
        try validateBaseURL(baseURL, in: root)

        var description: BackendDescription
        if let presetName = try root.string("preset") {
            do throws(BackendConfigurationError) {
                description = try preset(presetName, baseURL: baseURL)
            } catch {
                throw root.error("preset", error.message)
            }
        } else {
            guard root.has("pagination") else {
                throw root.error("pagination", "missing; give a pagination object such as {\"style\": \"page\"}, or a \"preset\"")
            }
            description = BackendDescription(
                name: "custom", baseURL: baseURL, postsPath: "/posts", postPath: nil,
                pagination: .pageNumber(page: "page", limit: "limit"), items: .root, total: .unknown,
                endSignals: [.totalReached, .shortPage])
        }

        if let name = try root.string("name") { description.name = name }
        if let identity = try root.string("identity") {
            guard !identity.trimmingCharacters(in: .whitespaces).isEmpty else { throw root.error("identity", "must not be empty") }
            description.fixedIdentity = identity
        }
        if let postsPath = try root.string("postsPath") {
            guard postsPath.hasPrefix("/") else { throw root.error("postsPath", "must start with \"/\", got \"\(postsPath)\"") }
            description.postsPath = postsPath
        }
        if root.members["postPath"] != nil {
            let postPath = try root.string("postPath")
            if let postPath, !postPath.hasPrefix("/") || !postPath.contains("{id}") {
                throw root.error("postPath", "must start with \"/\" and contain \"{id}\", got \"\(postPath)\"")
            }
            description.postPath = postPath
        }
        if root.members["pagination"] != nil {
            description.pagination = try parsePagination(root)
            if let first = try parseFirstPageNumber(root) {
                guard case .pageNumber = description.pagination else {
                    throw root.error("pagination.first", "applies to the \"page\" style only")
                }
                description.firstPageNumber = first
            }
        }
        if root.members["items"] != nil {
            let key = try root.possiblyEmptyString("items") ?? ""
            description.items = key.isEmpty || key == "." ? .root : .key(key)
        }
        if root.members["total"] != nil { description.total = try parseTotal(root) }
        if root.members["end"] != nil {
            description.endSignals = try parseEndSignals(root)
        } else if case .nextURL = description.pagination {
            // The next URL says where the list goes on; a short page says nothing here.
            description.endSignals = []
        }
        if let fields = try root.object("fields") { description.fields = try parseFields(fields, base: description.fields) }
        if let maximum = try root.integer("maximumPageSize") {
            guard maximum >= 1 else { throw root.error("maximumPageSize", "must be at least 1, got \(maximum)") }
            description.maximumPageSize = maximum
        }
        if root.has("timeout") {
            guard case .number(let literal)? = root.members["timeout"], let seconds = Double(literal), seconds.isFinite,
                  seconds > 0, seconds <= maximumRequestTimeout
            else {
                throw root.error("timeout", "must be a number of seconds above 0 and at most \(Int(maximumRequestTimeout))")
            }
            description.requestTimeout = seconds
        }
        if let bytes = try parseMaximumPageBytes(root) { description.maximumPageBodySize = bytes }
        if root.members["pageSize"] != nil {
            if let size = try root.integer("pageSize") {
                guard (1...description.maximumPageSize).contains(size) else {
                    throw root.error("pageSize", "must be 1…\(description.maximumPageSize) (maximumPageSize), got \(size)")
                }
                description.fixedPageSize = size
            } else {
                description.fixedPageSize = nil
            }
        }
        if root.members["endStatus"] != nil { description.endStatuses = try parseEndStatuses(root) }
        if let text = try root.string("bodyFormat") {
            // "text" is what the presets' README and older files call plain text.
            let name = text.lowercased() == "text" ? PostBodyFormat.plain.rawValue : text.lowercased()
            guard let format = PostBodyFormat(rawValue: name) else {
                throw root.error("bodyFormat", "\"\(text)\" is not one of \(PostBodyFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            description.bodyFormat = format
        }
        if let text = try root.string("sharedCache") {
            do {
                description.sharedCache = try RedisAddress(parsing: text)
            } catch {
                throw root.error("sharedCache", "\(error)")
            }
        }
        return description
    }

    private static func parseBaseURL(_ root: ConfigObject) throws(BackendConfigurationError) -> URL {
        guard let text = try root.string("baseURL") else {
            throw root.error("baseURL", "missing; give the server root, e.g. \"http://localhost:3000\"")
        }
        guard let url = URL(string: text) else { throw root.error("baseURL", "\"\(text)\" is not a URL") }
        return url
    }

    private static func validateBaseURL(_ url: URL, in root: ConfigObject) throws(BackendConfigurationError) {
        if let problem = baseURLProblem(url) { throw root.error("baseURL", problem) }
    }
}
