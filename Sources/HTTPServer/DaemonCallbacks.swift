import CMicroHTTPD
import Foundation

/// The C callbacks MHD calls on its polling thread. The daemon's context pointer is the
/// ``ServerCore``; each request's is its ``RequestContext``; each streaming response's is its
/// ``StreamPump``. Each context is retained while MHD holds its pointer.
enum DaemonCallbacks {
    /// Sees the raw request target before MHD decodes it, and creates the request's context.
    static let logURI: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        _, uri, _ in
        let target = uri.map { String(cString: $0) } ?? "/"
        return Unmanaged.passRetained(RequestContext(target: target)).toOpaque()
    }

    /// Releases the request's context and cancels its handler if still running.
    static let completed: MHD_RequestCompletedCallback = { _, _, contextPointer, _ in
        guard let contextPointer, let raw = contextPointer.pointee else { return }
        contextPointer.pointee = nil
        Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue().task?.cancel()
    }

    /// Counts the connections open, for the connection limit.
    static let connectionNotified: MHD_NotifyConnectionCallback = { coreRaw, _, _, code in
        guard let coreRaw else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(coreRaw).takeUnretainedValue()
        core.countConnection(code.rawValue == 0 ? 1 : -1)  // 0: MHD_CONNECTION_NOTIFY_STARTED, 1: CLOSED
    }

    /// Runs the handler in a task while the connection is suspended, then queues its response;
    /// answers at once the requests the server refuses (``ServerCore/refusal(host:)``).
    static let access: MHD_AccessHandlerCallback = {
        coreRaw, connection, _, method, _, uploadData, uploadSize, contextPointer in
        guard let coreRaw, let pointer = connection, let contextPointer else { return .NO }
        let connection = ConnectionHandle(pointer: pointer)
        let core = Unmanaged<ServerCore>.fromOpaque(coreRaw).takeUnretainedValue()
        let context: RequestContext
        if let raw = contextPointer.pointee {
            context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        } else {
            context = RequestContext(target: "/")
            contextPointer.pointee = Unmanaged.passRetained(context).toOpaque()
        }
        if let uploadSize, uploadSize.pointee != 0 {
            let count = uploadSize.pointee
            uploadSize.pointee = 0
            core.withLock {
                guard let uploadData, !context.bodyTooLarge else { return }
                guard context.body.count + count <= RequestContext.maxBodyBytes else {
                    context.bodyTooLarge = true
                    context.body = []
                    return
                }
                uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                    context.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
            return .YES
        }

        // The first call comes with the headers, the last once the request is complete:
        // answering before that would make MHD close the connection after the response.
        let started = core.withLock { () -> Bool in
            if case .received = context.state {
                context.state = .headersRead
                return true
            }
            return false
        }
        if started { return .YES }

        var request: HTTPRequest?
        var refusal: HTTPResponse?
        let (state, body, bodyTooLarge) = core.withLock { (context.state, context.body, context.bodyTooLarge) }
        if case .headersRead = state {
            var received = HTTPRequest(
                method: method.map { String(cString: $0) } ?? "GET", target: context.target,
                headers: headers(of: pointer, in: core.library), body: body)
            received.isFromLoopback = isLoopback(storysite_mhd_client_address(core.library.functions, pointer))
            refusal = core.refusal(host: received.header("Host"))
            request = received
        }
        let action = core.withLock { () -> HTTPResponse? in
            if core.isStopping { return .dropConnection }
            switch context.state {
            case .headersRead:
                if let refusal {
                    context.state = .answered
                    return refusal
                }
                if bodyTooLarge {
                    context.state = .answered
                    return HTTPResponse(
                        status: 413, text: "Payload too large: a request body may hold at most \(RequestContext.maxBodyBytes >> 20) MiB.\n")
                }
                guard core.suspendLocked(connection) else { return .dropConnection }
                context.state = .waiting
                let request = request!
                // High priority: a request must not queue behind a busy process's other work
                // (a build, or a test run's hundreds of tasks), or clients time out.
                context.task = Task(priority: .high) {
                    let response = await core.handler(request)
                    let wake = core.withLock { () -> Bool in
                        guard case .waiting = context.state else { return false }
                        context.state = .ready(response)
                        return core.takeSuspendedLocked(connection)
                    }
                    if wake { core.resume(connection) }
                }
                return nil
            case .received, .waiting, .answered:
                return .dropConnection
            case .ready(let response):
                context.state = .answered
                return response
            }
        }
        guard let action else { return .YES }
        return queue(action, on: connection, core: core)
    }

    static let readStream: MHD_ContentReaderCallback = { pumpRaw, _, destination, max in
        guard let pumpRaw, let destination else { return storysite_mhd_end_with_error }
        return Unmanaged<StreamPump>.fromOpaque(pumpRaw).takeUnretainedValue().read(into: destination, max: max)
    }

    static let freeStream: MHD_ContentReaderFreeCallback = { pumpRaw in
        guard let pumpRaw else { return }
        Unmanaged<StreamPump>.fromOpaque(pumpRaw).takeRetainedValue().close()
    }

    /// Hands `response` to MHD; .NO closes the connection.
    private static func queue(_ response: HTTPResponse, on connection: ConnectionHandle, core: ServerCore) -> MHD_Result {
        let created: OpaquePointer?
        switch response.body {
        case .dropConnection:
            return .NO
        case .bytes(let bytes):
            created = bytes.withUnsafeBytes { buffer in
                storysite_mhd_create_response_copying(core.library.functions, buffer.count, buffer.baseAddress)
            }
        case .stream(let chunks, let length):
            let pump = StreamPump(core: core, connection: connection)
            let pumpRaw = Unmanaged.passRetained(pump).toOpaque()
            created = storysite_mhd_create_response_from_callback(
                core.library.functions, length.map { UInt64(max(0, $0)) } ?? storysite_mhd_size_unknown, 16 * 1024, readStream, pumpRaw, freeStream)
            if created == nil {
                Unmanaged<StreamPump>.fromOpaque(pumpRaw).release()
            } else {
                pump.start(chunks)
            }
        }
        guard let created else { return .NO }
        defer { storysite_mhd_destroy_response(core.library.functions, created) }
        for header in response.headers {
            _ = storysite_mhd_add_response_header(core.library.functions, created, header.name, header.value)
        }
        return storysite_mhd_queue_response(core.library.functions, connection.pointer, UInt32(clamping: response.status), created)
    }

    /// Whether `address` is 127.0.0.0/8, ::1 or an IPv4-mapped 127.0.0.0/8.
    private static func isLoopback(_ address: UnsafePointer<sockaddr>?) -> Bool {
        guard let address else { return false }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let ipv4 = UnsafeRawPointer(address).assumingMemoryBound(to: sockaddr_in.self).pointee
            return UInt32(bigEndian: ipv4.sin_addr.s_addr) >> 24 == 127
        case AF_INET6:
            let bytes = withUnsafeBytes(of: UnsafeRawPointer(address).assumingMemoryBound(to: sockaddr_in6.self).pointee.sin6_addr) { Array($0) }
            let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            return bytes == Array(repeating: 0, count: 15) + [1] || (mapped && bytes[12] == 127)
        default:
            return false
        }
    }

    /// The request headers in order.
    private static func headers(of connection: OpaquePointer, in library: LibMicroHTTPD) -> [HTTPHeader] {
        var headers: [HTTPHeader] = []
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = storysite_mhd_get_connection_values(library.functions, connection, .HEADER_KIND, { raw, _, key, value in
                guard let raw, let key else { return .YES }
                raw.assumingMemoryBound(to: [HTTPHeader].self).pointee.append(
                    HTTPHeader(String(cString: key), value.map { String(cString: $0) } ?? ""))
                return .YES
            }, pointer)
        }
        return headers
    }
}
