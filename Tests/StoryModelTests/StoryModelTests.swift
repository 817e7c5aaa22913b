import Testing

/// The StoryModel module's suite: JSON, stories, references and slug handling.
@Suite("StoryModel")
struct StoryModelTests {}
