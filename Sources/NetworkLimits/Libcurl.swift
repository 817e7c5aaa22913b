import CCurl
import LoadedLibrary

/// libcurl, opened from its file and initialised when storysite first sends a request, not
/// linked (see `Sources/CCurl/shim.h`): the functions the `storysite_curl_` wrappers call.
typealias Libcurl = LoadedLibrary<storysite_curl>

extension LoadedLibrary<storysite_curl> {
    /// The libcurl of this process, opened from `libcurl.so.4` (its soname on Debian and Ubuntu)
    /// when first asked for.
    static let shared = open("libcurl.so.4")

    /// libcurl opened from `file` and initialised, or why it could not be.
    static func open(_ file: String) -> Result<Libcurl, FetchFailure> {
        open(file) { symbol in
            storysite_curl(
                global_init: symbol("curl_global_init"), easy_init: symbol("curl_easy_init"), easy_cleanup: symbol("curl_easy_cleanup"),
                easy_reset: symbol("curl_easy_reset"), easy_perform: symbol("curl_easy_perform"), easy_setopt: symbol("curl_easy_setopt"),
                slist_append: symbol("curl_slist_append"), slist_free_all: symbol("curl_slist_free_all"))
        } setUp: { functions in
            storysite_curl_global_init(functions, Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK ? nil : "\(file) could not be initialised"
        }.mapError { .unavailable($0.reason) }
    }
}
