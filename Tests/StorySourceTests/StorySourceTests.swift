import Testing

/// The StorySource module's suite: the local folder source, its layouts, index and errors.
@Suite("StorySource")
struct StorySourceTests {}
