import Foundation
import SiteBuild
import SiteOutput
import StoryRender
import StorySource

/// Everything a build needs to know, resolved from `storysite.json` and the command line
/// (flags win), with defaults for the rest: the build's ``SiteSettings``, whose fields read
/// as the options' own (`options.output`), and how much to print.
@dynamicMemberLookup
struct BuildOptions: Sendable {
    var settings = SiteSettings()
    var quiet = false
    /// `serve --version draft`: the Storyblok Bridge script pages load (`preview.bridge`), for
    /// the Visual Editor; nil otherwise.
    var editorBridge: String?

    /// A setting of ``settings``, read and written as the options' own.
    subscript<Value>(dynamicMember setting: WritableKeyPath<SiteSettings, Value>) -> Value {
        get { settings[keyPath: setting] }
        set { settings[keyPath: setting] = newValue }
    }

    /// The options that say where stories come from: shared by every command that crawls.
    static let sourceSpecOptions: [CommandSpec.Option] = [
        .value("source", "dir", help: "The folder of stories. (default: Content)"),
        .value("entry", "slug", help: "A story to start crawling from; repeat for several. (default: home)", repeatable: true),
        .value("token", "token", help: "A Storyblok access token; reads the Content Delivery API instead of the folder. Prefer STORYBLOK_TOKEN."),
        .value("region", "region", help: "The space's region: eu, us, ca, ap or cn. (default: eu)"),
        .value("api-url", "url", help: "Any other Content Delivery API base URL (a proxy, a test server)."),
        .value(
            "content-version", "version",
            help: "Which stories to read: published or draft (draft needs a preview token; with a folder, it holds drafts); --version <version> too. (default: published)",
            valueAlias: "version"),
        .value("language", "code", help: "The language of the stories to read."),
        .value("fallback", "dir", help: "A pulled folder to build from, with a warning, when the API cannot be reached."),
    ]

    /// The options of commands that build: `build`, `check` and `serve`.
    static let specOptions: [CommandSpec.Option] = sourceSpecOptions + [
        .value("base-url", "url", help: "The site's public URL, for the sitemap, robots.txt and canonical links."),
        .value("templates", "dir", help: "The folder of Mustache templates. (default: Templates)"),
        .value("output", "dir", help: "The folder to write the site into. (default: Output)"),
        .flag("strict", help: "Treat warnings (missing templates, broken links) as errors."),
        .flag("editable", help: "With --version draft: give blocks the Visual Editor's attributes (data-blok-c, data-blok-uid)."),
        .value("jobs", "n", help: "How many files to read, pages to render and files to write at once. (default: the number of cores)"),
        .flag("quiet", help: "Print only errors."),
    ]

    /// Secrets that must never be printed.
    var secrets: [String] { settings.api.map { [$0.token] } ?? [] }

