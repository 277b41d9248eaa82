// swift-tools-version:6.0
// Pagehost: a multi-window browser session server. See docs/architecture.md for the layering:
// PagehostCore (plain Swift) <- engines and the server <- the pagehost executable.
import PackageDescription

let package = Package(
    name: "pagehost",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "pagehost", targets: ["pagehost"]),
    ],
    targets: [
        // The domain: sessions, pages, popups, dialogs, events. No C imports.
        .target(name: "PagehostCore"),

        // C libraries, each behind one small system-library target.
        .systemLibrary(name: "CGLib", pkgConfig: "glib-2.0",
                       providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CWebKitGTK", pkgConfig: "webkit2gtk-4.1",
                       providers: [.apt(["libwebkit2gtk-4.1-dev"])]),
        .systemLibrary(name: "CLibWebSockets", pkgConfig: "libwebsockets",
                       providers: [.apt(["libwebsockets-dev", "libwebsockets-evlib-glib"])]),

        // The GLib main-loop thread and the executor that runs LoopActor on it.
        .target(name: "MainLoop", dependencies: ["PagehostCore", "CGLib"]),

        // PageEngine on WebKitGTK 4.1.
        .target(name: "WebKitEngine", dependencies: ["PagehostCore", "MainLoop", "CWebKitGTK"]),

        // HTTP API, live WebSocket stream and static files on libwebsockets, a guest on the GLib loop.
        .target(name: "Server", dependencies: ["PagehostCore", "MainLoop", "CLibWebSockets"]),

        // A client of the public API (HTTP/1.1 + the WebSocket stream) on POSIX sockets: plain threads, no loop,
        // no LoopActor, so a slow server never blocks it. `pagehost load` and the benchmarks drive servers with it.
        .target(name: "PagehostClient", dependencies: ["PagehostCore"]),

        // The command line: `pagehost open`, `serve` and `load`.
        .executableTarget(name: "pagehost", dependencies: ["PagehostCore", "MainLoop", "WebKitEngine", "Server", "PagehostClient"]),

        // bench/'s stream clients (latency and fan-out), on PagehostClient.
        .executableTarget(name: "PagehostBench", dependencies: ["PagehostClient"]),

        .testTarget(name: "PagehostCoreTests", dependencies: ["PagehostCore", "MainLoop"]),
        .testTarget(name: "WebKitEngineTests", dependencies: ["PagehostCore", "MainLoop", "WebKitEngine", "CWebKitGTK"]),
        .testTarget(name: "PagehostCLITests", dependencies: ["PagehostCore"]),
        .testTarget(name: "ServerTests", dependencies: ["PagehostCore", "MainLoop", "Server", "WebKitEngine", "PagehostClient"]),
        .testTarget(name: "LoadTests", dependencies: ["PagehostCore", "PagehostClient"]),
    ],
    swiftLanguageModes: [.v6]
)
