import ChimedCommandLine
import Foundation

exit(DaemonCommandLine.run(arguments: Array(CommandLine.arguments.dropFirst())))
