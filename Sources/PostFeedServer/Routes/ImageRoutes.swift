import Foundation
import Hummingbird

/// `GET /images/{name}`: image bytes with `Content-Type`, `ETag`, `Last-Modified` and
/// `Cache-Control`; `304` on a matching `If-None-Match` or a recent enough `If-Modified-Since`.
struct ImageRoutes {
    let state: FixtureServerState

    func register(on router: Router<FixtureRequestContext>) {
        router.get("/images/:name") { request, context in try showImage(request, context: context) }
    }

    private func showImage(_ request: Request, context: FixtureRequestContext) throws -> Response {
        let raw = context.parameters.get("name") ?? ""
        // Decode %2F, %2E… first so that an encoded traversal is judged by what it means.
        let name = raw.removingPercentEncoding ?? raw
        guard ImageCatalog.isPlausibleName(name), !name.contains("..") else {
            throw APIError.badRequest("image name '\(raw)' is not allowed; use a plain file name like img-001.jpg")
        }
        guard let image = state.images.image(named: name) else {
            throw APIError.notFound("image '\(name)' does not exist")
        }
        return CacheableResponse.make(
            for: request, body: image.bytes, contentType: image.contentType,
            maxAge: state.configuration.imageMaxAge, lastModified: image.lastModified, etag: image.etag)
    }
}
