import HTTPServer

/// The port rules of `serve`, applied before anything is built: the default port, when busy,
/// gives way to the next free one (and serve says so); a port asked for with `--port` is used
/// or is an error that suggests `--port 0`.
enum ServePort {
    /// The port serve listens on unless told otherwise.
    static let preferred = 8080
    /// How many ports after ``preferred`` are tried when it is busy.
    static let alternatives = 20

    /// A bound server and what to tell the user about the port.
    struct Bound {
        var server: HTTPServer
        var port: Int
        /// `Port 8080 is in use; serving on 8081 instead.` when the default port was busy.
        var note: String?
    }

    /// Why no port could be bound, as the user should read it.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts a server on `host` and `requested` (nil: the default port, or the next free one).
    static func bind(host: String, requested: Int?, handler: @escaping HTTPServer.Handler) throws -> Bound {
        if let requested {
            let server = HTTPServer(host: host, port: requested, handler: handler)
            do throws(HTTPServerError) {
                return Bound(server: server, port: try server.start())
            } catch {
                guard case .cannotListen = error else { throw Failure(description: error.description) }
                throw Failure(description: "\(error); pass another port, or --port 0 to pick a free one")
            }
        }
        var firstError: HTTPServerError?
        for port in preferred...(preferred + alternatives) {
            let server = HTTPServer(host: host, port: port, handler: handler)
            do throws(HTTPServerError) {
                let bound = try server.start()
                let note = port == preferred ? nil : "Port \(preferred) is in use; serving on \(port) instead."
                return Bound(server: server, port: bound, note: note)
            } catch {
                guard case .cannotListen = error else { throw Failure(description: error.description) }
                if firstError == nil { firstError = error }
            }
        }
        throw Failure(description: "\(firstError!), and so are the next \(alternatives) ports; pass --port 0 to pick a free one")
    }
}
