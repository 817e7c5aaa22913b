import Foundation
import LinkCheck
import Testing

extension LinkCheckTests {
    /// `link-edge-cases.md`, "Fragments": one test per rule.
    @Suite("Edge cases: fragments")
    struct FragmentCaseTests {
        @Test("a fragment must match an element id, case-sensitively, or an <a name>; name on other elements does not count")
        func idsAndNames() async throws {
            let report = try await Fixture.check([
                "t.html": Fixture.page(##"<h2 id="Intro">Intro</h2>"##, ##"<a name="legacy"></a>"##, ##"<div name="not-an-anchor"></div>"##),
                "index.html": Fixture.page(
                    ##"<a href="t.html#Intro">1</a>"##, ##"<a href="t.html#intro">2</a>"##,
                    ##"<a href="t.html#legacy">3</a>"##, ##"<a href="t.html#not-an-anchor">4</a>"##),
            ])
            #expect(report.findings == [
                Fixture.broken("index.html", line: 4, "t.html#intro", "no id or <a name> 'intro' in 't.html'"),
                Fixture.broken("index.html", line: 6, "t.html#not-an-anchor", "no id or <a name> 'not-an-anchor' in 't.html'"),
            ])
        }

        @Test("a fragment is tried as written, then percent-decoded")
        func percentDecodedFragments() async throws {
            let report = try await Fixture.check([
                "index.html": Fixture.page(
                    ##"<h2 id="café">1</h2>"##, ##"<h2 id="a b">2</h2>"##, ##"<h2 id="100%25">3</h2>"##,
                    ##"<a href="#caf%C3%A9">4</a>"##, ##"<a href="#a%20b">5</a>"##, ##"<a href="#café">6</a>"##,
                    ##"<a href="#100%25">7</a>"##, ##"<a href="#caf%C3%A9s">8</a>"##),
            ])
            #expect(report.findings == [
                Fixture.broken("index.html", line: 10, "#caf%C3%A9s", "no id or <a name> 'caf%C3%A9s' on this page"),
            ])
        }

        @Test("an empty fragment, '#top' in any case and a text directive need no element; a non-HTML target's fragment is not checked")
        func fragmentsThatNeedNoElement() async throws {
            let report = try await Fixture.check([
                "t.html": Fixture.page(##"<h2 id="Intro">Intro</h2>"##),
                "doc.pdf": "%PDF",
                "index.html": Fixture.page(
                    ##"<a href="t.html#">1</a>"##, ##"<a href="#top">2</a>"##, ##"<a href="#TOP">3</a>"##,
                    ##"<a href="#:~:text=hello">4</a>"##, ##"<a href="t.html#Intro:~:text=x">5</a>"##,
                    ##"<a href="doc.pdf#page=2">6</a>"##),
            ])
            #expect(report.findings.isEmpty)
            #expect(report.links == 6)
        }

        @Test("ids inside <template> or comments do not exist, ids in <noscript> do, and a duplicate id warns")
        func hiddenAndDuplicateIDs() async throws {
            let report = try await Fixture.check([
                "index.html": Fixture.page(
                    ##"<template id="tpl"><p id="in-template">x</p></template>"##,
                    ##"<!-- <p id="in-comment">x</p> -->"##,
                    ##"<noscript><p id="in-noscript">x</p></noscript>"##,
                    ##"<p id="twice">1</p>"##, ##"<p id="twice">2</p>"##,
                    ##"<a href="#in-template">1</a>"##, ##"<a href="#in-comment">2</a>"##,
                    ##"<a href="#in-noscript">3</a>"##, ##"<a href="#tpl">4</a>"##),
            ])
            #expect(report.findings == [
                Fixture.warning("index.html", line: 7, "#twice", "duplicate id 'twice' (first on line 6)"),
                Fixture.broken("index.html", line: 8, "#in-template", "no id or <a name> 'in-template' on this page"),
                Fixture.broken("index.html", line: 9, "#in-comment", "no id or <a name> 'in-comment' on this page"),
            ])
        }

        @Test("a fragment on a folder link is checked in the folder's index.html, also without the trailing slash")
        func folderFragments() async throws {
            let report = try await Fixture.check([
                "docs/index.html": Fixture.page(##"<h2 id="install">Install</h2>"##),
                "index.html": Fixture.page(##"<a href="docs/#install">1</a>"##, ##"<a href="docs#install">2</a>"##, ##"<a href="docs#missing">3</a>"##),
            ])
            #expect(report.findings == [
                Fixture.broken("index.html", line: 5, "docs#missing", "no id or <a name> 'missing' in 'docs/index.html'"),
            ])
        }

        @Test("a missing id on the same page or on another page is broken")
        func missingIDs() async throws {
            let report = try await Fixture.check([
                "other.html": Fixture.page("<p>no ids</p>"),
                "old.HTM": Fixture.page("<p>no ids</p>"),
                "index.html": Fixture.page(##"<a href="#nowhere">1</a>"##, ##"<a href="other.html#gone">2</a>"##, ##"<a href="old.HTM#gone">3</a>"##),
            ])
            #expect(report.findings == [
                Fixture.broken("index.html", line: 3, "#nowhere", "no id or <a name> 'nowhere' on this page"),
                Fixture.broken("index.html", line: 4, "other.html#gone", "no id or <a name> 'gone' in 'other.html'"),
                Fixture.broken("index.html", line: 5, "old.HTM#gone", "no id or <a name> 'gone' in 'old.HTM'"),
            ])
        }
    }
}
