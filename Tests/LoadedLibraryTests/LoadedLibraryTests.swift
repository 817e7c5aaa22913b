import Testing
import LoadedLibrary

@Suite("LoadedLibrary")
struct LoadedLibraryTests {
    /// The C library's `strlen`, as a shim's struct of functions would hold it.
    struct Functions {
        var strlen: UnsafeMutableRawPointer?
    }

    @Test("a library is opened from its file and its functions found by name, then called through them")
    func opened() throws {
        let library = try LoadedLibrary<Functions>.open("libc.so.6") { symbol in Functions(strlen: symbol("strlen")) }.get()
        let strlen = unsafeBitCast(library.functions.pointee.strlen, to: (@convention(c) (UnsafePointer<CChar>) -> Int).self)
        #expect(strlen("storysite") == 9)
    }

    @Test("a file that cannot be opened, a function it lacks and a set-up that fails each give a reason that names the file")
    func unavailable() {
        guard case .failure(let missing) = LoadedLibrary<Functions>.open("libstorysite-missing.so.0", functions: { _ in Functions() }) else {
            Issue.record("a missing file opened")
            return
        }
        #expect(missing.reason.contains("libstorysite-missing.so.0"))
        let lacking = LoadedLibrary<Functions>.open("libc.so.6") { symbol in Functions(strlen: symbol("storysite_no_such_function")) }
        guard case .failure(let noFunction) = lacking else {
            Issue.record("a library without the function opened")
            return
        }
        #expect(noFunction.reason == "libc.so.6 has no storysite_no_such_function")
        var setUps = 0
        let failing = LoadedLibrary<Functions>.open("libc.so.6", functions: { Functions(strlen: $0("strlen")) }) { functions in
            setUps += 1
            return functions.pointee.strlen == nil ? "no strlen" : "libc.so.6 could not be initialised"
        }
        guard case .failure(let notSetUp) = failing else {
            Issue.record("a library whose set-up failed opened")
            return
        }
        #expect(notSetUp.reason == "libc.so.6 could not be initialised" && setUps == 1)
    }
}
