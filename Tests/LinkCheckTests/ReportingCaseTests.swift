import Foundation
import LinkCheck
import Testing

extension LinkCheckTests {
    /// `link-edge-cases.md`, "Reporting": one test per rule.
    @Suite("Edge cases: reporting")
    struct ReportingCaseTests {
        @Test("links resolving to one target give one finding with the first's line and target and an occurrence count")
        func oneFindingPerTarget() async throws {
            let report = try await Fixture.check([
                "index.html": Fixture.page(
                    ##"<a href="missing.html">1</a>"##, ##"<a href="./missing.html">2</a>"##, ##"<a href="/missing.html?x">3</a>"##,
                    ##"<a href="other.html">4</a>"##, ##"<a href="missing.html#a">5</a>"##),
            ])
            #expect(report.findings == [
                Fixture.broken("index.html", line: 3, "missing.html", "no file or folder 'missing.html'", times: 3),
                Fixture.broken("index.html", line: 6, "other.html", "no file or folder 'other.html'"),
                Fixture.broken("index.html", line: 7, "missing.html#a", "no file or folder 'missing.html'"),
            ])
        }

        @Test("a page larger than the parser's default limits is parsed completely")
        func hugePage() async throws {
            let text = String(repeating: "x", count: 11_000_000)
            let report = try await Fixture.check([
                "index.html": Fixture.page(
                    "<p title=\"\(text)\">\(text)</p>", "<!-- \(text) -->",
                    ##"<a href="#after">1</a><a href="after.html">2</a><p id="after"></p>"##),
            ])
            #expect(report.findings == [Fixture.broken("index.html", line: 5, "after.html", "no file or folder 'after.html'")])
        }
    }
}
