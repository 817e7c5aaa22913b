import CCurl
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libcurl, opened from its file and initialised when storysite first sends a request, not
/// linked (see `Sources/CCurl/shim.h`): the functions the `storysite_curl_` wrappers call.
final class Libcurl: @unchecked Sendable {
    // Safe to share: `functions` is written once, before the value is made, and then only read.
    let functions: UnsafeMutablePointer<storysite_curl>

    private init(functions: storysite_curl) {
        self.functions = .allocate(capacity: 1)
        self.functions.initialize(to: functions)
    }

    deinit {
        functions.deallocate()
    }

    /// The libcurl of this process, opened from `libcurl.so.4` (its soname on Debian and Ubuntu)
    /// when first asked for.
    static let shared = open("libcurl.so.4")

    /// libcurl opened from `file` and initialised, or why it could not be.
    static func open(_ file: String) -> Result<Libcurl, FetchFailure> {
        guard let library = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(.unavailable(dlerror().map { String(cString: $0) } ?? file))
        }
        var missing: String?
        func symbol(_ name: String) -> UnsafeMutableRawPointer? {
            let found = dlsym(library, name)
            if found == nil, missing == nil { missing = name }
            return found
        }
        var functions = storysite_curl(
            global_init: symbol("curl_global_init"), easy_init: symbol("curl_easy_init"), easy_cleanup: symbol("curl_easy_cleanup"),
            easy_reset: symbol("curl_easy_reset"), easy_perform: symbol("curl_easy_perform"), easy_setopt: symbol("curl_easy_setopt"),
            slist_append: symbol("curl_slist_append"), slist_free_all: symbol("curl_slist_free_all"))
        let problem = missing.map { "\(file) has no \($0)" }
            ?? (storysite_curl_global_init(&functions, Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK ? nil : "\(file) could not be initialised")
        if let problem {
            dlclose(library)
            return .failure(.unavailable(problem))
        }
        return .success(Libcurl(functions: functions))
    }
}
