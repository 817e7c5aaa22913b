import Testing

/// The StoryCrawl module's suite: reference extraction, the crawler and the link graph.
@Suite("StoryCrawl")
struct StoryCrawlTests {}
