import CMicroHTTPD
import LoadedLibrary

/// libmicrohttpd, opened from its file when a server first starts, not linked (see
/// `Sources/CMicroHTTPD/shim.h`): the functions the `storysite_mhd_` wrappers call.
typealias LibMicroHTTPD = LoadedLibrary<storysite_mhd>

extension LoadedLibrary<storysite_mhd> {
    /// The libmicrohttpd of this process, opened from `libmicrohttpd.so.12` (its soname on
    /// Debian and Ubuntu) when first asked for.
    static let shared = open("libmicrohttpd.so.12")

    /// libmicrohttpd opened from `file`, or why it could not be.
    static func open(_ file: String) -> Result<LibMicroHTTPD, HTTPServerError> {
        open(file) { symbol in
            storysite_mhd(
                start_daemon: symbol("MHD_start_daemon"), stop_daemon: symbol("MHD_stop_daemon"),
                get_daemon_info: symbol("MHD_get_daemon_info"), get_connection_info: symbol("MHD_get_connection_info"),
                get_connection_values: symbol("MHD_get_connection_values"), suspend_connection: symbol("MHD_suspend_connection"),
                resume_connection: symbol("MHD_resume_connection"), create_response_from_buffer: symbol("MHD_create_response_from_buffer"),
                create_response_from_callback: symbol("MHD_create_response_from_callback"),
                add_response_header: symbol("MHD_add_response_header"), queue_response: symbol("MHD_queue_response"),
                destroy_response: symbol("MHD_destroy_response"))
        }.mapError { .unavailable($0.reason) }
    }
}
