import Testing
@testable import StoryModel

extension StoryModelTests {
    @Suite("Field paths")
    struct FieldPathTests {
        @Test("keys join with dots, indexes go in brackets, and each pop gives back the path before its push")
        func pushAndPop() {
            let path = FieldPath()
            #expect(path.text == "")
            path.push("body")
            path.push(index: 0)
            path.push("columns")
            path.push(index: 12_345)
            "link".utf8.withContiguousStorageIfAvailable { path.push(key: $0) }
            #expect(path.text == "body[0].columns[12345].link")
            path.pop()
            path.pop()
            #expect(path.text == "body[0].columns")
            path.push(index: 7)
            #expect(path.text == "body[0].columns[7]")
            for _ in 0..<4 { path.pop() }
            #expect(path.text == "")
            path.push(index: 3)
            path.push("é")
            #expect(path.text == "[3].é")
        }

        @Test("a path deeper and longer than its first room grows, and pops back to each length")
        func growth() {
            let path = FieldPath()
            var expected: [String] = []
            for depth in 0..<100 {
                expected.append(path.text)
                if depth.isMultiple(of: 2) { path.push(String(repeating: "k", count: depth)) } else { path.push(index: depth * 1_000) }
            }
            #expect(path.text.utf8.count > 1_000)
            #expect(path.text.hasSuffix("[99000]"))
            for text in expected.reversed() {
                path.pop()
                #expect(path.text == text)
            }
        }

        @Test("a root replaces the path until it is popped, and what is pushed after it continues from it")
        func roots() {
            let path = FieldPath()
            path.push("text")
            path.push("content")
            path.push(index: 2)
            path.push(root: "text.content[2].attrs.body")
            path.push(index: 0)
            path.push("link")
            #expect(path.text == "text.content[2].attrs.body[0].link")
            path.pop()
            path.pop()
            path.pop()
            #expect(path.text == "text.content[2]")
            path.push(root: "")
            path.push("title")
            #expect(path.text == "title")
        }
    }
}
