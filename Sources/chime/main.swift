import CommandLineInterface
import Foundation

exit(Chime.run(Array(CommandLine.arguments.dropFirst())))
