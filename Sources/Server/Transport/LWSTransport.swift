import CLibWebSockets
import Glibc
import PagehostCore

/// libwebsockets serving HTTP and the stream on one port, as a guest on the GLib main loop (`LWS_SERVER_OPTION_GLIB`
/// with `foreign_loops`), so lws callbacks run on the loop thread, next to the engine, and enter `LoopActor`
/// with `assumeIsolated`.
///
/// Connections: each HTTP connection has an `HTTPExchange` (one transaction at a time), each stream connection a
/// `StreamConnection`; both keyed by their `struct lws *`, removed when lws reports the connection gone.
///
/// Thread: the loop thread only. Created, started and stopped inside LoopActor.
@LoopActor
final class LWSTransport {
    /// Weak: a server that goes away without `stop()` leaves callbacks with nothing to call (they then do nothing).
    private weak var weakHandler: (any TransportHandler)?
    private var context: OpaquePointer?
    private var protocols: UnsafeMutablePointer<lws_protocols>?
    private var cStrings: [UnsafeMutablePointer<CChar>] = []
    private var foreignLoops: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    private var exchanges: [OpaquePointer: HTTPExchange] = [:]
    private var streams: [OpaquePointer: StreamConnection] = [:]
    /// Upgrades let through, waiting for LWS_CALLBACK_ESTABLISHED.
    private var upgrades: [OpaquePointer: HTTPRequest] = [:]
    private let socketSendBufferBytes: Int
    /// Set by `stop()`. With a foreign loop lws finishes tearing the context down on later loop iterations, and
    /// its callbacks may still come; from then on they do nothing.
    private var isStopped = false
    /// The handler during one callback (checked present at its start, held for its duration).
    private var currentHandler: (any TransportHandler)?
    private var handler: any TransportHandler { currentHandler! }
    /// The context's own reference to this object (its `user` pointer), dropped when lws destroys the last
    /// protocol, so a late callback never finds freed memory.
    private var retainedByContext: Unmanaged<LWSTransport>?

    /// The subprotocol of the stream.
    static let streamProtocol = "pagehost.v1"

    init(handler: any TransportHandler, socketSendBufferBytes: Int) {
        self.weakHandler = handler
        self.socketSendBufferBytes = socketSendBufferBytes
    }

    /// Creates the lws context listening on `host:port` (0: any free port) and returns the port it listens on.
    func start(host: String, port: Int, loop: UnsafeMutableRawPointer) throws(PagehostError) -> Int {
        precondition(context == nil, "started twice")
        lws_set_log_level(pagehost_lws_log_errors_and_warnings(), nil)
        let names: [UnsafeMutablePointer<CChar>] = ["http", Self.streamProtocol].map { (name: String) in strdup(name)! }
        cStrings += names
        let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 3)
        protocols.initialize(repeating: lws_protocols(), count: 3)
        for (index, name) in names.enumerated() {
            protocols[index].name = UnsafePointer(name)
            protocols[index].callback = lwsCallback
            protocols[index].rx_buffer_size = 64 << 10
        }
        self.protocols = protocols
        let loops = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
        loops.initialize(to: loop)
        foreignLoops = loops
        let iface = strdup(host)!
        cStrings.append(iface)

