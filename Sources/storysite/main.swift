import Foundation
import StorySiteCLI

exit(await StorySite.run(arguments: Array(CommandLine.arguments.dropFirst())))
