import Foundation

/// The presets of real, documented APIs (issue 32): each one a ``BackendDescription`` built
/// from the same parts a backend file can give, so a user can write one for an API not
/// listed (`postfeed list --backend my-api.json`), starting from `"preset": "wordpress"`.
///
/// None has a post path: `show ID` finds the post in the pages loaded or cached.
extension BackendDescription {
    /// The description of the documented API `name` at `baseURL`, or `nil` when `name` is
    /// none of them.
    static func apiPreset(_ name: String, baseURL: URL) -> BackendDescription? {
        switch name {
        case "wordpress": wordPress(baseURL)
        case "mastodon": mastodon(baseURL)
        case "hackernews": hackerNews(baseURL)
        case "reddit": reddit(baseURL)
        case "ghost": ghost(baseURL)
        case "lemmy": lemmy(baseURL)
        case "discourse": discourse(baseURL)
        case "forem": forem(baseURL)
        default: nil
        }
    }

    /// WordPress REST API v2: `GET /wp-json/wp/v2/posts?_embed&page=N&per_page=M`, a bare
    /// array; totals in `X-WP-Total` and `X-WP-TotalPages`; a page past the last answers
    /// `400 rest_post_invalid_page_number`. Titles and bodies are HTML (`title.rendered`,
    /// `content.rendered`); author and featured image come embedded (`_embed`).
    private static func wordPress(_ baseURL: URL) -> BackendDescription {
        var backend = BackendDescription(
            name: "wordpress", baseURL: baseURL, postsPath: "/wp-json/wp/v2/posts?_embed", postPath: nil,
            pagination: .pageNumber(page: "page", limit: "per_page"), items: .root, total: .header("X-WP-Total"),
            endSignals: [.pageCountHeader("X-WP-TotalPages"), .totalReached, .shortPage],
            fields: FieldMapping(
                id: ["id"], title: ["title.rendered"], body: ["content.rendered", "excerpt.rendered"],
                author: ["_embedded.author.0.name"],
                image: ["_embedded.wp:featuredmedia.0.media_details.sizes.medium_large.source_url",
                        "_embedded.wp:featuredmedia.0.source_url", "jetpack_featured_media_url"],
                createdAt: ["date_gmt", "date"]))
        backend.endStatuses = [EndStatus(status: 400, code: "rest_post_invalid_page_number")]
        backend.bodyFormat = .html
        return backend
    }

    /// Mastodon: `GET /api/v1/timelines/public?limit=M`, or the timeline the base URL names
    /// (`…/api/v1/timelines/tag/swift`); paged by `Link` (`max_id`); string ids; no title,
    /// so the first line of the status's text is one (a content warning when there is one).
    private static func mastodon(_ baseURL: URL) -> BackendDescription {
        let namesTimeline = baseURL.path.contains("/api/v1/")
        var fields = FieldMapping(
            id: ["id"], title: ["spoiler_text"], body: ["content"],
            author: ["account.display_name", "account.acct"],
            image: ["media_attachments.0.preview_url", "card.image"], createdAt: ["created_at"],
            popularity: ["favourites_count"])
        fields.titleFromBody = true
        var backend = BackendDescription(
            name: "mastodon", baseURL: baseURL, postsPath: namesTimeline ? "" : "/api/v1/timelines/public", postPath: nil,
            pagination: .linkHeader(limit: "limit"), items: .root, total: .unknown, endSignals: [.linkWithoutNext],
            fields: fields, maximumPageSize: 40)
        backend.bodyFormat = .html
        return backend
    }

    /// Hacker News through Algolia: `GET /api/v1/search_by_date?tags=story&page=N&hitsPerPage=M`,
    /// pages from 0, items under `hits`, the end at `nbPages`; `objectID`, `points`.
    private static func hackerNews(_ baseURL: URL) -> BackendDescription {
        var backend = BackendDescription(
            name: "hackernews", baseURL: baseURL, postsPath: "/api/v1/search_by_date?tags=story", postPath: nil,
            pagination: .pageNumber(page: "page", limit: "hitsPerPage"), items: .key("hits"), total: .bodyField("nbHits"),
            endSignals: [.pageCountField("nbPages")],
            fields: FieldMapping(
                id: ["objectID"], title: ["title", "story_title"], body: ["story_text"], author: ["author"],
                // Algolia's hits have no image; their `url` is the story's link, not one.
                image: ["image"], createdAt: ["created_at", "created_at_i"], popularity: ["points"]))
        backend.firstPageNumber = 0
        backend.bodyFormat = .html
        return backend
    }

