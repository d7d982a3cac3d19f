import BoxOffice
import Foundation

/// What the user asked for.
public enum Command: Equatable, Sendable {
    case daily(date: Day?, mode: DisplayMode, json: Bool)
    case movie(code: String, json: Bool)
    case search(title: String, json: Bool)
    case report(date: Day?, output: String?)
    case browse
    case help
    /// `--version`: what the program is.
    case version
}

/// The parsed command line.
public struct Invocation: Equatable, Sendable {
    /// The command.
    public var command: Command
    /// Whether `--offline` was given.
    public var offline: Bool
    /// Whether `--refresh` was given (daily): the chart is asked for past the cache.
    public var refresh = false
}

/// A command line that does not follow the usage; exit code 64. Its message quotes at most a short,
/// cleaned excerpt of any argument.
public struct UsageError: Error, CustomStringConvertible {
    /// The message, one line.
    public let message: String
    /// The message.
    public var description: String { message }
}

/// Parses `boxoffice [daily|movie|search|report|browse|help] [options] [--] [operands]` without any
/// dependency. An option may appear once; `--` ends the options.
public enum Arguments {
    static let usage = """
        boxoffice: Korea's daily box office (KOBIS) with posters (Kakao image search).

        USAGE
          boxoffice [daily] [--date YYYY-MM-DD] [--mode list|grid | --json] [--refresh] [--offline]
          boxoffice movie <movieCode> [--json] [--offline]
          boxoffice search <title> [--json] [--offline]
          boxoffice report [--date YYYY-MM-DD] [--output FILE] [--offline]
          boxoffice browse [--offline]
          boxoffice help [<command>] | <command> --help | -h
          boxoffice --version

        COMMANDS
          daily             The box office for a day (the default command).
          movie <code>      A film's details and poster, by its 8-digit KOBIS movie code.
          search <title>    Films whose title contains <title> (KOBIS movie list), with their codes.
          report            Writes one self-contained HTML page: the day's chart as a poster grid, with details.
          browse            Interactive: ←/→ day, ↑/↓ select, Enter details, / search, g list/grid, r refresh, q quit.

        OPTIONS
          --date YYYY-MM-DD The day to show (daily, report). Default: yesterday in Korea when live, the latest demo day offline.
          --mode list|grid  The layout (daily). Default: list.
          --output FILE     Where the report goes: a file, a folder (ending in /) to put it in, or - for
                            standard output. Default: boxoffice-YYYY-MM-DD.html in the current folder.
          --json            Print one JSON object instead of a table (daily, movie, search); not with --mode.
          --refresh         Ask KOBIS for the day's chart past the cache, and keep the answer (daily).
          --offline         Use the bundled demo data even when API keys are set.
          -h, --help        Show this help.
          --version         Show what this program is.
          --                Ends the options: what follows is an operand (search -- -title).

        ENVIRONMENT
        """

    /// Parses the arguments after the program's name.
    /// - Parameter arguments: The arguments.
    /// - Returns: The invocation.
    /// - Throws: ``UsageError`` for anything the usage does not allow.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        let options = arguments.prefix { $0 != "--" }
        if options.contains("-h") || options.contains("--help") {
            return Invocation(command: .help, offline: options.contains("--offline"))
        }
        if options.contains("--version") { return Invocation(command: .version, offline: false) }
        var refresh = false
        var offline = false
        var json = false
        var date: Day?
        var mode: DisplayMode?
        var outputPath: String?
        var positionals: [String] = []
        var given: [String] = []
        var index = 0
        var optionsEnded = false