    init(arguments: ParsedArguments, configuration: Configuration, environment: [String: String] = [:]) throws(UsageError) {
        settings.source = arguments.string("source") ?? configuration.source ?? settings.source
        settings.templates = arguments.string("templates") ?? configuration.templates ?? settings.templates
        settings.staticFolder = configuration.staticFolder ?? settings.staticFolder
        settings.output = arguments.string("output") ?? configuration.output ?? settings.output
        let entryFlags = arguments.strings("entry")
        settings.entries = entryFlags.isEmpty ? (configuration.entries ?? settings.entries) : entryFlags
        settings.baseURL = arguments.string("base-url") ?? configuration.baseURL
        settings.site = configuration.site
        settings.markdownUnsafe = configuration.markdownUnsafe ?? false
        settings.global = configuration.global ?? settings.global
        settings.globalIsExplicit = configuration.global != nil
        settings.listings = configuration.listings
        settings.collections = configuration.collections
        settings.languages = configuration.languages
        settings.translation = configuration.translation ?? .field
        settings.dates = DateFormats(configured: configuration.dates, timeZone: configuration.timeZone)
        settings.images = configuration.images ?? ImageSettings()
        settings.richtext = configuration.richtext ?? RichtextSettings()
        settings.strict = arguments.flag("strict") || (configuration.strict ?? false)
        settings.jobs = try arguments.integer("jobs", in: 1...256) ?? configuration.jobs ?? settings.jobs
        quiet = arguments.flag("quiet")
        if let baseURL = settings.baseURL {
            guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", url.host != nil else {
                throw UsageError(
                    message: "The value '\(baseURL)' is invalid for '--base-url <url>': expected an absolute http(s) URL such as https://example.com/",
                    spec: arguments.spec)
            }
            settings.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        }
        settings.fallback = arguments.string("fallback") ?? configuration.fallback
        settings.api = try Self.api(arguments: arguments, configuration: configuration, environment: environment)
        let drafts = settings.api.map { $0.version == .draft } ?? (arguments.string("content-version") == "draft")
        if arguments.flag("editable") && !drafts {
            throw UsageError(
                message: "'--editable' writes the Visual Editor's attributes, which only draft content has: add --version draft",
                spec: arguments.spec)
        }
        if drafts && arguments.spec.name == "serve" { editorBridge = configuration.preview?.bridge ?? PreviewSettings.defaultBridge }
        settings.editable = arguments.flag("editable") || editorBridge != nil
        for entry in settings.entries where entry.isEmpty {
            throw UsageError(message: "The value '' is invalid for '--entry <slug>': expected a story slug", spec: arguments.spec)
        }
    }

    /// The API configuration when a token is given (`--token`, or `STORYBLOK_TOKEN` unless
    /// `--source` names a folder); API settings without a token are a usage error.
    private static func api(
        arguments: ParsedArguments, configuration: Configuration, environment: [String: String]
    ) throws(UsageError) -> StoryblokConfiguration? {
        let environmentToken = environment["STORYBLOK_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        let token = arguments.string("token") ?? (arguments.string("source") == nil ? environmentToken : nil)
        var settings = configuration.storyblok ?? StoryblokSettings()
        settings.region = try arguments.choice("region", StoryblokSettings.regions) ?? settings.region
        settings.version = try arguments.choice("content-version", StoryblokSettings.versions) ?? settings.version
        settings.language = arguments.string("language") ?? settings.language
        if let apiURL = arguments.string("api-url") {
            guard let url = URL(string: apiURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw UsageError(
                    message: "The value '\(apiURL)' is invalid for '--api-url <url>': expected an absolute http(s) URL",
                    spec: arguments.spec)
            }
            settings.apiURL = apiURL
        }
        guard let token else {
            if let flag = ["region", "api-url", "language", "fallback"].first(where: { arguments.string($0) != nil }) {
                throw UsageError(
                    message: "'--\(flag)' reads the Storyblok API, which needs an access token: set STORYBLOK_TOKEN or pass --token",
                    spec: arguments.spec)
            }
            if configuration.storyblok != nil && arguments.string("source") == nil {
                throw UsageError(
                    message: "storysite.json reads the Storyblok API, which needs an access token: set STORYBLOK_TOKEN or pass --token (or name a folder with --source)",
                    spec: arguments.spec)
            }
            return nil
        }
        return settings.configuration(token: token, listsAllStories: false)
    }

    /// The output folder, once it is known not to be the current folder, the source, the
    /// templates or the fallback folder (replacing any of them would destroy the user's work).
    func outputFolder(in context: CommandContext) throws(OutputError) -> URL {
        let output = context.url(settings.output)
        let protected = [
            ("source", context.url(settings.source)), ("templates", context.url(settings.templates)),
            ("static", context.url(settings.staticFolder)),
        ]
            + (settings.fallback.map { [("fallback", context.url($0))] } ?? [])
        try OutputFolderRules.check(
            output: output, displayPath: settings.output, currentFolder: context.workingDirectory, protected: protected)
        return output
    }
}