    /// Reddit: the base URL is a subreddit (`https://www.reddit.com/r/swift`), read at
    /// `/new.json?limit=M&after=C`; `t3` children under `data.children`, the cursor in
    /// `data.after`; the image from the preview (its `&amp;` decoded) or the thumbnail;
    /// `created_utc` in epoch seconds; `score`.
    private static func reddit(_ baseURL: URL) -> BackendDescription {
        BackendDescription(
            name: "reddit", baseURL: baseURL, postsPath: "/new.json", postPath: nil,
            pagination: .cursor(cursor: "after", limit: "limit", nextCursorField: "data.after"),
            items: .key("data.children"), total: .unknown, endSignals: [.fieldNull("data.after")],
            fields: FieldMapping(
                id: ["data.name"], title: ["data.title"], body: ["data.selftext"], author: ["data.author"],
                image: ["data.preview.images.0.source.url", "data.thumbnail"], createdAt: ["data.created_utc"],
                popularity: ["data.score"]))
    }

    /// Ghost Content API: `GET /ghost/api/content/posts/?include=authors&page=N&limit=M` with
    /// the `key` the base URL's query carries (`https://blog.example/?key=…`); totals and
    /// the next page in `meta.pagination`; HTML bodies; `feature_image`.
    private static func ghost(_ baseURL: URL) -> BackendDescription {
        var backend = BackendDescription(
            name: "ghost", baseURL: baseURL, postsPath: "/ghost/api/content/posts/?include=authors", postPath: nil,
            pagination: .pageNumber(page: "page", limit: "limit"), items: .key("posts"),
            total: .bodyField("meta.pagination.total"),
            endSignals: [.fieldNull("meta.pagination.next"), .pageCountField("meta.pagination.pages"), .totalReached],
            fields: FieldMapping(
                id: ["id"], title: ["title"], body: ["html", "excerpt"],
                author: ["primary_author.name", "authors.0.name"], image: ["feature_image"],
                createdAt: ["published_at", "created_at"]))
        backend.bodyFormat = .html
        return backend
    }

    /// Lemmy API v3: `GET /api/v3/post/list?sort=New&page=N&limit=M`; each item holds
    /// `post`, `creator` and `counts`; Markdown bodies; `counts.score`. No total: the list
    /// ends at a short or empty page.
    private static func lemmy(_ baseURL: URL) -> BackendDescription {
        var backend = BackendDescription(
            name: "lemmy", baseURL: baseURL, postsPath: "/api/v3/post/list?sort=New", postPath: nil,
            pagination: .pageNumber(page: "page", limit: "limit"), items: .key("posts"), total: .unknown,
            endSignals: [.shortPage],
            fields: FieldMapping(
                id: ["post.id"], title: ["post.name"], body: ["post.body"],
                author: ["creator.display_name", "creator.name"],
                image: ["post.thumbnail_url", "post.url"], createdAt: ["post.published"], popularity: ["counts.score"]),
            maximumPageSize: 50)
        backend.bodyFormat = .markdown
        return backend
    }

    /// Discourse: `GET /latest.json?page=N`, pages from 0 of the server's 30 topics; items
    /// under `topic_list.topics`; the end when `topic_list.more_topics_url` is absent;
    /// `image_url`, `like_count`.
    private static func discourse(_ baseURL: URL) -> BackendDescription {
        var backend = BackendDescription(
            name: "discourse", baseURL: baseURL, postsPath: "/latest.json", postPath: nil,
            pagination: .pageNumber(page: "page", limit: "per_page"), items: .key("topic_list.topics"), total: .unknown,
            endSignals: [.fieldMissing("topic_list.more_topics_url")],
            fields: FieldMapping(
                id: ["id"], title: ["fancy_title", "title"], body: ["excerpt"], author: ["last_poster_username"],
                image: ["image_url"], createdAt: ["created_at"], popularity: ["like_count"]))
        backend.firstPageNumber = 0
        backend.fixedPageSize = 30
        backend.bodyFormat = .html
        return backend
    }

    /// Forem (dev.to): `GET /api/articles?page=N&per_page=M`, a bare array, no total;
    /// `cover_image`, `positive_reactions_count`.
    private static func forem(_ baseURL: URL) -> BackendDescription {
        BackendDescription(
            name: "forem", baseURL: baseURL, postsPath: "/api/articles", postPath: nil,
            pagination: .pageNumber(page: "page", limit: "per_page"), items: .root, total: .unknown,
            endSignals: [.shortPage],
            fields: FieldMapping(
                id: ["id"], title: ["title"], body: ["description"], author: ["user.name", "user.username"],
                image: ["cover_image", "social_image"], createdAt: ["published_timestamp", "published_at"],
                popularity: ["positive_reactions_count", "public_reactions_count"]))
    }
}
