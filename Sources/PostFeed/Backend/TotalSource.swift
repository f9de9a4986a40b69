/// Where the total count of posts comes from: a response header, a body field, both
/// (the header wins when both are present), or neither.
///
/// ```swift
/// TotalSource(header: "X-Total-Count", bodyField: "total")  // PostFeed
/// .header("X-Total-Count")                                  // json-server 0.17
/// .bodyField("items")                                       // json-server 1.x
/// ```
public struct TotalSource: Sendable, Hashable {
    /// A header holding the total as a decimal number, e.g. `X-Total-Count`.
    public var header: String?
    /// A body field (dotted path) holding the total, e.g. `total`.
    public var bodyField: String?

    /// Either source, both, or neither (the backend does not say).
    public init(header: String? = nil, bodyField: String? = nil) {
        self.header = header
        self.bodyField = bodyField
    }

    /// The total from a header only.
    public static func header(_ name: String) -> TotalSource { TotalSource(header: name) }
    /// The total from a body field only.
    public static func bodyField(_ path: String) -> TotalSource { TotalSource(bodyField: path) }
    /// The backend does not say.
    public static let unknown = TotalSource()

    /// Whether any source is set.
    public var isKnown: Bool { header != nil || bodyField != nil }
}
