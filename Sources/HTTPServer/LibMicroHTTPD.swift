import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libmicrohttpd, opened from its file when a server first starts, not linked (see
/// `Sources/CMicroHTTPD/shim.h`): the functions the `storysite_mhd_` wrappers call.
final class LibMicroHTTPD: @unchecked Sendable {
    // Safe to share: `functions` is written once, before the value is made, and then only read.
    let functions: UnsafeMutablePointer<storysite_mhd>

    private init(functions: storysite_mhd) {
        self.functions = .allocate(capacity: 1)
        self.functions.initialize(to: functions)
    }

    deinit {
        functions.deallocate()
    }

    /// The libmicrohttpd of this process, opened from `libmicrohttpd.so.12` (its soname on
    /// Debian and Ubuntu) when first asked for.
    static let shared = open("libmicrohttpd.so.12")

    /// libmicrohttpd opened from `file`, or why it could not be.
    static func open(_ file: String) -> Result<LibMicroHTTPD, HTTPServerError> {
        guard let library = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(.unavailable(dlerror().map { String(cString: $0) } ?? file))
        }
        var missing: String?
        func symbol(_ name: String) -> UnsafeMutableRawPointer? {
            let found = dlsym(library, name)
            if found == nil, missing == nil { missing = name }
            return found
        }
        let functions = storysite_mhd(
            start_daemon: symbol("MHD_start_daemon"), stop_daemon: symbol("MHD_stop_daemon"),
            get_daemon_info: symbol("MHD_get_daemon_info"), get_connection_info: symbol("MHD_get_connection_info"),
            get_connection_values: symbol("MHD_get_connection_values"), suspend_connection: symbol("MHD_suspend_connection"),
            resume_connection: symbol("MHD_resume_connection"), create_response_from_buffer: symbol("MHD_create_response_from_buffer"),
            create_response_from_callback: symbol("MHD_create_response_from_callback"),
            add_response_header: symbol("MHD_add_response_header"), queue_response: symbol("MHD_queue_response"),
            destroy_response: symbol("MHD_destroy_response"))
        if let missing {
            dlclose(library)
            return .failure(.unavailable("\(file) has no \(missing)"))
        }
        return .success(LibMicroHTTPD(functions: functions))
    }
}
