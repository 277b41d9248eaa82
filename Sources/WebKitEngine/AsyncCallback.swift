import CWebKitGTK
import PagehostCore

/// Bridges a GIO-style async call (`…_async(…, callback, user_data)` + `…_finish`) to Swift concurrency.
///
/// The continuation travels as retained user data and is released in the callback, which GIO runs on the
/// loop thread; `finish` is called there with the source object and the result. With a deadline, the
/// caller is answered `timedOut` if the callback has not come by then (WebKit does not always honour a
/// `GCancellable`: a snapshot of a page whose script is suspended never calls back until it resumes); a
/// callback that comes later still runs `finish`, and its value goes to `discard`.
@LoopActor
enum AsyncCallback {
    final class Box<Value: Sendable> {
        let finish: (gpointer?, OpaquePointer?) -> Value
        let discard: (Value) -> Void
        var continuation: CheckedContinuation<Value, Never>?
        init(finish: @escaping (gpointer?, OpaquePointer?) -> Value, discard: @escaping (Value) -> Void) {
            self.finish = finish
            self.discard = discard
        }

        /// Answers the caller once; a second answer is discarded.
        func answer(_ value: Value) {
            if let continuation {
                self.continuation = nil
                continuation.resume(returning: value)
            } else {
                discard(value)
            }
        }
    }

    /// `start` receives the callback and user data to pass to the async C function.
    static func run<Value: Sendable>(
        deadline: Duration? = nil,
        timedOut: @autoclosure @escaping () -> Value = { fatalError("no deadline") }(),
        discard: @escaping (Value) -> Void = { _ in },
        start: (GAsyncReadyCallback, gpointer) -> Void,
        finish: @escaping (gpointer?, OpaquePointer?) -> Value
    ) async -> Value {
        let box = Box(finish: finish, discard: discard)
        var timer: Task<Void, Never>?
        defer { timer?.cancel() }
        return await withCheckedContinuation { continuation in
            box.continuation = continuation
            if let deadline {
                timer = Task { @LoopActor in
                    guard (try? await Task.sleep(for: deadline)) != nil else { return }
                    if box.continuation != nil { box.answer(timedOut()) }
                }
            }
            let callback: GAsyncReadyCallback = { source, result, data in
                let box = Unmanaged<AnyObject>.fromOpaque(data!).takeRetainedValue()
                let sourceBits = UInt(bitPattern: source)
                let resultBits = UInt(bitPattern: result)
                LoopActor.assumeIsolated {
                    (box as? Resumable)?.resume(source: sourceBits, result: resultBits)
                }
            }
            start(callback, Unmanaged.passRetained(box as AnyObject).toOpaque())
        }
    }
}

@LoopActor
protocol Resumable: AnyObject {
    func resume(source: UInt, result: UInt)
}

extension AsyncCallback.Box: Resumable {
    func resume(source: UInt, result: UInt) {
        answer(finish(UnsafeMutableRawPointer(bitPattern: source), OpaquePointer(bitPattern: result)))
    }
}
