import Foundation
import LinkCheck
import Testing
import TestSupport

extension LinkCheckTests {
    @Suite("HTML folder check")
    struct HTMLFolderCheckTests {
        /// A small site as the default theme renders it, with one of each kind of broken link planted.
        static let plantedSite: [String: String] = [
            "index.html": Fixture.page(
                ##"<nav><a href="./">Home</a> <a href="blog/">Blog</a> <a href="about/">About</a></nav>"##,
                ##"<a href="pricing/">Pricing</a>"##,
                ##"<img src="assets/hero.jpg" srcset="assets/hero.jpg 1x,assets/hero@2x.jpg 2x" alt="">"##,
                ##"<a href="blog/first%20post/">First post</a>"##,
                head: ##"<link rel="stylesheet" href="assets/site.css?v=3">"##),
            "blog/index.html": Fixture.page(
                ##"<a href="../">Home</a> <a href="first post/#comments">Comments</a>"##,
                ##"<a href="../about/#team">Team</a> <a href="#archive">Archive</a>"##,
                head: ##"<link rel="stylesheet" href="../assets/site.css">"##),
            "blog/first post/index.html": Fixture.page(##"<h1 id="title">First post</h1>"##, ##"<a href="../../assets/">Assets</a>"##),
            "about/index.html": Fixture.page(##"<h1 id="about">About</h1>"##, ##"<a href="/">Home</a>"##),
            "assets/site.css": "body{}",
            "assets/hero.jpg": "jpg",
        ]

        static let plantedFindings = [
            Fixture.broken("blog/first post/index.html", line: 4, "../../assets/", "folder 'assets/' has no index.html"),
            Fixture.warning("blog/index.html", line: 3, "first post/#comments", "raw space in the link; write it as %20"),
            Fixture.broken("blog/index.html", line: 3, "first post/#comments", "no id or <a name> 'comments' in 'blog/first post/index.html'"),
            Fixture.broken("blog/index.html", line: 4, "../about/#team", "no id or <a name> 'team' in 'about/index.html'"),
            Fixture.broken("blog/index.html", line: 4, "#archive", "no id or <a name> 'archive' on this page"),
            Fixture.broken("index.html", line: 4, "pricing/", "no folder 'pricing/'"),
            Fixture.broken("index.html", line: 5, "assets/hero@2x.jpg", "no file or folder 'assets/hero@2x.jpg'"),
        ]

        @Test("finds every planted kind of broken link in a small site, in page order then line order")
        func plantedBrokenLinks() async throws {
            let report = try await Fixture.check(Self.plantedSite)
            #expect(report.findings == Self.plantedFindings)
            #expect(report.pages == 4)
            #expect(report.links == 16)
        }

        @Test("checks pages held in memory as it checks them on disk")
        func inMemoryPages() async throws {
            let pages = Self.plantedSite.filter { $0.key.hasSuffix(".html") }.mapValues { Data($0.utf8) }
            let otherFiles = Set(Self.plantedSite.keys.filter { !$0.hasSuffix(".html") })
            let report = await HTMLFolderCheck().check(pages: pages, otherFiles: otherFiles)
            #expect(report == (try await Fixture.check(Self.plantedSite)))
        }

        @Test("gives the same report whatever the parallelism")
        func deterministicOrder() async throws {
            var site: [String: String] = ["index.html": Fixture.page("<p>home</p>")]
            for number in 0..<120 {
                site["p/\(number)/index.html"] = Fixture.page(
                    ##"<h2 id="s">S</h2><a href="../\##((number + 1) % 130)/#s">next</a>"##,
                    ##"<a href="../\##(number)/#missing-\##(number % 7)">self</a><img src="/img/\##(number % 9).png">"##)
            }
            for number in 0..<5 { site["img/\(number).png"] = "png" }
            let serial = try await Fixture.check(site, options: .init(parallelism: 1))
            let parallel = try await Fixture.check(site, options: .init(parallelism: 4))
            #expect(serial == parallel)
            #expect(serial.pages == 121)
            // Every page's missing self anchor, images 5 to 8 (52 pages), and page 119's next link.
            #expect(serial.findings.count == 173)
        }

        @Test("a hand-made site with everything a real site has reports nothing")
        func noFalsePositives() async throws {
            let report = try await Fixture.check([
                "index.html": Fixture.page(
                    ##"<header><a href="./" aria-current="page">Kestrel</a><nav><a href="about/">About</a><a href="blog/">Blog</a><a href="docs/installation/">Docs</a></nav></header>"##,
                    ##"<main id="main"><a href="#main" class="skip">Skip</a><a href="#top">Top</a>"##,
                    ##"<picture><source type="image/webp" srcset="assets/images/team.webp 1x, assets/images/team@2x.webp 2x"><img src="assets/images/team.jpg?w=800&amp;h=600" alt="" loading="lazy"></picture>"##,
                    ##"<a href="mailto:hello@example.com">Mail</a> <a href="tel:+44 117 000 0000">Call</a> <a href="https://github.com/kestrel">GitHub</a>"##,
                    ##"<a href="blog/hello-world/#comments">Comments</a> <a href="javascript:history.back()">Back</a>"##,
                    ##"<a href="legacy/old.htm#intro">An old page</a>"##,
                    ##"<script>const html = '<a href="nowhere.html">';</script><noscript><img src="assets/images/pixel.gif" alt=""></noscript>"##,
                    ##"<svg aria-hidden="true"><use href="assets/icons.svg#logo"></use></svg></main>"##,
                    head: ##"<link rel="preconnect" href="https://fonts.example.com"><link rel="stylesheet" href="assets/site.css?v=1.2"><link rel="icon" href="/favicon.ico"><link rel="canonical" href="https://kestrel.example/">"##),
                "about/index.html": Fixture.page(##"<a href="../">Home</a><a href="../blog/hello-world/">Post</a><a href="../404.html">Missing page</a>"##),
                "blog/index.html": Fixture.page(##"<a href="hello-world/">Hello</a><a href="?page=2">Next</a><a href="../">Home</a>"##),
                "blog/hello-world/index.html": Fixture.page(
                    ##"<article><h1 id="hello">Hello</h1><section id="comments"></section></article>"##,
                    ##"<a href="../">Blog</a><a href="../../docs/installation#requirements">Requirements</a>"##),
                "docs/installation/index.html": Fixture.page(
                    ##"<h2 id="requirements">Requirements</h2><a href="../configuration/">Next</a>"##,
                    ##"<a href="/docs/configuration/#env-vars">Env</a><pre><code>&lt;a href="x.html"&gt;</code></pre>"##),
                "docs/configuration/index.html": Fixture.page(##"<h2 id="env-vars">Variables</h2><a href="./#env-vars">Here</a>"##),
                "404.html": Fixture.page(##"<a href="/">Home</a>"##),
                "legacy/old.htm": Fixture.page(##"<h1 id="intro">Old</h1><a href="../">Home</a>"##),
                "favicon.ico": "ico",
                "sitemap.xml": "<urlset/>",
                "assets/site.css": "body{}",
                "assets/icons.svg": "<svg/>",
                "assets/images/team.webp": "w", "assets/images/team@2x.webp": "w", "assets/images/team.jpg": "j",
                "assets/images/pixel.gif": "g",
            ])
            #expect(report.findings == [])
            #expect(report.pages == 8)
        }

        @Test("reads pages in their declared charset and UTF-8 without one, and skips what browsers show as text")
        func charsetsAndTextContent() async throws {
            let folder = try TemporaryFolder()
            try folder.write("café.html", Fixture.page("<p>café</p>"))
            try folder.write("utf8.html", "<html><body>\n<a href=\"café.html\">no charset</a>\n</body></html>\n")
            let latin1 = "<html><head><meta charset=\"iso-8859-1\"></head><body>\n<a href=\"café.html\">latin-1</a>\n</body></html>\n"
            try latin1.data(using: .isoLatin1)!.write(to: folder.path("latin1.html"))
            try folder.write("text.html", Fixture.page(
                ##"<textarea><a href="in-textarea.html">x</a></textarea><xmp><a href="in-xmp.html"></a></xmp>"##,
                ##"<iframe src="café.html"><a href="in-iframe.html">fallback</a></iframe><noembed><img src="in-noembed.png"></noembed>"##,
                ##"<noframes><a href="in-noframes.html"></a></noframes>"##,
                head: ##"<title>A <a href="in-title.html">title</a></title>"##))
            let report = try await HTMLFolderCheck().check(folder: folder.url)
            #expect(report.findings == [])
            #expect(report.links == 3)
        }

        @Test("follows symbolic links, listing a folder that links to itself once")
        func symbolicLinks() async throws {
            let folder = try TemporaryFolder()
            try folder.write("real/index.html", Fixture.page(##"<a href="../alias/">Alias</a><a href="loop/loop/index.html">Loop</a>"##))
            try FileManager.default.createSymbolicLink(atPath: folder.path("alias").path, withDestinationPath: "real")
            try FileManager.default.createSymbolicLink(atPath: folder.path("real/loop").path, withDestinationPath: ".")
            let report = try await HTMLFolderCheck().check(folder: folder.url)
            #expect(report.pages == 2)
            #expect(report.findings == [
                Fixture.broken("alias/index.html", line: 3, "loop/loop/index.html", "no file or folder 'alias/loop/loop/index.html'"),
                Fixture.broken("real/index.html", line: 3, "loop/loop/index.html", "no file or folder 'real/loop/loop/index.html'"),
            ])
        }

        @Test("refuses a path that is not a folder")
        func notAFolder() async throws {
            let folder = try TemporaryFolder()
            let file = try folder.write("page.html", "<p>x</p>")
            await #expect(throws: LinkCheckError.notAFolder(file.path)) {
                try await HTMLFolderCheck().check(folder: file)
            }
            await #expect(throws: LinkCheckError.notAFolder(folder.path("missing").path)) {
                try await HTMLFolderCheck().check(folder: folder.path("missing"))
            }
        }
    }
}
