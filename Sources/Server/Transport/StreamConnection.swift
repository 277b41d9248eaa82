import CLibWebSockets
import PagehostCore

/// One WebSocket connection of the stream: its client and the command message being received.
///
/// Thread: the loop thread, inside lws callbacks.
@LoopActor
final class StreamConnection {
    let wsi: OpaquePointer
    let client: StreamClient
    private var incoming: [UInt8] = []
    private var discarding = false

    init(wsi: OpaquePointer, client: StreamClient) {
        self.wsi = wsi
        self.client = client
    }

    enum Received {
        case partial
        case message([UInt8])
        case tooLarge
    }

    /// Runs in LWS_CALLBACK_RECEIVE: gathers fragments until the message is whole. Messages over `limit`
    /// bytes are refused without being kept.
    func receive(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Received {
        if !discarding {
            if incoming.count + bytes.count > limit {
                discarding = true
                incoming = []
            } else {
                incoming.append(contentsOf: bytes)
            }
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return .partial }
        defer {
            incoming = []
            discarding = false
        }
        return discarding ? .tooLarge : .message(incoming)
    }

    /// Runs in LWS_CALLBACK_SERVER_WRITEABLE: writes one whole text message.
    func write(_ message: [UInt8]) -> Bool {
        let pre = Int(pagehost_lws_pre())
        var buffer = [UInt8](repeating: 0, count: pre + message.count)
        buffer.replaceSubrange(pre..., with: message)
        let written = buffer.withUnsafeMutableBufferPointer {
            pagehost_lws_write_text(wsi, $0.baseAddress! + pre, message.count)
        }
        return written >= message.count
    }
}
