import Foundation
import LinkCheck
import Testing

extension LinkCheckTests {
    /// `link-edge-cases.md`, "What is a link": one test per rule.
    @Suite("Edge cases: what is a link")
    struct LinkKindCaseTests {
        @Test("every link-bearing element and attribute is checked, every srcset candidate, and refresh URLs quoted or not")
        func checkedLinks() async throws {
            let report = try await Fixture.check([
                "index.html": Fixture.page(
                    ##"<a href="a.html">a</a>"##,
                    ##"<map name="m"><area href="area.html"></map>"##,
                    ##"<link rel="stylesheet" href="style.css"><link rel="icon" href="icon.png">"##,
                    ##"<link rel="preconnect" href="https://cdn.example.com"><link rel="dns-prefetch" href="/hint-only">"##,
                    ##"<img src="img.png" srcset="one.png 1x,two.png 2x, three.png 3x">"##,
                    ##"<picture><source srcset="wide.webp 800w, narrow.webp 400w"><img src="fallback.png"></picture>"##,
                    ##"<script src="app.js"></script><iframe src="frame.html"></iframe>"##,
                    ##"<video src="movie.mp4" poster="poster.jpg"><source src="movie.webm"></video>"##,
                    ##"<audio src="sound.mp3"></audio>"##,
                    ##"<meta http-equiv="refresh" content="5; url='quoted.html'">"##,
                    ##"<meta http-equiv="Refresh" content="0;URL=unquoted.html">"##),
            ])
            let missing = [
                (3, "a.html"), (4, "area.html"), (5, "style.css"), (5, "icon.png"),
                (7, "img.png"), (7, "one.png"), (7, "two.png"), (7, "three.png"),
                (8, "wide.webp"), (8, "narrow.webp"), (8, "fallback.png"),
                (9, "app.js"), (9, "frame.html"), (10, "movie.mp4"), (10, "poster.jpg"), (10, "movie.webm"),
                (11, "sound.mp3"), (12, "quoted.html"), (13, "unquoted.html"),
            ]
            #expect(report.findings == missing.map { Fixture.broken("index.html", line: $0.0, $0.1, "no file or folder '\($0.1)'") })
            #expect(report.links == missing.count)
        }

        @Test("CSS url(…) in style attributes and <style> elements is checked, on its own line, quoted or not, in any case")
        func cssURLs() async throws {
            let report = try await Fixture.check([
                "index.html": Fixture.page(
                    ##"<div class="hero" style="background-image:url(hero.jpg)">x</div>"##,
                    ##"<p style='background: URL( "quoted one.png" ) no-repeat, url(&quot;entity.png&quot;)'>y</p>"##,
                    "<style>",
                    ".a { background: url('single.png') }",
                    "/* url(commented.png) */ .b::before { content: \"url(string.png)\" }",
                    ".c { mask: my-url(function.png); background: url(data:image/png;base64,AAAA) }",
                    "@font-face { src: url(fonts/face.woff2) format('woff2') }",
                    ".d { filter: url(#nowhere) } .e { background: url(present.png) }",
                    "</style>",
                    ##"<script>var css = "url(scripted.png)";</script>"##,
                    ##"<template><div style="background:url(templated.png)"></div></template>"##),
                "present.png": "png",
            ])
            let missing = [
                (3, "hero.jpg", "no file or folder 'hero.jpg'"), (4, "quoted one.png", "no file or folder 'quoted one.png'"),
                (4, "entity.png", "no file or folder 'entity.png'"), (6, "single.png", "no file or folder 'single.png'"),
                (9, "fonts/face.woff2", "no file or folder 'fonts/face.woff2'"), (10, "#nowhere", "no id or <a name> 'nowhere' on this page"),
            ]
            #expect(report.findings.filter { $0.severity == .broken }
                == missing.map { Fixture.broken("index.html", line: $0.0, $0.1, $0.2) })
            #expect(report.links == missing.count + 1)
        }

        @Test("comments, script text, template content, escaped text, <a> without href and javascript:, mailto:, tel:, data: are not links")
        func notLinks() async throws {
            let report = try await Fixture.check([
                "index.html": Fixture.page(
                    ##"<!-- <a href="commented.html">x</a> -->"##,
                    ##"<script>document.write('<a href="scripted.html">x</a>'); var s = "</div>";</script>"##,
                    ##"<template><a href="templated.html">x</a><img src="templated.png"></template>"##,
                    ##"<pre>&lt;a href="escaped.html"&gt;</pre>"##,
                    ##"<a name="anchor-only">no href</a>"##,
                    ##"<a href="javascript:void(0)">js</a><a href=" JavaScript:go()">js</a>"##,
                    ##"<a href="mailto:me@example.com">mail</a><a href="&#109;&#97;ilto:me@example.com">mail</a>"##,
                    ##"<a href="tel:+41000000">call</a><img src="data:image/png;base64,AAAA">"##),
            ])
            #expect(report.findings.isEmpty)
            #expect(report.links == 0)
        }

        @Test("protocol-relative URLs and any scheme, in any case, are external: never looked up as files")
        func externalLinks() async throws {
            let files = [
                "index.html": Fixture.page(
                    ##"<script src="//cdn.example.com/x.js"></script>"##,
                    ##"<a href="HTTPS://example.com/Page">1</a>"##, ##"<a href="ftp://example.com/file">2</a>"##),
            ]
            let offline = try await Fixture.check(files)
            #expect(offline.findings.isEmpty)
            #expect(offline.links == 0)

            let client = ScriptedHTTPClient(["HEAD https://example.com/Page": [.success(404)], "GET https://example.com/Page": [.success(404)]])
            let online = try await Fixture.check(files, options: .init(checkExternal: true), externalCheck: ExternalLinkCheck(client: client))
            // Hosts are checked concurrently, so only the order within one host is fixed.
            let requests = await client.requests
            #expect(requests.sorted() == ["GET https://example.com/Page", "HEAD https://cdn.example.com/x.js", "HEAD https://example.com/Page"])
            #expect(requests.firstIndex(of: "HEAD https://example.com/Page")! < requests.firstIndex(of: "GET https://example.com/Page")!)
            #expect(online.findings == [Fixture.broken("index.html", line: 4, "HTTPS://example.com/Page", "HTTP 404")])
            #expect(online.links == 2)
        }

        @Test("the first <base href> counts, and relative links and even '#fragment' resolve against it")
        func baseHref() async throws {
            let report = try await Fixture.check([
                "docs/index.html": Fixture.page(##"<h2 id="install">Install</h2>"##),
                "docs/guide.html": Fixture.page("<p>guide</p>"),
                "a/index.html": Fixture.page(
                    ##"<a href="guide.html">1</a>"##, ##"<a href="#install">2</a>"##, ##"<a href="#missing">3</a>"##,
                    head: ##"<base href="/docs/"><base href="/other/">"##),
                "b/index.html": Fixture.page(##"<a href="nowhere.html">external</a>"##, head: ##"<base href="https://example.com/">"##),
            ])
            #expect(report.findings == [
                Fixture.broken("a/index.html", line: 5, "#missing", "no id or <a name> 'missing' in 'docs/index.html'"),
            ])
        }

        @Test("href=\"\" and href=\"#\" warn: valid, but in a CMS usually an unresolved link")
        func emptyAndHashLinks() async throws {
            let report = try await Fixture.check([
                "index.html": Fixture.page(##"<a href="">1</a>"##, ##"<a href="#">2</a>"##, ##"<a href=" # ">3</a>"##),
            ])
            #expect(report.findings == [
                Fixture.warning("index.html", line: 3, "", "empty link (an unresolved link?)"),
                Fixture.warning("index.html", line: 4, "#", "'#' leads nowhere (an unresolved link?)", times: 2),
            ])
        }
    }
}
