import Foundation

/// SIGINT and SIGTERM taken off their default action and delivered to `handler` on a dispatch queue of their
/// own (`DispatchQueue.main` is never drained: the main thread only waits, and the GLib loop runs elsewhere).
/// Each command decides what a stop means; `cancel()` gives the signals back. Made and cancelled on the
/// main thread.
final class StopSignals {
    private let sources: [any DispatchSourceSignal]

    init(label: String, _ handler: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: label)
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    func cancel() {
        sources.forEach { $0.cancel() }
    }
}
