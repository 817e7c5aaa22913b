/// The fields of a story object besides `uuid` and `full_slug` that its ``Story`` is made with:
/// the name and slug (each the fallback of the other), the numeric id, and the marks of a
/// folder's start page (``Story/startPageFolder``).
struct StoryFields {
    var name: JSONValue?
    var slug: JSONValue?
    var id: JSONValue?
    var isStartpage: JSONValue?
    var isFolder: JSONValue?

    init() {}

    /// The fields `field` reads by their keys.
    init(_ field: (String) -> JSONValue?) {
        name = field("name")
        slug = field("slug")
        id = field("id")
        isStartpage = field("is_startpage")
        isFolder = field("is_folder")
    }
}
