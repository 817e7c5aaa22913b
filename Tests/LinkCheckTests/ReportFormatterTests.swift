import LinkCheck
import Testing

extension LinkCheckTests {
    @Suite("Report formats")
    struct ReportFormatterTests {
        static let report = CheckReport(
            findings: [
                Finding(severity: .broken, source: "home", location: .field("body[2].columns[0].link"), target: "u-missing", reason: "no story has this UUID"),
                Finding(severity: .warning, source: "drafts/lonely", location: nil, target: "drafts/lonely", reason: "orphan: no entry story links to it"),
                Finding(severity: .broken, source: "about/index.html", location: .line(12), target: "../team/#lead",
                        reason: "no id or <a name> 'lead' in 'team/index.html'", occurrences: 3),
                Finding(severity: .warning, source: "about/index.html", location: .line(40), target: "", reason: "empty link (an unresolved link?)"),
                Finding(severity: .warning, source: "home", location: .field("title"), target: "a\"b\\c\n<&>%,:", reason: "odd, characters"),
            ],
            stories: 40, pages: 1_000, links: 12_340)

        @Test("the totals line groups thousands with commas and gets singular and plural right")
        func totals() {
            #expect(ReportFormatter.totals(CheckReport(findings: Array(Self.report.findings.prefix(4)).filter { $0.source != "home" } + [Self.report.findings[0]], pages: 1_000, links: 12_340))
                == "Checked 12,340 links in 1,000 pages: 2 broken, 2 warnings")
            #expect(ReportFormatter.totals(CheckReport(pages: 1, links: 1)) == "Checked 1 link in 1 page: 0 broken, 0 warnings")
            #expect(ReportFormatter.totals(CheckReport(findings: [Self.report.findings[1]], stories: 1, links: 1_234_567))
                == "Checked 1,234,567 links in 1 story: 0 broken, 1 warning")
            #expect(ReportFormatter.totals(CheckReport()) == "Checked 0 links in 0 pages: 0 broken, 0 warnings")
            #expect(ReportFormatter.totals(Self.report) == "Checked 12,340 links in 40 stories and 1,000 pages: 2 broken, 3 warnings")
        }

        @Test("text groups findings by source, one line each with where, what target and why, then the totals")
        func text() {
            #expect(ReportFormatter.text(Self.report) == """
                home
                  body[2].columns[0].link: broken: "u-missing": no story has this UUID
                  title: warning: "a"b\\c\\n<&>%,:": odd, characters
                drafts/lonely
                  warning: "drafts/lonely": orphan: no entry story links to it
                about/index.html
                  line 12: broken: "../team/#lead": no id or <a name> 'lead' in 'team/index.html' (3 links)
                  line 40: warning: "": empty link (an unresolved link?)
                Checked 12,340 links in 40 stories and 1,000 pages: 2 broken, 3 warnings

                """)
        }

        @Test("JSON has sorted keys, broken and warnings in report order, and the counts")
        func json() {
            #expect(ReportFormatter.json(Self.report) == #"""
                {
                  "broken": [
                    {
                      "count": 1,
                      "field": "body[2].columns[0].link",
                      "reason": "no story has this UUID",
                      "source": "home",
                      "target": "u-missing"
                    },
                    {
                      "count": 3,
                      "line": 12,
                      "reason": "no id or <a name> 'lead' in 'team/index.html'",
                      "source": "about/index.html",
                      "target": "../team/#lead"
                    }
                  ],
                  "checked": {
                    "links": 12340,
                    "pages": 1000,
                    "stories": 40
                  },
                  "warnings": [
                    {
                      "count": 1,
                      "reason": "orphan: no entry story links to it",
                      "source": "drafts/lonely",
                      "target": "drafts/lonely"
                    },
                    {
                      "count": 1,
                      "line": 40,
                      "reason": "empty link (an unresolved link?)",
                      "source": "about/index.html",
                      "target": ""
                    },
                    {
                      "count": 1,
                      "field": "title",
                      "reason": "odd, characters",
                      "source": "home",
                      "target": "a\"b\\c\n<&>%,:"
                    }
                  ]
                }

                """#)
            #expect(ReportFormatter.json(CheckReport()) == """
                {
                  "broken": [],
                  "checked": {
                    "links": 0,
                    "pages": 0,
                    "stories": 0
                  },
                  "warnings": []
                }

                """)
        }

        @Test("GitHub annotations carry file and line for pages, escape what workflow commands need, and end with the totals")
        func github() {
            let report = CheckReport(
                findings: Self.report.findings + [Finding(severity: .broken, source: "a,b:c.html", location: .line(1), target: "x", reason: "100% gone")],
                stories: 40, pages: 1_000, links: 12_340)
            #expect(ReportFormatter.github(report, filePrefix: "Output/") == """
                ::error::home body[2].columns[0].link: broken link "u-missing": no story has this UUID
                ::warning::drafts/lonely: warning "drafts/lonely": orphan: no entry story links to it
                ::error file=Output/about/index.html,line=12::broken link "../team/#lead": no id or <a name> 'lead' in 'team/index.html' (3 links)
                ::warning file=Output/about/index.html,line=40::warning "": empty link (an unresolved link?)
                ::warning::home title: warning "a"b\\c\\n<&>%25,:": odd, characters
                ::error file=Output/a%2Cb%3Ac.html,line=1::broken link "x": 100%25 gone
                Checked 12,340 links in 40 stories and 1,000 pages: 3 broken, 3 warnings

                """)
        }

        @Test("a story's finding with a file position annotates that file and line; links not checked are counted once in the totals")
        func githubFilePositions() {
            var placed = Self.report.findings[0]
            placed.file = Finding.FilePosition(path: "Content/home,1.json", line: 7)
            let report = CheckReport(findings: [placed], stories: 1, links: 3, unchecked: 181, uncheckedReason: "no host name resolves here")
            #expect(ReportFormatter.github(report, filePrefix: "Output/") == """
                ::error file=Content/home%2C1.json,line=7::home body[2].columns[0].link: broken link "u-missing": no story has this UUID
                Checked 3 links in 1 story: 1 broken, 0 warnings; 181 external links not checked: no host name resolves here

                """)
            #expect(ReportFormatter.totals(CheckReport(pages: 1, unchecked: 1, uncheckedReason: "why"))
                == "Checked 0 links in 1 page: 0 broken, 0 warnings; 1 external link not checked: why")
        }

        /// Content that tries to drive a terminal (ESC, BEL, NUL) or a CI log (a line of its own
        /// that GitHub Actions reads as a workflow command).
        static let hostile = CheckReport(findings: [
            Finding(severity: .broken, source: "a\u{1B}]0;owned\u{7}\u{0}b/index.html", location: .line(3),
                    target: "x\n::error file=INJECTED,line=1::pwned\u{1B}[2J", reason: "no file or folder 'x\r\n::warning::y'"),
            Finding(severity: .warning, source: "story\u{9B}31m", location: .field("body[0]\n::error::z"), target: "\u{202E}gpj.exe", reason: "odd"),
        ], stories: 1, pages: 1, links: 2)

        @Test("no format prints a control character from content raw, nor a line of content's own")
        func hostileContent() {
            let outputs = [
                "text": ReportFormatter.text(Self.hostile), "github": ReportFormatter.github(Self.hostile),
                "junit": ReportFormatter.junit(Self.hostile), "json": ReportFormatter.json(Self.hostile),
            ]
            for (format, output) in outputs {
                let raw = output.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" }
                #expect(raw.isEmpty, "\(format) prints \(raw.map { $0.value })")
                let injected = output.split(separator: "\n").filter { $0.hasPrefix("::") && !$0.hasPrefix("::error file=a") && !$0.hasPrefix("::warning::story") }
                #expect(injected.isEmpty, "\(format): \(injected)")
            }
            #expect(ReportFormatter.text(Self.hostile).contains(#"a\u{1B}]0;owned\u{7}\u{0}b/index.html"#))
            #expect(ReportFormatter.github(Self.hostile).split(separator: "\n").count == 3)
            #expect(ReportFormatter.github(Self.hostile).hasPrefix(
                #"::error file=a\u{1B}]0;owned\u{7}\u{0}b/index.html,line=3::broken link "x\n::error file=INJECTED,line=1::pwned\u{1B}[2J""#))
        }

        @Test("JUnit has a failing case per broken link, a case with output per warning and a passing totals case")
        func junit() {
            #expect(ReportFormatter.junit(Self.report) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="storysite check" tests="6" failures="2">
                  <testsuite name="links" tests="6" failures="2">
                    <testcase classname="home" name="body[2].columns[0].link: &quot;u-missing&quot;">
                      <failure type="broken" message="no story has this UUID">home: body[2].columns[0].link: &quot;u-missing&quot;: no story has this UUID</failure>
                    </testcase>
                    <testcase classname="drafts/lonely" name="&quot;drafts/lonely&quot;">
                      <system-out>warning: drafts/lonely: &quot;drafts/lonely&quot;: orphan: no entry story links to it</system-out>
                    </testcase>
                    <testcase classname="about/index.html" name="line 12: &quot;../team/#lead&quot;">
                      <failure type="broken" message="no id or &lt;a name&gt; 'lead' in 'team/index.html'">about/index.html: line 12: &quot;../team/#lead&quot;: no id or &lt;a name&gt; 'lead' in 'team/index.html' (3 links)</failure>
                    </testcase>
                    <testcase classname="about/index.html" name="line 40: &quot;&quot;">
                      <system-out>warning: about/index.html: line 40: &quot;&quot;: empty link (an unresolved link?)</system-out>
                    </testcase>
                    <testcase classname="home" name="title: &quot;a&quot;b\\c\\n&lt;&amp;&gt;%,:&quot;">
                      <system-out>warning: home: title: &quot;a&quot;b\\c\\n&lt;&amp;&gt;%,:&quot;: odd, characters</system-out>
                    </testcase>
                    <testcase classname="storysite check" name="Checked 12,340 links in 40 stories and 1,000 pages: 2 broken, 3 warnings"/>
                  </testsuite>
                </testsuites>

                """)
        }
    }
}
