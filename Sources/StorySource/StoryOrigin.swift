/// Where a story was read: its file, and its place in a list or `rels` array when the file holds
/// several. Used in messages.
struct StoryOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The file as shown to the user.
    var file: String
    /// `stories[3]` or `rels[0]` for a story inside an array; nil for a file's single story.
    var entry: String?

    var description: String {
        entry.map { "\(file) (\($0))" } ?? file
    }
}
