import CLibWebSockets
import PagehostCore

/// One HTTP connection's current transaction: the request being read, then the response being written, one
/// `lws_write` per writeable callback (headers first, then the body in chunks).
///
/// Thread: the loop thread. lws calls in here only from inside lws callbacks, except `respond`, which may run
/// later from a task on the same thread (it only asks lws for a writeable callback).
@LoopActor
final class HTTPExchange {
    let wsi: OpaquePointer
    var request: HTTPRequest?
    /// Body bytes announced by Content-Length.
    var expectedBodyBytes = 0
    /// Bumped per transaction, so an answer that arrives after its connection moved on is dropped.
    private(set) var transaction = 0
    private(set) var response: HTTPResponse?
    private var headersSent = false
    private var bodyOffset = 0
    /// Close the connection after this response (the request's body was not read).
    var closeAfterResponse = false
    /// The body is refused (413): bytes that still arrive are dropped until the connection closes.
    var discardsBody = false
    /// The request went to the handler: once per transaction.
    var isDispatched = false
    /// Set when lws closed the connection; late answers are then dropped.
    var isClosed = false

    static let chunkBytes = 64 << 10

    init(wsi: OpaquePointer) {
        self.wsi = wsi
    }

    /// Starts a new transaction on a kept-alive connection.
    func begin(_ request: HTTPRequest) -> Int {
        transaction += 1
        self.request = request
        expectedBodyBytes = 0
        response = nil
        headersSent = false
        bodyOffset = 0
        closeAfterResponse = false
        discardsBody = false
        isDispatched = false
        return transaction
    }

    /// Sets the answer of transaction `number` and asks lws for a writeable callback to send it.
    func respond(_ response: HTTPResponse, transaction number: Int) {
        guard !isClosed, number == transaction, self.response == nil else { return }
        self.response = response
        lws_callback_on_writable(wsi)
    }

    enum WriteResult {
        /// More to write: ask for another writeable callback.
        case more
        /// The response is out.
        case done
        /// lws failed: close the connection.
        case failed
    }

    /// Runs inside LWS_CALLBACK_HTTP_WRITEABLE: writes the next piece of the response.
    func writeNext() -> WriteResult {
        guard let response else { return .done }
        if !headersSent {
            headersSent = true
            guard writeHeaders(response) else { return .failed }
            return response.body.isEmpty ? .done : .more
        }
        let end = min(response.body.count, bodyOffset + Self.chunkBytes)
        let isLast = end == response.body.count
        let pre = Int(pagehost_lws_pre())
        var buffer = [UInt8](repeating: 0, count: pre + end - bodyOffset)
        buffer.replaceSubrange(pre..., with: response.body[bodyOffset..<end])
        let written = buffer.withUnsafeMutableBufferPointer {
            pagehost_lws_write_http(wsi, $0.baseAddress! + pre, end - bodyOffset, isLast ? 1 : 0)
        }
        guard written >= 0 else { return .failed }
        bodyOffset = end
        return isLast ? .done : .more
    }

    private func writeHeaders(_ response: HTTPResponse) -> Bool {
        let pre = Int(pagehost_lws_pre())
        let size = pre + 1024 + response.headers.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 8 }
        var buffer = [UInt8](repeating: 0, count: size)
        return buffer.withUnsafeMutableBufferPointer { raw -> Bool in
            let start = raw.baseAddress! + pre
            let end = raw.baseAddress! + size - 1
            var p: UnsafeMutablePointer<UInt8>? = start
            var contentType: String?
            var extra: [(String, String)] = []
            for (name, value) in response.headers {
                if name.lowercased() == "content-type" { contentType = value } else { extra.append((name, value)) }
            }
            if closeAfterResponse { extra.append(("connection", "close")) }
            let failed = withOptionalCString(contentType) { type in
                lws_add_http_common_headers(wsi, UInt32(response.status), type, lws_filepos_t(response.body.count), &p, end)
            }
            guard failed == 0 else { return false }
            for (name, value) in extra {
                let nameBytes = Array((name.lowercased() + ":").utf8) + [0]
                let valueBytes = Array(value.utf8)
                let rc = nameBytes.withUnsafeBufferPointer { n in
                    valueBytes.withUnsafeBufferPointer { v in
                        lws_add_http_header_by_name(wsi, n.baseAddress, v.baseAddress, Int32(v.count), &p, end)
                    }
                }
                guard rc == 0 else { return false }
            }
            return lws_finalize_write_http_header(wsi, start, &p, end) == 0
        }
    }
}

private func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
