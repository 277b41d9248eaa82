import Foundation

// pagehost: one process hosting many browser sessions. `pagehost --help` lists the commands.
let arguments = Array(CommandLine.arguments.dropFirst())
exit(CommandLineInterface.run(arguments))
