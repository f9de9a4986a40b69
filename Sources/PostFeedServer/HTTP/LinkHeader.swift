/// An RFC 8288 `Link` field value: `<url>; rel="next", <url>; rel="last"`.
struct LinkHeader: Equatable {
    /// Relation and target, in the order they are sent.
    var links: [(rel: String, url: String)] = []

    static func == (lhs: LinkHeader, rhs: LinkHeader) -> Bool {
        lhs.links.elementsEqual(rhs.links) { $0.rel == $1.rel && $0.url == $1.url }
    }

    mutating func append(rel: String, url: String) {
        links.append((rel, url))
    }

    var value: String {
        links.map { "<\($0.url)>; rel=\"\($0.rel)\"" }.joined(separator: ", ")
    }
}
