#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A C library opened from its file when first needed rather than linked, so that a run that
/// does not need it neither loads it (with the libraries it needs) nor needs it installed: the
/// functions a system-library target's shim calls through, found in the library and held in
/// that shim's C struct of pointers (`storysite_curl`, `storysite_mhd`, `storysite_crypto`).
public final class LoadedLibrary<Functions>: @unchecked Sendable {
    // Safe to share: `functions` is written once, before the value is made, and then only read.
    /// The functions, for the shim's wrappers.
    public let functions: UnsafeMutablePointer<Functions>

    private init(functions: Functions) {
        self.functions = .allocate(capacity: 1)
        self.functions.initialize(to: functions)
    }

    deinit {
        functions.deallocate()
    }

    /// The library in `file` (a soname such as `libcurl.so.4`), its functions found by
    /// `functions` with the lookup it is given, and then readied by `setUp` (which says why it
    /// could not be); or why it could not be opened: the loader's message, or the first function
    /// missing.
    public static func open(
        _ file: String, functions: (_ symbol: (String) -> UnsafeMutableRawPointer?) -> Functions,
        setUp: (UnsafeMutablePointer<Functions>) -> String? = { _ in nil }
    ) -> Result<LoadedLibrary, Unavailable> {
        guard let library = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(Unavailable(reason: dlerror().map { String(cString: $0) } ?? file))
        }
        var missing: String?
        let found = functions { name in
            let symbol = dlsym(library, name)
            if symbol == nil, missing == nil { missing = name }
            return symbol
        }
        let loaded = LoadedLibrary(functions: found)
        if let problem = missing.map({ "\(file) has no \($0)" }) ?? setUp(loaded.functions) {
            dlclose(library)
            return .failure(Unavailable(reason: problem))
        }
        return .success(loaded)
    }

    /// Why a library could not be opened.
    public struct Unavailable: Error, Sendable {
        public var reason: String

        public init(reason: String) {
            self.reason = reason
        }
    }
}
