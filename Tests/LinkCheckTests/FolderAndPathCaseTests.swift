import Foundation
import LinkCheck
import Testing

extension LinkCheckTests {
    /// `link-edge-cases.md`, "Folders, files and paths": one test per rule.
    @Suite("Edge cases: folders, files and paths")
    struct FolderAndPathCaseTests {

        @Test("a folder link resolves with or without its slash or index.html, and '.' is this folder's index")
        func folderLinks() async throws {
            let report = try await Fixture.check([
                "a/index.html": Fixture.page("<p>a</p>"),
                "b/page.html": Fixture.page(##"<a href="../a/">1</a>"##, ##"<a href="../a">2</a>"##, ##"<a href="../a/index.html">3</a>"##, ##"<a href=".">4</a>"##),
                "c/index.html": Fixture.page("<p>c</p>"),
                "c/page.html": Fixture.page(##"<a href=".">here</a>"##),
            ])
            #expect(report.findings == [Fixture.broken("b/page.html", line: 6, ".", "folder 'b/' has no index.html")])
            #expect(report.links == 5)
        }

        @Test("a folder without index.html is broken: hosts do not list folders")
        func folderWithoutIndex() async throws {
            let report = try await Fixture.check([
                "index.html": Fixture.page(##"<a href="empty/">1</a>"##, ##"<a href="empty">2</a>"##),
                "empty/image.png": "png",
            ])
            #expect(report.findings == [
                Fixture.broken("index.html", line: 3, "empty/", "folder 'empty/' has no index.html"),
                Fixture.broken("index.html", line: 4, "empty", "folder 'empty/' has no index.html"),
            ])
        }

        @Test("a root-relative path resolves against the site root, and '..' above the root stays there")
        func rootRelativePaths() async throws {
            let report = try await Fixture.check([
                "page.html": Fixture.page("<p>root</p>"),
                "a/b/index.html": Fixture.page(
                    ##"<a href="/page.html">1</a>"##, ##"<a href="../../../../page.html">2</a>"##,
                    ##"<a href="/../page.html">3</a>"##, ##"<a href="/missing.html">4</a>"##),
            ])
            #expect(report.findings == [Fixture.broken("a/b/index.html", line: 6, "/missing.html", "no file or folder 'missing.html'")])
        }

        @Test("query strings are ignored for files, and '?page=2' alone is the same page")
        func queryStrings() async throws {
            let report = try await Fixture.check([
                "page.html": Fixture.page(##"<a href="page.html?x=1">1</a>"##, ##"<a href="?page=2">2</a>"##, ##"<a href="other.html?x=1">3</a>"##),
            ])
            #expect(report.findings == [Fixture.broken("page.html", line: 5, "other.html?x=1", "no file or folder 'other.html'")])
        }

        @Test("percent-encoded names are decoded once as UTF-8; a raw space warns; raw UTF-8 is fine")
        func percentEncodedNames() async throws {
            let report = try await Fixture.check([
                "file with space.html": Fixture.page("<p>space</p>"),
                "café.html": Fixture.page("<p>café</p>"),
                "index.html": Fixture.page(
                    ##"<a href="file%20with%20space.html">1</a>"##, ##"<a href="caf%C3%A9.html">2</a>"##,
                    ##"<a href="file with space.html">3</a>"##, ##"<a href="café.html">4</a>"##,
                    ##"<a href="caf%25C3%25A9.html">5</a>"##),
            ])
            #expect(report.findings == [
                Fixture.warning("index.html", line: 5, "file with space.html", "raw space in the link; write it as %20"),
                Fixture.broken("index.html", line: 7, "caf%25C3%25A9.html", "no file or folder 'caf%C3%A9.html'"),
            ])
        }

        @Test("matching is byte-exact and case-exact: other case, other extension case and NFC against NFD are broken")
        func byteExactMatching() async throws {
            let nfdName = "cafe\u{301}.html"
            let report = try await Fixture.check([
                "Upper.html": Fixture.page("<p>upper</p>"),
                "image.png": "png",
                nfdName: Fixture.page("<p>nfd</p>"),
                "index.html": Fixture.page(
                    ##"<a href="Upper.html">1</a>"##, ##"<a href="upper.html">2</a>"##, ##"<img src="image.PNG">"##,
                    "<a href=\"cafe\u{301}.html\">4</a>", "<a href=\"caf\u{E9}.html\">5</a>"),
            ])
            #expect(report.findings == [
                Fixture.broken("index.html", line: 4, "upper.html", "no file or folder 'upper.html'"),
                Fixture.broken("index.html", line: 5, "image.PNG", "no file or folder 'image.PNG'"),
                Fixture.broken("index.html", line: 7, "caf\u{E9}.html", "no file or folder 'caf\u{E9}.html'"),
            ])
            #expect(report.findings.last.map { Array($0.target.utf8) } == Array("caf\u{E9}.html".utf8))
        }

