import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("References and slugs")
    struct StoryReferenceTests {
        @Test("recognises the 8-4-4-4-12 hexadecimal UUID shape in either case")
        func uuidShape() {
            #expect(StoryReference.isUUIDShaped("3a526768-1d22-447e-9ddd-f4158a035edd"))
            #expect(StoryReference.isUUIDShaped("3A526768-1D22-447E-9DDD-F4158A035EDD"))
            #expect(!StoryReference.isUUIDShaped("3a526768-1d22-447e-9ddd-f4158a035ed"))
            #expect(!StoryReference.isUUIDShaped("3a526768-1d22-447e-9ddd-f4158a035edg"))
            #expect(!StoryReference.isUUIDShaped("3a5267681-d22-447e-9ddd-f4158a035edd"))
            #expect(!StoryReference.isUUIDShaped("i-a955539d-aed8-4dba-ab3b-60e9608da85e"))
            #expect(!StoryReference.isUUIDShaped("option-1"))
        }

        @Test("reads a typed reference as a UUID when it has the shape, else as a slug")
        func parsing() {
            #expect(StoryReference(parsing: "3a526768-1d22-447e-9ddd-f4158a035edd") == .uuid("3a526768-1d22-447e-9ddd-f4158a035edd"))
            #expect(StoryReference(parsing: "/blog/") == .slug("blog/"))
            #expect(StoryReference(parsing: "home") == .slug("home"))
            #expect(StoryReference.id(12).description == "12")
        }

        @Test("looks slugs up without leading or trailing slashes, so blog finds the start page blog/")
        func slugKeys() {
            #expect(SlugLookup.key("blog/") == "blog")
            #expect(SlugLookup.key("/blog") == "blog")
            #expect(SlugLookup.key("blog") == "blog")
            #expect(SlugLookup.key("//blog/post//") == "blog/post")
            #expect(SlugLookup.key("/") == "")
        }

        @Test("tells a slug's bytes and a slug apart as their lookup keys are, a composed and a decomposed é alike")
        func slugKeysOfBytes() {
            func sameKeys(_ bytes: String, _ slug: String) -> Bool {
                Array(bytes.utf8).withUnsafeBufferPointer { bytes in
                    Array(slug.utf8).withUnsafeBufferPointer { SlugLookup.sameKey(of: bytes, as: $0) }
                }
            }
            let pairs = [
                ("/blog/", "blog"), ("blog", "blog/"), ("blog/post", "blog/posts"), ("", "/"), ("a", ""),
                ("caf\u{E9}/menu", "caf\u{65}\u{301}/menu/"), ("caf\u{E9}", "cafe"), ("Blog", "blog"),
            ]
            for (bytes, slug) in pairs {
                #expect(sameKeys(bytes, slug) == (SlugLookup.key(bytes) == SlugLookup.key(slug)), "\(bytes) and \(slug)")
            }
            #expect(sameKeys("caf\u{E9}", "caf\u{65}\u{301}/"))
            #expect(!sameKeys("blog/post", "blog/posts"))
        }
    }
}
