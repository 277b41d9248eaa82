import CWebKitGTK
import PagehostCore

/// The user data of every GObject signal handler Pagehost connects: a weak reference to the Swift object
/// that handles the signal.
///
/// Ownership: each connection retains the box once (`Unmanaged.passRetained`), and GLib releases it through
/// the destroy notify when the handler is disconnected or the instance is finalized, so a late callback
/// never touches freed memory. The owner clears `target` when it goes away; a callback that finds nil does
/// nothing.
@LoopActor
final class SignalTarget<Target: AnyObject> {
    weak var target: Target?

    init(_ target: Target) {
        self.target = target
    }

    /// Connects `handler` (a `@convention(c)` function whose last parameter is the user data) to `signal`.
    nonisolated func connect<Handler>(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: Handler) {
        let callback = unsafeBitCast(handler, to: GCallback.self)
        let data = Unmanaged.passRetained(self).toOpaque()
        ph_signal_connect(instance, signal, callback, data) { data, _ in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
    }

    /// The target behind a callback's user data. Callbacks run on the loop thread.
    nonisolated static func from(_ data: gpointer?) -> SignalTarget<Target> {
        Unmanaged<SignalTarget<Target>>.fromOpaque(data!).takeUnretainedValue()
    }
}
