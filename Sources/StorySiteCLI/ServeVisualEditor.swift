import Preview
import SiteBuild

/// `serve --version draft` with Storyblok's Visual Editor: the preview's ``VisualEditor``,
/// rendering posted stories against the model of the last good build.
enum ServeVisualEditor {
    /// The editor when `options` serve drafts (nil otherwise), for a server on `host`. Renders
    /// read `models`; `change` and `published` call `refresh` with the story's id.
    static func make(
        options: BuildOptions, host: String, models: SiteModelStore?, refresh: @escaping VisualEditor.Refresh
    ) -> VisualEditor? {
        guard let bridge = options.editorBridge, let models else { return nil }
        return VisualEditor(bridge: bridge, host: host, render: { path, story in
            guard let model = models.current else {
                return .problem(status: 503, PreviewProblem(location: path, message: "the site is still being built; edit again in a moment"))
            }
            do throws(PostedStoryError) {
                return .page(try model.renderPage(at: path, postedStory: story))
            } catch {
                return .problem(status: status(of: error.reason), PreviewProblem(location: error.location, message: error.message))
            }
        }, refresh: refresh)
    }

    private static func status(of reason: PostedStoryError.Reason) -> Int {
        switch reason {
        case .noPage: 404
        case .otherStory: 409
        case .invalidStory, .renderFailed: 422
        }
    }
}