        var info = lws_context_creation_info()
        info.port = Int32(port)
        info.iface = UnsafePointer(iface)
        info.protocols = UnsafePointer(protocols)
        info.options = pagehost_lws_option_glib()
        if !host.contains(":") { info.options |= pagehost_lws_option_ipv4_only() }
        info.foreign_loops = loops
        let retained = Unmanaged.passRetained(self)
        info.user = retained.toOpaque()
        info.gid = -1
        info.uid = -1
        info.max_http_header_data = 16 << 10
        info.max_http_header_pool = 256
        info.keepalive_timeout = 30
        // Slow answers (scripts, screenshots) keep a request open; lws's default would cut them at 5 s.
        info.timeout_secs = 120
        guard let context = lws_create_context(&info) else {
            retained.release()
            throw PagehostError(.unavailable, "cannot listen on \(host):\(port) (address in use, or not an address of this machine?)")
        }
        self.context = context
        retainedByContext = retained
        guard let vhost = lws_get_vhost_by_name(context, "default") else { return port }
        return Int(lws_get_vhost_listen_port(vhost))
    }

    /// Closes every connection and the listening socket.
    func stop() {
        guard let context, !isStopped else { return }
        for stream in streams.values { weakHandler?.streamClosed(stream.client) }
        streams.removeAll()
        for exchange in exchanges.values { exchange.isClosed = true }
        exchanges.removeAll()
        upgrades.removeAll()
        isStopped = true
        lws_context_destroy(context)
    }

    /// The protocols, names and loop array stay allocated as long as lws may read them: until this object goes.
    isolated deinit {
        protocols?.deinitialize(count: 3)
        protocols?.deallocate()
        foreignLoops?.deallocate()
        cStrings.forEach { free($0) }
    }

    // MARK: Callbacks (the loop thread, inside lws)

    fileprivate func callback(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        if reason == LWS_CALLBACK_PROTOCOL_DESTROY, let name = lws_get_protocol(wsi)?.pointee.name,
           String(cString: name) == Self.streamProtocol {
            // The last protocol goes: lws is done with this object.
            let retained = retainedByContext
            retainedByContext = nil
            context = nil
            retained?.release()
            return 0
        }
        guard !isStopped, let handler = weakHandler else {
            return reason == LWS_CALLBACK_HTTP || reason == LWS_CALLBACK_RECEIVE ? -1 : 0
        }
        return handle(wsi, reason, input, length, handler)
    }

    private func handle(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ input: UnsafeMutableRawPointer?, _ length: Int,
                        _ handler: any TransportHandler) -> Int32 {
        // lws can call back re-entrantly (a failed write closes the connection inside the writeable callback).
        let outer = currentHandler
        currentHandler = handler
        defer { currentHandler = outer }
        switch reason {
        case LWS_CALLBACK_HTTP:
            return httpRequest(wsi)
        case LWS_CALLBACK_HTTP_BODY:
            return httpBody(wsi, input, length)
        case LWS_CALLBACK_HTTP_BODY_COMPLETION:
            guard let exchange = exchanges[wsi], let request = exchange.request else { return -1 }
            if exchange.discardsBody || exchange.isDispatched { return 0 }
            dispatch(request, on: exchange)
            return 0
        case LWS_CALLBACK_HTTP_WRITEABLE:
            return httpWriteable(wsi)
        case LWS_CALLBACK_CLOSED_HTTP:
            exchanges.removeValue(forKey: wsi)?.isClosed = true
            return 0
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            return confirmUpgrade(wsi, input)
        case LWS_CALLBACK_ESTABLISHED:
            return established(wsi)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            return streamWriteable(wsi)
        case LWS_CALLBACK_RECEIVE:
            return streamReceive(wsi, input, length)
        case LWS_CALLBACK_CLOSED:
            if let stream = streams.removeValue(forKey: wsi) { handler.streamClosed(stream.client) }
            return 0
        case LWS_CALLBACK_WSI_DESTROY:
            exchanges.removeValue(forKey: wsi)?.isClosed = true
            upgrades[wsi] = nil
            if let stream = streams.removeValue(forKey: wsi) { handler.streamClosed(stream.client) }
            return 0
        default:
            return 0
        }
    }

    // MARK: HTTP

    private func exchange(for wsi: OpaquePointer) -> HTTPExchange {
        if let exchange = exchanges[wsi] { return exchange }
        let exchange = HTTPExchange(wsi: wsi)
        exchanges[wsi] = exchange
        return exchange
    }

    private func httpRequest(_ wsi: OpaquePointer) -> Int32 {
        let exchange = exchange(for: wsi)
        guard let request = LWSRequestReader.read(wsi) else {
            let number = exchange.begin(HTTPRequest(method: .get, path: "/"))
            exchange.closeAfterResponse = true
            respond(.error(status: 405, code: "method_not_allowed", message: "unsupported method"), on: exchange, transaction: number)
            return 0
        }
        let number = exchange.begin(request)
        if request.headers["transfer-encoding"] != nil {
            exchange.closeAfterResponse = true
            respond(.error(status: 411, code: "bad_request", message: "send the body with a Content-Length"), on: exchange, transaction: number)
            return 0
        }
        let length = request.headers["content-length"].flatMap { Int($0.trimmingSpaces) } ?? 0
        if length > handler.maxBodyBytes {
            // Answered before the body is read; what arrives of it is dropped, and the connection closes after.
            exchange.closeAfterResponse = true
            exchange.discardsBody = true
            respond(.error(status: 413, code: PagehostError.Code.tooLarge.rawValue,
                           message: "the request body is \(length) bytes; the limit is \(handler.maxBodyBytes)"),
                    on: exchange, transaction: number)
            return 0
        }
        if length > 0 {
            // Whatever the method: a body lws reads after the answer went out would end the transaction twice
            // (the fuzz found a GET with a body that left the loop spinning), so the answer waits for it.
            exchange.expectedBodyBytes = length
            return 0  // LWS_CALLBACK_HTTP_BODY… then LWS_CALLBACK_HTTP_BODY_COMPLETION
        }
        dispatch(request, on: exchange)
        return 0
    }

    private func httpBody(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let exchange = exchanges[wsi], exchange.request != nil else { return -1 }
        guard let input, length > 0, !exchange.discardsBody else { return 0 }
        guard (exchange.request?.body.count ?? 0) + length <= handler.maxBodyBytes else { return -1 }
        exchange.request?.body.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        return 0
    }

    private func dispatch(_ request: HTTPRequest, on exchange: HTTPExchange) {
        exchange.isDispatched = true
        let number = exchange.transaction
        switch handler.handle(request) {
        case .now(let response):
            respond(response, on: exchange, transaction: number)
        case .later(let work):
            Task { @LoopActor [weak self] in
                let response = await work()
                self?.respond(response, on: exchange, transaction: number)
            }
        }
    }

    private func respond(_ response: HTTPResponse, on exchange: HTTPExchange, transaction: Int) {
        guard !exchange.isClosed, exchange.transaction == transaction else { return }
        weakHandler?.answered(status: response.status)
        exchange.respond(response, transaction: transaction)
    }

    private func httpWriteable(_ wsi: OpaquePointer) -> Int32 {
        guard let exchange = exchanges[wsi], exchange.response != nil else { return 0 }
        switch exchange.writeNext() {
        case .more:
            lws_callback_on_writable(wsi)
            return 0
        case .failed:
            return -1
        case .done:
            if exchange.closeAfterResponse { return -1 }
            exchange.request = nil
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        }
    }

    // MARK: WebSocket

    private func confirmUpgrade(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?) -> Int32 {
        guard let input, String(cString: input.assumingMemoryBound(to: CChar.self)).lowercased() == "websocket" else {
            return -1  // h2c and other upgrades: hang up
        }
        guard let request = LWSRequestReader.read(wsi) else { return -1 }
        if let refusal = handler.refuseUpgrade(request) {
            handler.answered(status: refusal.status)
            let exchange = HTTPExchange(wsi: wsi)
            _ = exchange.begin(request)
            exchange.closeAfterResponse = true
            exchange.respond(refusal, transaction: exchange.transaction)
            // Headers and body now, while lws expects an answer; lws closes the connection after.
            guard exchange.writeNext() != .failed else { return -1 }
            while exchange.writeNext() == .more {}
            return 1
        }
        upgrades[wsi] = request
        return 0
    }

    private func established(_ wsi: OpaquePointer) -> Int32 {
        guard let request = upgrades.removeValue(forKey: wsi) else { return -1 }
        exchanges[wsi] = nil
        if socketSendBufferBytes > 0 {
            var size = Int32(socketSendBufferBytes)
            setsockopt(lws_get_socket_fd(wsi), SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let client = handler.streamOpened(request) { lws_callback_on_writable(wsi) }
        streams[wsi] = StreamConnection(wsi: wsi, client: client)
        return 0
    }

    private func streamWriteable(_ wsi: OpaquePointer) -> Int32 {
        guard let stream = streams[wsi] else { return 0 }
        let client = stream.client
        client.writeableArrived()
        if client.mustClose {
            lws_close_reason(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, nil, 0)
            return -1
        }
        guard let message = handler.nextStreamMessage(for: client) else { return 0 }
        guard stream.write(message) else { return -1 }
        if !client.outbox.isEmpty { client.requestWrite() }
        return 0
    }

    private func streamReceive(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let stream = streams[wsi] else { return -1 }
        if lws_frame_is_binary(wsi) != 0 {
            lws_close_reason(wsi, LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE, nil, 0)
            return -1
        }
        let bytes = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
        switch stream.receive(bytes, limit: handler.maxBodyBytes) {
        case .partial:
            return 0
        case .message(let message):
            handler.streamReceived(message, from: stream.client)
            return 0
        case .tooLarge:
            lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, nil, 0)
            return -1
        }
    }
}

extension HTTPExchange.WriteResult: Equatable {}

/// The one lws callback for every protocol. lws calls it on the loop thread (it services the context from the
/// GLib loop), so it enters LoopActor synchronously.
private func lwsCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                         _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else { return 0 }
    let call = CallbackArguments(transport: Unmanaged<LWSTransport>.fromOpaque(owner).takeUnretainedValue(),
                                 wsi: wsi, reason: reason, input: input, length: length)
    return LoopActor.assumeIsolated { call.transport.callback(call.wsi, call.reason, call.input, call.length) }
}

/// An lws callback's arguments, carried into `LoopActor.assumeIsolated`. They never leave the loop thread: the
/// closure runs synchronously on the thread that received them.
private struct CallbackArguments: @unchecked Sendable {
    let transport: LWSTransport
    let wsi: OpaquePointer
    let reason: lws_callback_reasons
    let input: UnsafeMutableRawPointer?
    let length: Int
}
