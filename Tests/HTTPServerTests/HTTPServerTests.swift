import Testing

/// The HTTPServer module's suite: a real server on 127.0.0.1, driven by URLSession and by a raw
/// socket client where bytes must be seen as they arrive.
@Suite("HTTPServer")
struct HTTPServerTests {}
