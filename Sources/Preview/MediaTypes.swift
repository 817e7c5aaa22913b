/// The `Content-Type` of a served file, chosen by its extension.
enum MediaTypes {
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "xml": "application/xml",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "ico": "image/x-icon",
        "woff2": "font/woff2",
        "woff": "font/woff",
        "txt": "text/plain; charset=utf-8",
        "pdf": "application/pdf",
    ]

    /// The type for `fileName` (any case of extension); `application/octet-stream` when unknown.
    static func type(of fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: ".") else { return "application/octet-stream" }
        return byExtension[fileName[fileName.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// Whether `type` is HTML, which gets the live-reload script.
    static func isHTML(_ type: String) -> Bool {
        type.hasPrefix("text/html")
    }
}
