import Testing

/// Every test against nginx, in nested suites (one per file), sharing one nginx that the
/// `.nginx` trait starts before the first test and stops after the last.
@Suite(.nginx)
struct NginxSuite {}
