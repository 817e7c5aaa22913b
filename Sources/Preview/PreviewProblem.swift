/// A build problem shown in the browser's error overlay: `location` is where
/// (`Templates/page.mustache:3:5`, or a story and field path), `message` is what.
public struct PreviewProblem: Sendable, Equatable, Codable {
    public var location: String
    public var message: String

    public init(location: String, message: String) {
        self.location = location
        self.message = message
    }
}