        @Test("'%2e%2e/' is a '..' segment, a backslash acts as '/' with a warning, and '%2F' in a segment depends on the host")
        func encodedDotsBackslashesAndSlashes() async throws {
            let files = [
                "page.html": Fixture.page("<p>root</p>"),
                "a/b.html": Fixture.page("<p>b</p>"),
                "a/index.html": Fixture.page(##"<a href="%2e%2e/page.html">1</a>"##, ##"<a href="..\page.html">2</a>"##, ##"<a href="/a%2Fb.html">3</a>"##),
            ]
            let hostReason = "'%2F' in a path segment: hosts differ on whether it separates folders"
            let backslash = Fixture.warning("a/index.html", line: 4, "..\\page.html", "backslash in the path; browsers read it as '/', write '/'")
            let report = try await Fixture.check(files)
            #expect(report.findings == [backslash, Fixture.broken("a/index.html", line: 5, "/a%2Fb.html", hostReason)])
            let lenient = try await Fixture.check(files, options: .init(treatHostDependentAsBroken: false))
            #expect(lenient.findings == [backslash, Fixture.warning("a/index.html", line: 5, "/a%2Fb.html", hostReason)])
        }

        @Test("'page.html/' is broken (a file is not a folder), and '../page' with only page.html depends on the host")
        func fileAsFolderAndGuessedExtension() async throws {
            let report = try await Fixture.check([
                "page.html": Fixture.page("<p>page</p>"),
                "a/index.html": Fixture.page(##"<a href="../page.html/">1</a>"##, ##"<a href="../page">2</a>"##),
            ])
            #expect(report.findings == [
                Fixture.broken("a/index.html", line: 3, "../page.html/", "'page.html' is a file, not a folder"),
                Fixture.broken("a/index.html", line: 4, "../page", "no file 'page'; only hosts that add '.html' serve 'page.html'"),
            ])
        }

        @Test("whitespace around a link is stripped, tabs and line breaks inside are removed, entities are decoded but '&copy=' is not")
        func whitespaceAndEntities() async throws {
            let report = try await Fixture.check([
                "page.html": Fixture.page("<p>page</p>"),
                "a&copy=b.html": Fixture.page("<p>literal</p>"),
                "index.html": Fixture.page(
                    ##"<a href="  page.html  ">1</a>"##, "<a href=\"pa\tge.html\">2</a>", "<a href=\"pa\nge.html\">3</a>",
                    ##"<a href="page&#x2E;html">4</a>"##, ##"<a href="page.html?a=1&amp;b=2">5</a>"##,
                    ##"<a href="a&copy=b.html">6</a>"##, ##"<a href="a&copy;b.html">7</a>"##),
            ])
            #expect(report.findings == [Fixture.broken("index.html", line: 10, "a\u{A9}b.html", "no file or folder 'a\u{A9}b.html'")])
            #expect(report.links == 7)
        }
    }
}
