import CWebKitGTK
import PagehostCore

/// Bridges a GIO-style async call (`…_async(…, callback, user_data)` + `…_finish`) to Swift concurrency.
///
/// The continuation travels as retained user data and is resumed exactly once, in the callback, which GIO
/// runs on the loop thread; `finish` is called there with the source object and the result.
@LoopActor
enum AsyncCallback {
    final class Box<Value: Sendable> {
        let finish: (gpointer?, OpaquePointer?) -> Value
        var continuation: CheckedContinuation<Value, Never>?
        init(finish: @escaping (gpointer?, OpaquePointer?) -> Value) {
            self.finish = finish
        }
    }

    /// `start` receives the callback and user data to pass to the async C function.
    static func run<Value: Sendable>(
        start: (GAsyncReadyCallback, gpointer) -> Void,
        finish: @escaping (gpointer?, OpaquePointer?) -> Value
    ) async -> Value {
        let box = Box(finish: finish)
        return await withCheckedContinuation { continuation in
            box.continuation = continuation
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
        let value = finish(UnsafeMutableRawPointer(bitPattern: source), OpaquePointer(bitPattern: result))
        continuation?.resume(returning: value)
        continuation = nil
    }
}
