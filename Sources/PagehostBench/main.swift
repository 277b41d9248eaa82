import Foundation
import PagehostClient

// pagehost-bench: the stream side of bench/ (stream latency and fan-out), on PagehostClient so the client
// costs little next to the server it measures. bench/run drives it; it prints one JSON object.
//
//   pagehost-bench stream --server URL --token T --clients N --seconds S [--warmup S]
//
// Each client is a thread with its own stream. A `page.updated` whose title is `t=<ms since 1970>` (the
// page's clock, `performance.timeOrigin + performance.now()`) counts towards latency: receive time minus
// that clock, on the same machine's clock.
exit(BenchCommand.run(Array(CommandLine.arguments.dropFirst())))
