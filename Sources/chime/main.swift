import CommandLineInterface
import Foundation

exit(Chime.main())
