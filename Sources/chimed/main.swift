import AlarmScheduler
import Foundation

exit(DaemonCommandLine.run(arguments: Array(CommandLine.arguments.dropFirst())))
