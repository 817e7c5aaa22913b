// swift-tools-version: 6.0
// storysite: a static site generator for story trees (Storyblok and similar headless CMSs).
// The pipeline is visible in the targets: source → crawl → render → output, under a thin CLI.
import PackageDescription

// The executables allocate with jemalloc (see Sources/storysite/main.swift), but not in a
// sanitizer's build (Scripts/sanitize sets STORYSITE_SYSTEM_MALLOC): the sanitizer serves malloc
// itself, and would be handed memory jemalloc allocated to free.
let allocator: [Target.Dependency] = Context.environment["STORYSITE_SYSTEM_MALLOC"] == nil ? ["CJemalloc"] : []

let package = Package(
    name: "storysite",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "storysite", targets: ["storysite"]),
    ],
    targets: [
        // C libraries from Debian, wrapped as system-library targets.
        .systemLibrary(
            name: "CCMark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // The preview server (Sources/HTTPServer): libmicrohttpd's headers only, without
        // pkg-config's -lmicrohttpd, since the library is opened when a server first starts.
        .systemLibrary(
            name: "CMicroHTTPD",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // HTTP(S) client requests under storysite's own limits (Sources/NetworkLimits): libcurl's
        // headers only, without pkg-config's -lcurl, since the library is opened when first needed.
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // HMAC-SHA1, to check the signature of Storyblok's webhooks in `serve`: libcrypto's
        // headers only, without pkg-config's -lcrypto, since the library is opened when first needed.
        .systemLibrary(
            name: "CCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // The memory allocator of the executables (see Sources/storysite/main.swift).
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),

        // The pipeline stages.
        .target(name: "CMemoryPolicy"),
        .target(name: "StoryModel"),
        .target(name: "ParallelWork"),
        .target(name: "LoadedLibrary"),
        .target(name: "NetworkLimits", dependencies: ["CCurl", "LoadedLibrary"]),
        .target(name: "StorySource", dependencies: ["StoryModel", "ParallelWork", "NetworkLimits"]),
        .target(name: "StoryCrawl", dependencies: ["StoryModel", "StorySource", "ParallelWork"]),
        .target(name: "Mustache"),
        .target(name: "StoryRender", dependencies: ["StoryModel", "StoryCrawl", "Mustache", "CCMark"]),
        .target(name: "SiteOutput", dependencies: ["StoryModel", "ParallelWork"]),
        .target(name: "LinkCheck", dependencies: ["CLibXML2", "StoryModel", "StoryCrawl", "NetworkLimits"]),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "LoadedLibrary"]),
        .target(name: "Preview", dependencies: ["HTTPServer", "CCrypto", "LoadedLibrary"]),
        // The site model over the stages: settings, page plan, build cache, incremental rebuild.
        .target(
            name: "SiteBuild",
            dependencies: ["StoryModel", "StorySource", "StoryCrawl", "Mustache", "StoryRender", "SiteOutput", "LinkCheck", "ParallelWork", "CMemoryPolicy"]
        ),
        .target(
            name: "StorySiteCLI",
            dependencies: ["SiteBuild", "StoryModel", "StorySource", "StoryCrawl", "SiteOutput", "LinkCheck", "Preview", "HTTPServer", "NetworkLimits"]
        ),
        .executableTarget(name: "storysite", dependencies: ["StorySiteCLI"] + allocator),

        // Tests: one suite per module, folders mirroring Sources/.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "StoryModelTests", dependencies: ["StoryModel", "TestSupport"]),
        .testTarget(name: "ParallelWorkTests", dependencies: ["ParallelWork", "TestSupport"]),
        .testTarget(name: "LoadedLibraryTests", dependencies: ["LoadedLibrary"]),
        .testTarget(name: "NetworkLimitsTests", dependencies: ["NetworkLimits", "TestSupport"]),
        .testTarget(name: "StorySourceTests", dependencies: ["StorySource", "NetworkLimits", "TestSupport", "FakeStoryblokAPI"]),
        .testTarget(name: "StoryCrawlTests", dependencies: ["StoryCrawl", "StorySource", "TestSupport"]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache", "TestSupport"]),
        .testTarget(name: "StoryRenderTests", dependencies: ["StoryRender", "StoryCrawl", "StorySource", "Mustache", "TestSupport"]),
        .testTarget(name: "SiteOutputTests", dependencies: ["SiteOutput", "TestSupport"]),
        .testTarget(name: "LinkCheckTests", dependencies: ["LinkCheck", "NetworkLimits", "StoryCrawl", "StorySource", "TestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "PreviewTests", dependencies: ["Preview", "HTTPServer", "TestSupport"]),
        .testTarget(name: "SiteBuildTests", dependencies: ["SiteBuild", "Mustache", "StoryCrawl", "StoryModel", "TestSupport"]),
        .testTarget(name: "StorySiteCLITests", dependencies: ["StorySiteCLI", "SiteOutput", "StoryModel", "Preview", "HTTPServer", "TestSupport", "FakeStoryblokAPI"]),
        .target(name: "FakeStoryblokAPI", dependencies: ["HTTPServer", "StoryModel"], path: "Tests/FakeStoryblokAPI"),

        // Benchmarks: executables that print figures. Run with `swift run -c release <name>`.
        .target(name: "SyntheticSpace", dependencies: ["StoryModel"], path: "Benchmarks/SyntheticSpace"),
        .executableTarget(name: "mustache-benchmark", dependencies: ["Mustache"], path: "Benchmarks/MustacheBenchmark"),
        .executableTarget(name: "crawl-benchmark", dependencies: ["SyntheticSpace", "StorySource", "StoryCrawl"], path: "Benchmarks/CrawlBenchmark"),
        .executableTarget(
            name: "render-benchmark",
            dependencies: ["SyntheticSpace", "StorySource", "StoryCrawl", "StoryRender", "Mustache"],
            path: "Benchmarks/RenderBenchmark"
        ),
        .executableTarget(name: "preview-benchmark", dependencies: ["Preview"], path: "Benchmarks/PreviewBenchmark"),
        .executableTarget(name: "check-benchmark", dependencies: ["LinkCheck", "TestSupport"], path: "Benchmarks/CheckBenchmark"),
        .executableTarget(name: "stat-benchmark", path: "Benchmarks/StatBenchmark"),
        .executableTarget(name: "memory-benchmark", path: "Benchmarks/MemoryBenchmark"),
        .executableTarget(
            name: "build-benchmark", dependencies: ["SyntheticSpace", "StorySiteCLI", "TestSupport"] + allocator,
            path: "Benchmarks/BuildBenchmark"),
        .executableTarget(
            name: "serve-benchmark", dependencies: ["SyntheticSpace", "FakeStoryblokAPI", "StoryModel", "TestSupport"],
            path: "Benchmarks/ServeBenchmark"),
        .executableTarget(
            name: "api-benchmark",
            dependencies: ["SyntheticSpace", "FakeStoryblokAPI", "StorySource", "StoryCrawl"],
            path: "Benchmarks/APIBenchmark"
        ),
    ],
    swiftLanguageModes: [.v6]
)
