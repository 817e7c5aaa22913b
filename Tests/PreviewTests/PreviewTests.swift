import Testing

/// The Preview module's suite: a real server on 127.0.0.1 over a temporary site, driven through
/// raw sockets (so paths reach the server exactly as written), plus the watcher and coordinator.
@Suite("Preview")
struct PreviewTests {}
