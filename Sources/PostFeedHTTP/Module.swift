// Placeholder so the package loads while PostFeedHTTP is written.
