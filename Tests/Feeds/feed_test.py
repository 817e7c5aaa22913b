#!/usr/bin/env python3
"""Atom feeds, read by a real feed parser.

Writes a small site of its own in a temporary folder (stories, templates and storysite.json, with
a `news/` listing whose feed holds 6 entries), builds it with the built `storysite build`, and
reads `news/feed.xml` with feedparser (from PyPI). It checks that:
  1. without a base URL no feed is written and the build warns about the feed;
  2. with `--base-url` the feed is well-formed Atom 1.0 (feedparser's `bozo` is false, its
     version `atom10`);
  3. the entries are the folder's stories and its sub-folders' start pages (not deeper stories,
     not the folder's own start page), in `first_published_at desc` order: a tie is broken by
     `full_slug`, stories without the date come last, and only the first `feedSize` appear;
  4. titles holding `&` and `<` read back as written;
  5. each entry's alternate link and id are the absolute URL of its page;
  6. `published` and `updated` are RFC 3339 UTC timestamps of the expected instants (from both of
     Storyblok's date forms; `updated` falls back to `published`), and the feed's `updated` is
     the latest entry's;
  7. summaries are the HTML of the `excerpt` field: Markdown rendered, richtext rendered with its
     story link made absolute; stories without the field have no summary;
  8. `sitemap.xml` does not list the feed;
  9. a `baseURL` in storysite.json (with a path) works like `--base-url`.
Prints `feeds: N passed, M failed` and exits non-zero on any failure. Every build is bounded.

Usage: feed_test.py [path/to/storysite]   (default: .build/debug/storysite)
"""
import calendar
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import feedparser

REPOSITORY = Path(__file__).resolve().parents[2]
BASE = "https://example.com/"
CONFIG_BASE = "https://example.org/site/"  # the baseURL of storysite.json in check 9
FEED_SIZE = 6
RFC3339_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def richtext(*inline):
    return {"type": "doc", "content": [{"type": "paragraph", "content": list(inline)}]}


def text(value, marks=None):
    node = {"type": "text", "text": value}
    if marks:
        node["marks"] = marks
    return node


# Every story of the site: (file, uuid, full_slug, name, first_published_at, published_at, excerpt).
# The news/ listing sorts by first_published_at desc; the comments say where each lands.
STORIES = [
    ("home.json", "home-uuid", "home", "Home", "2024-01-01 09:00", None, None),
    ("news/index.json", "news-uuid", "news/", "News", "2024-01-01 09:00", None, None),
    # 1st: the start page of a sub-folder.
    ("news/archive/index.json", "archive-uuid", "news/archive/", "Archive",
     "2024-05-01T12:00:00.000Z", "2024-05-02T12:00:00.000Z", None),
    # Not in the feed: deeper than the folder's direct stories, though the newest.
    ("news/archive/deep.json", "deep-uuid", "news/archive/deep", "Deep in the archive",
     "2024-07-01T00:00:00.000Z", "2024-07-01T00:00:00.000Z", "Deep"),
    # 2nd: the `2024-03-30 08:00` form, a title with & and <, a Markdown excerpt.
    ("news/alpha.json", "alpha-uuid", "news/alpha", "Alpha & <Beta>",
     "2024-04-10 08:00", "2024-04-12T10:30:15.250Z", "Some *Markdown* & more"),
    # 3rd and 4th: a tie on first_published_at, broken by full_slug (bravo before charlie), though
    # their names and uuids sort the other way. Bravo has no published_at: updated = published.
    ("news/bravo.json", "z-bravo-uuid", "news/bravo", "Zulu tie", "2024-03-20T09:00:00.000Z", None,
     richtext(text("Read "),
              text("the first post", [{"type": "link", "attrs": {
                  "href": "/news/alpha", "uuid": "alpha-uuid", "linktype": "story", "anchor": None, "target": None}}]),
              text(" again."))),
    ("news/charlie.json", "a-charlie-uuid", "news/charlie", "Able tie", "2024-03-20T09:00:00.000Z", "2024-03-21 07:45", None),
    # 5th: a minute earlier than the tie, in the other date form.
    ("news/delta.json", "delta-uuid", "news/delta", "Delta", "2024-03-20 08:59", "2024-03-20 08:59", None),
    # 6th and cut: no first_published_at, so last (by full_slug between them). Undated B has the
    # latest published_at of all, which must not show as the feed's updated: it is not in the feed.
    ("news/undated-a.json", "undated-a-uuid", "news/undated-a", "Undated A", None, "2024-02-01T00:00:00.000Z", None),
    ("news/undated-b.json", "undated-b-uuid", "news/undated-b", "Undated B", None, "2024-06-01T00:00:00.000Z", None),
]

