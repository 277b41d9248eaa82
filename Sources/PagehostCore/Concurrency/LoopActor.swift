import Synchronization

/// The one actor that owns Pagehost's mutable state: sessions, pages, dialogs and the event log.
///
/// It runs on whatever serial executor the program installs at start (the `MainLoop` module installs one
/// that runs jobs on the GLib main-loop thread, where WebKit and libwebsockets live). The core itself knows
/// nothing of GLib; it only needs the executor to be serial and to be able to say whether the current
/// thread is the one it runs on, so that C callbacks arriving on that thread can enter the actor
/// synchronously with `LoopActor.assumeIsolated`.
@globalActor
public actor LoopActor {
    public static let shared = LoopActor()

    private static let installed = Mutex<(any SerialExecutor)?>(nil)

    /// Installs the executor the actor runs on. Call once, before any isolated code runs; later calls
    /// with another executor are ignored (the first one wins, so tests can call it freely).
    public static func install(_ executor: any SerialExecutor) {
        installed.withLock { current in
            if current == nil { current = executor }
        }
    }

    /// Whether an executor has been installed.
    public static var isInstalled: Bool { installed.withLock { $0 != nil } }

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        guard let executor = LoopActor.installed.withLock({ $0 }) else {
            fatalError("LoopActor used before an executor was installed (MainLoop.start() installs one)")
        }
        return executor.asUnownedSerialExecutor()
    }

    /// Runs `operation` synchronously when the caller is already on the loop's thread (a C callback from
    /// GLib, WebKit or libwebsockets). Traps if it is not: that would be a threading bug.
    public static func assumeIsolated<T>(
        _ operation: @LoopActor () throws -> T,
        file: StaticString = #fileID, line: UInt = #line
    ) rethrows -> T {
        typealias Isolated = @LoopActor () throws -> T
        typealias Plain = () throws -> T
        shared.preconditionIsolated("not on the loop thread", file: file, line: line)
        return try withoutActuallyEscaping(operation) { isolated in
            try unsafeBitCast(isolated, to: Plain.self)()
        }
    }
}
