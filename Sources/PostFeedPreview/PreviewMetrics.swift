import CoreMetrics

/// The metrics of ``ImagePreviewer``, made once per previewer:
///
/// | name | type | dimensions | counts |
/// |---|---|---|---|
/// | `postfeed_thumbnail_lookups_total` | counter | `result` (`hit`, `miss`) | previews asked of the thumbnail cache, found there or not |
/// | `postfeed_image_decodes_total` | counter | — | originals decoded for a preview (each thumbnail miss that went on to decode) |
final class PreviewMetrics: Sendable {
    /// The metric names, documented in the README's "Metrics and tracing".
    enum Name {
        static let thumbnailLookups = "postfeed_thumbnail_lookups_total"
        static let decodes = "postfeed_image_decodes_total"
    }

    let thumbnailHits: Counter
    let thumbnailMisses: Counter
    let decodes: Counter

    init(factory: any MetricsFactory) {
        thumbnailHits = Counter(label: Name.thumbnailLookups, dimensions: [("result", "hit")], factory: factory)
        thumbnailMisses = Counter(label: Name.thumbnailLookups, dimensions: [("result", "miss")], factory: factory)
        decodes = Counter(label: Name.decodes, dimensions: [], factory: factory)
    }
}