# The feed's entries, in order: (title, page path, published, updated); None for no such date.
EXPECTED = [
    ("Archive", "news/archive/", "2024-05-01T12:00:00Z", "2024-05-02T12:00:00Z"),
    ("Alpha & <Beta>", "news/alpha/", "2024-04-10T08:00:00Z", "2024-04-12T10:30:15Z"),
    ("Zulu tie", "news/bravo/", "2024-03-20T09:00:00Z", "2024-03-20T09:00:00Z"),
    ("Able tie", "news/charlie/", "2024-03-20T09:00:00Z", "2024-03-21T07:45:00Z"),
    ("Delta", "news/delta/", "2024-03-20T08:59:00Z", "2024-03-20T08:59:00Z"),
    ("Undated A", "news/undated-a/", None, "2024-02-01T00:00:00Z"),
]
FEED_UPDATED = "2024-05-02T12:00:00Z"
MARKDOWN_SUMMARY = "<p>Some <em>Markdown</em> &amp; more</p>"
RICHTEXT_SUMMARY = '<p>Read <a href="{base}news/alpha/">the first post</a> again.</p>'


def write_site(workspace, base_url=None):
    settings = {
        "site": {"title": "Feed test"},
        "listings": {"news/": {"sort": "first_published_at desc", "feed": True, "feedSize": FEED_SIZE,
                               "summary": "content.excerpt"}},
    }
    if base_url:
        settings["baseURL"] = base_url
    (workspace / "storysite.json").write_text(json.dumps(settings, indent=2))
    templates = workspace / "Templates"
    (templates / "pages").mkdir(parents=True, exist_ok=True)
    (templates / "layout.mustache").write_text("<html><body>{{$main}}{{/main}}</body></html>\n")
    (templates / "pages/default.mustache").write_text("{{<layout}}{{$main}}{{story.name}}{{/main}}{{/layout}}\n")
    for file, uuid, slug, name, first, published, excerpt in STORIES:
        content = {"component": "post", "_uid": uuid + "-root"}
        if excerpt is not None:
            content["excerpt"] = excerpt
        if slug == "home":
            content["component"] = "page"
            content["news"] = {"fieldtype": "multilink", "linktype": "story", "id": "news-uuid", "url": "", "cached_url": "news/"}
        story = {"uuid": uuid, "name": name, "slug": slug.rstrip("/").rsplit("/", 1)[-1] or slug,
                 "full_slug": slug, "content": content}
        if first is not None:
            story["first_published_at"] = first
        if published is not None:
            story["published_at"] = published
        path = workspace / "Content" / file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"story": story}, indent=2))


def build(executable, workspace, *arguments):
    return subprocess.run([str(executable), "build", *arguments], cwd=workspace, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "NO_COLOR": "1"})


def describe(result):
    return f"exit {result.returncode}\n--- stdout\n{result.stdout}--- stderr\n{result.stderr}"


def instant(text):
    """Seconds since 1970 of an RFC 3339 UTC timestamp."""
    return calendar.timegm(tuple(int(part) for part in re.split(r"[-T:Z]", text)[:6]) + (0, 0, 0))


