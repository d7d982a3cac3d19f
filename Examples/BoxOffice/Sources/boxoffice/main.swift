import BoxOfficeTerminal
import Foundation

// The `boxoffice` command: a thin terminal view over the BoxOffice app core.
let code = await BoxOfficeApp.run(
    arguments: Array(CommandLine.arguments.dropFirst()), variables: ProcessInfo.processInfo.environment)
exit(code)
