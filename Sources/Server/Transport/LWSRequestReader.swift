import CLibWebSockets

/// Reads a request's method, path, query and the headers Pagehost uses out of an lws connection.
///
/// Thread: the loop thread, inside an lws callback while the connection still holds its header table.
enum LWSRequestReader {
    private static let methods: [(lws_token_indexes, HTTPRequest.Method)] = [
        (WSI_TOKEN_GET_URI, .get), (WSI_TOKEN_POST_URI, .post), (WSI_TOKEN_DELETE_URI, .delete),
        (WSI_TOKEN_PUT_URI, .put), (WSI_TOKEN_PATCH_URI, .patch), (WSI_TOKEN_OPTIONS_URI, .options),
        (WSI_TOKEN_HEAD_URI, .head),
    ]

    private static let headers: [(lws_token_indexes, String)] = [
        (WSI_TOKEN_HTTP_AUTHORIZATION, "authorization"), (WSI_TOKEN_HTTP_COOKIE, "cookie"),
        (WSI_TOKEN_ORIGIN, "origin"), (WSI_TOKEN_HOST, "host"), (WSI_TOKEN_HTTP_CONTENT_TYPE, "content-type"),
        (WSI_TOKEN_HTTP_CONTENT_LENGTH, "content-length"), (WSI_TOKEN_HTTP_TRANSFER_ENCODING, "transfer-encoding"),
    ]

    /// The request without its body; nil when lws parsed no method we know.
    static func read(_ wsi: OpaquePointer) -> HTTPRequest? {
        guard let (token, method) = methods.first(where: { lws_hdr_total_length(wsi, $0.0) > 0 }),
              let path = header(wsi, token)
        else { return nil }
        var request = HTTPRequest(method: method, path: path)
        for (token, name) in headers {
            if let value = header(wsi, token) { request.headers[name] = value }
        }
        request.query = query(wsi)
        return request
    }

    static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        let copied = buffer.withUnsafeMutableBufferPointer { lws_hdr_copy(wsi, $0.baseAddress, Int32($0.count), token) }
        guard copied >= 0 else { return nil }
        return String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `?a=1&b=2`, as lws split (and URL-decoded) it into fragments.
    static func query(_ wsi: OpaquePointer) -> [String: String] {
        var result: [String: String] = [:]
        let total = Int(lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS))
        guard total > 0 else { return result }
        var buffer = [CChar](repeating: 0, count: total + 1)
        var index: Int32 = 0
        while index < 64 {
            let length = buffer.withUnsafeMutableBufferPointer {
                lws_hdr_copy_fragment(wsi, $0.baseAddress, Int32($0.count), WSI_TOKEN_HTTP_URI_ARGS, index)
            }
            guard length >= 0 else { break }
            let fragment = String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let parts = fragment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if let name = parts.first, result[String(name)] == nil {
                result[String(name)] = parts.count > 1 ? String(parts[1]) : ""
            }
            index += 1
        }
        return result
    }
}