class Tokens(HTMLParser):
    """An HTML fragment as tags (attributes sorted) and text (runs joined, whitespace-only runs dropped)."""

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.tokens = []
        self.feed(html)
        self.close()
        self.tokens = [token for token in self.tokens if token[0] != "text" or token[1].strip()]

    def handle_starttag(self, tag, attrs):
        self.tokens.append(("start", tag, tuple(sorted(attrs))))

    def handle_endtag(self, tag):
        self.tokens.append(("end", tag))

    def handle_data(self, data):
        if self.tokens and self.tokens[-1][0] == "text":
            self.tokens[-1] = ("text", self.tokens[-1][1] + data)
        else:
            self.tokens.append(("text", data))


def same_html(actual, expected):
    return Tokens(actual).tokens == Tokens(expected).tokens


def parse_feed(path):
    assert path.is_file(), f"{path.name} was not written"
    # The HTML exactly as storysite wrote it: no sanitizing, no resolving of relative links.
    return feedparser.parse(path.read_bytes(), resolve_relative_uris=False, sanitize_html=False)


def alternate_links(entry):
    return [link.get("href") for link in entry.get("links", []) if link.get("rel") == "alternate"]


def main():
    executable = Path(sys.argv[1] if len(sys.argv) > 1 else REPOSITORY / ".build/debug/storysite").resolve()
    signal.alarm(300)  # the whole test is bounded, whatever hangs
    workspace = Path(tempfile.mkdtemp(prefix="storysite-feeds-"))
    results = []

    def check(name, test):
        try:
            test()
            results.append(True)
            print(f"ok   {name}")
        except Exception as error:  # any error fails this check only
            results.append(False)
            print(f"FAIL {name}: {type(error).__name__}: {error}")

    state = {}

    def feed():
        if "feed" not in state:
            state["feed"] = parse_feed(workspace / "Output/news/feed.xml")
        return state["feed"]

    def entry(title):
        found = [e for e in feed().entries if e.get("title") == title]
        assert len(found) == 1, f"{len(found)} entries titled {title!r}"
        return found[0]

    try:
        write_site(workspace)

        def no_base_url_no_feed():
            result = build(executable, workspace, "--output", "NoBase")
            assert result.returncode == 0, describe(result)
            assert (workspace / "NoBase/news/index.html").is_file(), "news/index.html was not written\n" + describe(result)
            feeds = sorted(str(p.relative_to(workspace / "NoBase")) for p in (workspace / "NoBase").rglob("feed.xml"))
            assert not feeds, f"feeds written without a base URL: {feeds}"
            assert re.search(r"warning", result.stderr, re.I) and re.search(r"feed", result.stderr, re.I), \
                "stderr has no warning about the feed\n" + describe(result)

        def with_base_url_feed_written():
            result = build(executable, workspace, "--base-url", BASE)
            state["build"] = result
            assert result.returncode == 0, describe(result)
            assert (workspace / "Output/news/feed.xml").is_file(), "Output/news/feed.xml was not written\n" + describe(result)

        def well_formed_atom():
            parsed = feed()
            assert not parsed.bozo, f"bozo: {parsed.get('bozo_exception')!r}"
            assert parsed.version == "atom10", f"version {parsed.version!r}"

        def entries_in_order():
            titles = [e.get("title") for e in feed().entries]
            assert titles == [title for title, *_ in EXPECTED], f"titles {titles}"

        def titles_verbatim():
            alpha = entry("Alpha & <Beta>")
            assert alpha.title_detail.type == "text/plain", f"title type {alpha.title_detail.type!r}"

        def links_absolute():
            for title, path, *_ in EXPECTED:
                found = entry(title)
                assert alternate_links(found) == [BASE + path], f"{title!r}: alternate links {alternate_links(found)}"
                assert found.get("id") == BASE + path, f"{title!r}: id {found.get('id')!r}"

        def dates():
            for title, _, published, updated in EXPECTED:
                found = entry(title)
                if published is None:
                    assert "published" not in found, f"{title!r}: published {found.get('published')!r}, expected none"
                else:
                    assert RFC3339_UTC.match(found.get("published", "")), f"{title!r}: published {found.get('published')!r}"
                    assert calendar.timegm(found.published_parsed) == instant(published), \
                        f"{title!r}: published {found.get('published')!r}, expected {published}"
                assert RFC3339_UTC.match(found.get("updated", "")), f"{title!r}: updated {found.get('updated')!r}"
                assert calendar.timegm(found.updated_parsed) == instant(updated), \
                    f"{title!r}: updated {found.get('updated')!r}, expected {updated}"

        def feed_updated_is_latest():
            header = feed().feed
            assert RFC3339_UTC.match(header.get("updated", "")), f"feed updated {header.get('updated')!r}"
            latest = max(calendar.timegm(e.updated_parsed) for e in feed().entries)
            assert calendar.timegm(header.updated_parsed) == latest == instant(FEED_UPDATED), \
                f"feed updated {header.get('updated')!r}, expected {FEED_UPDATED}"

        def summaries():
            alpha = entry("Alpha & <Beta>")
            assert alpha.get("summary_detail", {}).get("type") == "text/html", f"alpha's summary: {alpha.get('summary_detail')!r}"
            assert same_html(alpha.summary, MARKDOWN_SUMMARY), f"alpha's summary {alpha.summary!r}"
            bravo = entry("Zulu tie")
            assert bravo.get("summary_detail", {}).get("type") == "text/html", f"bravo's summary: {bravo.get('summary_detail')!r}"
            assert same_html(bravo.summary, RICHTEXT_SUMMARY.format(base=BASE)), f"bravo's summary {bravo.summary!r}"
            for title in ["Archive", "Able tie", "Delta", "Undated A"]:
                assert "summary" not in entry(title), f"{title!r} has a summary {entry(title).get('summary')!r}"

        def sitemap_without_feed():
            sitemap = (workspace / "Output/sitemap.xml").read_text()
            assert BASE + "news/alpha/" in sitemap, "sitemap.xml does not list news/alpha/"
            assert "feed.xml" not in sitemap, "sitemap.xml lists the feed"

        def base_url_from_configuration():
            write_site(workspace, base_url=CONFIG_BASE)
            result = build(executable, workspace, "--output", "FromConfig")
            assert result.returncode == 0, describe(result)
            parsed = parse_feed(workspace / "FromConfig/news/feed.xml")
            assert not parsed.bozo, f"bozo: {parsed.get('bozo_exception')!r}"
            ids = [e.get("id") for e in parsed.entries]
            assert ids == [CONFIG_BASE + path for _, path, *_ in EXPECTED], f"ids {ids}"
            summary = [e for e in parsed.entries if e.get("title") == "Zulu tie"][0].get("summary", "")
            assert same_html(summary, RICHTEXT_SUMMARY.format(base=CONFIG_BASE)), f"bravo's summary {summary!r}"

        check("without a base URL: no feed.xml, and a warning about the feed", no_base_url_no_feed)
        check("with --base-url: the build writes news/feed.xml", with_base_url_feed_written)
        check("the feed is well-formed Atom 1.0 (bozo false, version atom10)", well_formed_atom)
        check(f"entries in first_published_at desc order: tie by full_slug, undated last, first {FEED_SIZE} only, "
              "sub-folder start page in, deeper stories out", entries_in_order)
        check("a title with & and < reads back as written, as text", titles_verbatim)
        check("each entry's link and id are the absolute URL of its page", links_absolute)
        check("published and updated are RFC 3339 UTC of the expected instants, from both date forms", dates)
        check("the feed's updated is the latest entry's", feed_updated_is_latest)
        check("summaries: Markdown and richtext as HTML, the story link absolute; none without the field", summaries)
        check("sitemap.xml does not list the feed", sitemap_without_feed)
        check("baseURL in storysite.json (with a path) gives the feed too, under it", base_url_from_configuration)
    finally:
        shutil.rmtree(workspace, ignore_errors=True)

    passed = results.count(True)
    failed = results.count(False)
    print(f"feeds: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
