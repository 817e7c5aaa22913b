import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("Story links")
    struct StoryLinkTests {
        private func object(_ json: String) throws -> JSONObject {
            try #require(try JSONValue(parsing: json).objectValue)
        }

        @Test("reads a story multilink: the id first, then as a numeric id, then the cached slug")
        func multilink() throws {
            let link = try #require(StoryLink(multilink: try object(
                #"{"fieldtype": "multilink", "linktype": "story", "id": "2", "cached_url": "/about", "anchor": "team"}"#)))
            #expect(link.reference == .uuid("2"))
            #expect(link.anchor == "team")
            #expect(link.cachedURL == "about")
            #expect(link.lookupOrder == [.uuid("2"), .id(2), .slug("about")])
            #expect(link.embeddedStory == nil)
        }

        @Test("falls back to the cached slug when the id is empty, and is no link when both are")
        func emptyLinks() throws {
            let bySlug = try #require(StoryLink(multilink: try object(#"{"linktype": "story", "id": "", "cached_url": "blog/"}"#)))
            #expect(bySlug.reference == .slug("blog/"))
            #expect(bySlug.lookupOrder == [.slug("blog/")])
            #expect(StoryLink(multilink: try object(#"{"linktype": "story", "id": "", "cached_url": ""}"#)) == nil)
            #expect(StoryLink(multilink: try object(#"{"linktype": "story", "id": " ", "url": ""}"#)) == nil)
            let hugeID = try #require(StoryLink(multilink: try object(#"{"linktype": "story", "id": 1e300, "cached_url": "blog/"}"#)))
            #expect(hugeID.reference == .slug("blog/"))
            #expect(StoryLink(multilink: try object(#"{"linktype": "url", "id": "", "url": "/about", "cached_url": "/about"}"#)) == nil)
            #expect(StoryLink(multilink: try object(#"{"linktype": "email", "email": "a@example.com"}"#)) == nil)
        }

        @Test("reads a richtext link mark by uuid, falling back to href without its fragment")
        func linkMark() throws {
            let link = try #require(StoryLink(linkMarkAttributes: try object(
                #"{"href": "/blog/post#x", "uuid": "3a526768-1d22-447e-9ddd-f4158a035edd", "anchor": null, "linktype": "story"}"#)))
            #expect(link.reference == .uuid("3a526768-1d22-447e-9ddd-f4158a035edd"))
            #expect(link.cachedURL == "blog/post")
            #expect(link.anchor == nil)
            #expect(link.lookupOrder == [.uuid("3a526768-1d22-447e-9ddd-f4158a035edd"), .slug("blog/post")])
            let byHref = try #require(StoryLink(linkMarkAttributes: try object(#"{"href": "/faq", "uuid": null, "linktype": "story"}"#)))
            #expect(byHref.reference == .slug("faq"))
            #expect(StoryLink(linkMarkAttributes: try object(#"{"href": "a@example.com", "linktype": "email"}"#)) == nil)
        }

        @Test("reads a link from a tape as from its tree: trimmed, without query, fragment or leading slashes")
        func tapeAsTree() throws {
            let links = [
                #"{"linktype": "story", "id": " u1 ", "cached_url": " //blog/post?x=1#y ", "anchor": " top "}"#,
                #"{"linktype": "story", "id": "", "cached_url": "/#only-a-fragment"}"#,
                #"{"linktype": "story", "id": 7, "cached_url": 12}"#,
                #"{"linktype": "story", "id": "\tu2\n", "cached_url": "caf\u00e9/cr\u00e8me?q"}"#,
                #"{"linktype": "story", "cached_url": "\u00a0blog"}"#,
                #"{"linktype": "story", "cached_url": " \u0301blog"}"#,
                #"{"linktype": "url", "id": "u3", "cached_url": "blog"}"#,
                #"{"cached_url": "blog", "linktype": "story", "anchor": null}"#,
            ]
            for json in links {
                let tape = try JSONTape(parsing: Array(json.utf8))
                let fromTape = tape.withReader { StoryLink(multilink: 0, of: tape, $0) }
                #expect(fromTape == StoryLink(multilink: try object(json)), "\(json)")
                let mark = json.replacingOccurrences(of: #""id""#, with: #""uuid""#).replacingOccurrences(of: "cached_url", with: "href")
                let markTape = try JSONTape(parsing: Array(mark.utf8))
                let markFromTape = markTape.withReader { StoryLink(linkMarkAttributes: 0, of: markTape, $0) }
                #expect(markFromTape == StoryLink(linkMarkAttributes: try object(mark)), "\(mark)")
            }
            let trimmed = try #require(StoryLink(multilink: try object(links[0])))
            #expect(trimmed.reference == .uuid("u1"))
            #expect(trimmed.cachedURL == "blog/post")
            #expect(trimmed.anchor == "top")
            #expect(StoryLink(multilink: try object(links[1])) == nil)
            #expect(StoryLink(multilink: try object(links[2]))?.lookupOrder == [.uuid("7"), .id(7), .slug("12")])
            #expect(StoryLink(multilink: try object(links[3]))?.cachedURL == "café/crème")
        }

        @Test("keeps a resolved link's embedded story when it is complete, and ignores a partial one")
        func embedded() throws {
            let complete = try #require(StoryLink(multilink: try object(#"""
                {"linktype": "story", "id": "u2", "cached_url": "about",
                 "story": {"uuid": "u2", "full_slug": "about", "content": {"component": "page"}}}
                """#)))
            #expect(complete.embeddedStory?.fullSlug == "about")
            let partial = try #require(StoryLink(multilink: try object(#"""
                {"linktype": "story", "id": "u2", "cached_url": "about", "story": {"uuid": "u2", "full_slug": "about", "url": "about"}}
                """#)))
            #expect(partial.embeddedStory == nil)
        }
    }
}
