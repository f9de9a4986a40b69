import Hummingbird
import PostFeedModels

extension TestRoutes {
    /// `POST /test/revise?ids=1,5-8`: revises those posts (``PostRevisions``), so the pages
    /// holding them change body and `ETag` while the others keep theirs. Answers
    /// `{"revisions":{"1":1,"5":1,…}}`, every revised post's revision. A `POST` (or `PUT`),
    /// never a `GET`: it changes what the server serves.
    func registerRevisionRoutes(on router: Router<FixtureRequestContext>) {
        router.post("/test/revise") { request, _ in try revise(request) }
        router.put("/test/revise") { request, _ in try revise(request) }
    }

    private func revise(_ request: Request) throws -> Response {
        let ids = try Self.postIDs(request.uri.queryParameters["ids"].map(String.init), served: state.configuration.postIDs)
        let revisions = state.revisions.revise(ids)
        struct Revised: Encodable {
            let revisions: [String: Int]
        }
        let body = Revised(revisions: Dictionary(uniqueKeysWithValues: revisions.map { ($0.key.text, $0.value) }))
        return JSONBody.response(body: JSONBody.encode(body))
    }

    /// `1,5-8` as `[1, 5, 6, 7, 8]`; with ``ServedPostIDs/strings`` also the ids served
    /// (`t3_1`); a `400` naming what is wrong otherwise.
    static func postIDs(_ text: String?, served: ServedPostIDs = .numbers) throws -> [PostID] {
        guard let text, !text.isEmpty else {
            throw APIError.badRequest("revise needs ?ids=<id>[,<id>|<first>-<last>…], e.g. ?ids=1,5-8")
        }
        var ids: [PostID] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            // A served string id (`t3_1`, `109876543210000000003`): the fixture post it stands for.
            if let id = PostID(String(item)), let fixture = served.fixtureID(ofServed: id.text), fixture != id {
                ids.append(fixture)
                continue
            }
            let bounds = item.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = bounds.first.flatMap({ Int($0) }), let last = bounds.count == 2 ? Int(bounds[1]) : first,
                  first >= 0, first <= last
            else {
                throw APIError.badRequest("ids item '\(item)' is not a post id or a range first-last of them")
            }
            guard last - first < PostRevisions.maximumPerCall - ids.count else {
                throw APIError.badRequest("ids names more than \(PostRevisions.maximumPerCall) posts; revise fewer at a time")
            }
            ids += (first...last).map { PostID($0) }
        }
        return ids
    }
}