        func value(for option: String, inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                throw UsageError(message: "\(option) needs a value")
            }
            return arguments[index]
        }

        while index < arguments.count {
            let argument = arguments[index]
            if optionsEnded || argument == "--" || argument == "-" || !argument.hasPrefix("-") {
                // After `--` every argument is an operand, even one that starts with `-`.
                if !optionsEnded, argument == "--" {
                    optionsEnded = true
                } else {
                    positionals.append(argument)
                }
                index += 1
                continue
            }
            // `--name=value`; an empty value (`--json=`) is still a value, not the flag alone.
            let equals = argument.hasPrefix("--") ? argument.firstIndex(of: "=") : nil
            let name = equals.map { String(argument[..<$0]) } ?? argument
            let inline = equals.map { String(argument[argument.index(after: $0)...]) }
            if ["--offline", "--json", "--date", "--mode", "--output", "--refresh"].contains(name) {
                // A repeated option is a mistake to point out, not a choice to make silently.
                guard !given.contains(name) else { throw UsageError(message: "\(name) is given twice") }
                given.append(name)
            }
            switch name {
            case "--offline", "--json", "--refresh":
                // A flag takes no value: `--json=false` must not silently mean `--json`.
                if inline != nil {
                    throw UsageError(message: "\(name) takes no value (got \"\(excerpt(argument))\")")
                }
                switch name {
                case "--offline": offline = true
                case "--json": json = true
                default: refresh = true
                }
            case "--date":
                let text = try value(for: "--date", inline: inline)
                try refuseSurroundingSpace(text, option: "--date")
                do {
                    date = try Day(dashed: text)
                } catch {
                    switch error {
                    case .impossible:
                        throw UsageError(message: "--date \(excerpt(text)) is not a real date")
                    case .malformed(_, let expected):
                        throw UsageError(
                            message: "--date \"\(excerpt(text))\" is not a date in the form \(expected)")
                    }
                }
            case "--mode":
                let text = try value(for: "--mode", inline: inline)
                try refuseSurroundingSpace(text, option: "--mode")
                guard let parsed = DisplayMode(rawValue: text) else {
                    throw UsageError(message: "--mode must be list or grid, not \"\(excerpt(text))\"")
                }
                mode = parsed
            case "--output":
                let text = try value(for: "--output", inline: inline)
                guard !text.isEmpty,
                    !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
                else {
                    throw UsageError(message: "--output needs a file path without control characters")
                }
                outputPath = text
            default:
                throw UsageError(message: "unknown option \(excerpt(argument))")
            }
            index += 1
        }
        let commandName = positionals.first ?? "daily"
        let operands = Array(positionals.dropFirst())
        func reject(_ options: [String]) throws(UsageError) {
            if let invalid = given.first(where: options.contains) {
                throw UsageError(message: "\(invalid) does not apply to '\(commandName)'")
            }
        }
        switch commandName {
        case "daily":
            try reject(["--output"])
            if json, mode != nil {
                throw UsageError(message: "--mode does not apply to --json output (it lays out the table)")
            }
            guard operands.isEmpty else {
                throw UsageError(message: "unexpected argument \"\(excerpt(operands[0]))\"")
            }
            return Invocation(
                command: .daily(date: date, mode: mode ?? .list, json: json), offline: offline,
                refresh: refresh)
        case "movie":
            try reject(["--date", "--mode", "--output", "--refresh"])
            guard let code = operands.first else {
                throw UsageError(message: "missing movie code: boxoffice movie <movieCode>")
            }
            guard operands.count == 1 else {
                throw UsageError(message: "unexpected argument \"\(excerpt(operands[1]))\"")
            }
            guard code.utf8.count == 8, code.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw UsageError(
                    message: "\"\(excerpt(code))\" is not a KOBIS movie code (8 digits, such as 20124079)")
            }
            return Invocation(command: .movie(code: code, json: json), offline: offline)
        case "search":
            try reject(["--date", "--mode", "--output", "--refresh"])
            return Invocation(
                command: .search(title: try searchTitle(operands), json: json), offline: offline)
        case "report":
            try reject(["--mode", "--json", "--refresh"])
            guard operands.isEmpty else {
                throw UsageError(message: "unexpected argument \"\(excerpt(operands[0]))\"")
            }
            return Invocation(command: .report(date: date, output: outputPath), offline: offline)
        case "help":
            // `help movie` is help too: every command's usage is on the one page.
            guard operands.count <= 1,
                operands.allSatisfy(["daily", "movie", "search", "report", "browse", "help"].contains)
            else {
                throw UsageError(message: "unexpected argument \"\(excerpt(operands[0]))\"")
            }
            return Invocation(command: .help, offline: offline)
        case "browse":
            try reject(["--date", "--mode", "--json", "--output", "--refresh"])
            guard operands.isEmpty else {
                throw UsageError(message: "unexpected argument \"\(excerpt(operands[0]))\"")
            }
            return Invocation(command: .browse, offline: offline)
        default:
            throw UsageError(message: "unknown command '\(excerpt(commandName))'")
        }
    }

    /// Throws when `text` has white space around it: `--date " 2026-11-20"` would otherwise be reported
    /// as `"2026-11-20" is not a date`, quoting a value that looks right.
    static func refuseSurroundingSpace(_ text: String, option: String) throws(UsageError) {
        guard text.trimmingCharacters(in: .whitespacesAndNewlines) != text else { return }
        throw UsageError(
            message:
                "\(option) has spaces around its value (\"\(TerminalText.clean(String(text.prefix(40))))\"); "
                + "give the value alone")
    }

    /// The longest title searched for, in characters.
    static let maximumTitleLength = 100

    /// The title `search` looks for: its operands joined by spaces and trimmed; not empty, at most
    /// ``maximumTitleLength`` characters, no control characters.
    static func searchTitle(_ operands: [String]) throws(UsageError) -> String {
        let title = operands.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else {
            throw UsageError(message: "missing title: boxoffice search <title>")
        }
        guard !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw UsageError(message: "the title \"\(excerpt(title))\" contains control characters")
        }
        guard title.count <= maximumTitleLength else {
            throw UsageError(message: "the title is longer than \(maximumTitleLength) characters")
        }
        return title
    }

    /// An argument as an error message may quote it: cleaned, on one line, at most 40 characters.
    static func excerpt(_ argument: String) -> String {
        TerminalText.excerpt(argument)
    }

    /// What `--version` prints.
    static let versionText = "boxoffice, the AppArchitectureKit example (no version tagged yet)"

    static func helpText() -> String {
        let width = AppEnvironment.variables.map(\.name.count).max() ?? 0
        let variables = AppEnvironment.variables.map { variable in
            "  " + variable.name + String(repeating: " ", count: width - variable.name.count + 2)
                + variable.meaning
        }
        return usage + "\n" + variables.joined(separator: "\n") + """


            Charts and films' details are kept in BOXOFFICE_CACHE_DIR (default: the platform's caches folder,
            plus boxoffice); a past day's chart is kept a year: --refresh asks KOBIS again.

            EXIT CODES
              0 success · 1 a runtime failure (an API error, the network) · 64 a usage error ·
              130 interrupted (Ctrl-C)
            """
    }
}
