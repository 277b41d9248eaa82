import CWebKitGTK
import PagehostCore

extension WebKitEngine {
    /// How long WebKit's own snapshot may take before the screenshot is drawn from the UI process instead.
    static let snapshotDeadline: Duration = .seconds(2)

    /// The visible part of the page (the session's viewport) as PNG.
    ///
    /// WebKit's snapshot asks the web process to paint, which cannot happen while the page's script is
    /// suspended (a pending dialog in any page sharing its process) or busy. After `snapshotDeadline` the
    /// screenshot is drawn from what the UI process last received instead, so a screenshot always answers
    /// (a snapshot that arrives later is dropped). The PNG encoding, the slow part, runs off the loop thread.
    public func screenshot(_ id: PageID) async throws(PagehostError) -> [UInt8] {
        let page = try page(id)
        let view = page.view
        let snapshot: Result<Surface, PagehostError> = await AsyncCallback.run(
            deadline: WebKitEngine.snapshotDeadline,
            timedOut: .failure(PagehostError(.unavailable, "the page did not paint in time")),
            discard: { late in if case .success(let surface) = late { cairo_surface_destroy(surface.pointer) } },
            start: { callback, data in
                webkit_web_view_get_snapshot(view, WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE, nil, callback, data)
            }, finish: { source, result in
            var error: UnsafeMutablePointer<GError>?
            let surface = webkit_web_view_get_snapshot_finish(source?.assumingMemoryBound(to: WebKitWebView.self), result, &error)
            if let error {
                let message = error.pointee.message.map { String(cString: $0) } ?? "snapshot failed"
                g_error_free(error)
                return .failure(PagehostError(.engine, "could not take a screenshot: \(message)"))
            }
            guard let surface else { return .failure(PagehostError(.engine, "could not take a screenshot")) }
            return .success(Surface(pointer: surface))
        })
        let image: Surface
        switch snapshot {
        case .success(let surface):
            image = surface
        case .failure(let error):
            page.probeResponsiveness()
            guard !page.isClosed, let drawn = ph_widget_snapshot(ph_widget(view)) else { throw error }
            image = Surface(pointer: drawn)
        }
        let png = await Task.detached { image.encodePNG() }.value
        guard let png else { throw PagehostError(.engine, "could not encode the screenshot as PNG") }
        return png
    }
}

/// A cairo image surface handed from the loop thread to the PNG encoder: owned by this value, used by one
/// thread at a time, destroyed after encoding.
struct Surface: @unchecked Sendable {
    let pointer: OpaquePointer

    func encodePNG() -> [UInt8]? {
        defer { cairo_surface_destroy(pointer) }
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(pointer, { closure, data, length in
                let sink = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
        }
        return status == CAIRO_STATUS_SUCCESS ? sink.bytes : nil
    }
}
