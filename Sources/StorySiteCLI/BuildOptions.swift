import Foundation
import StoryModel

/// Everything a build needs to know, resolved from `storysite.json` and the command line
/// (flags win), with defaults for the rest.
struct BuildOptions: Sendable {
    var source = "Content"
    var templates = "Templates"
    var output = "Output"
    var entries = ["home"]
    var baseURL: String?
    var site = JSONObject()
    var markdownUnsafe = false
    /// The slug of the story whose content every page sees as `global` and that gets no page.
    var global = "global"
    var strict = false
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    var quiet = false

    /// The options of commands that build: `build`, and later `check` and `serve`.
    static let specOptions: [CommandSpec.Option] = [
        .value("source", "dir", help: "The folder of stories to build. (default: Content)"),
        .value("templates", "dir", help: "The folder of Mustache templates. (default: Templates)"),
        .value("output", "dir", help: "The folder to write the site into. (default: Output)"),
        .value("entry", "slug", help: "A story to start crawling from; repeat for several. (default: home)", repeatable: true),
        .value("base-url", "url", help: "The site's public URL, for the sitemap, robots.txt and canonical links."),
        .flag("strict", help: "Treat warnings (missing templates, broken links) as errors."),
        .value("jobs", "n", help: "How many pages to render at once. (default: the number of cores)"),
        .flag("quiet", help: "Print only errors."),
    ]

    init(arguments: ParsedArguments, configuration: Configuration) throws(UsageError) {
        source = arguments.string("source") ?? configuration.source ?? source
        templates = arguments.string("templates") ?? configuration.templates ?? templates
        output = arguments.string("output") ?? configuration.output ?? output
        let entryFlags = arguments.strings("entry")
        entries = entryFlags.isEmpty ? (configuration.entries ?? entries) : entryFlags
        baseURL = arguments.string("base-url") ?? configuration.baseURL
        site = configuration.site
        markdownUnsafe = configuration.markdownUnsafe ?? false
        global = configuration.global ?? global
        strict = arguments.flag("strict") || (configuration.strict ?? false)
        jobs = try arguments.integer("jobs", in: 1...256) ?? configuration.jobs ?? jobs
        quiet = arguments.flag("quiet")
        if let baseURL {
            guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", url.host != nil else {
                throw UsageError(
                    message: "The value '\(baseURL)' is invalid for '--base-url <url>': expected an absolute http(s) URL such as https://example.com/",
                    spec: arguments.spec)
            }
            self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        }
        for entry in entries where entry.isEmpty {
            throw UsageError(message: "The value '' is invalid for '--entry <slug>': expected a story slug", spec: arguments.spec)
        }
    }
}
