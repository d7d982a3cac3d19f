import BoxOffice
import DIKit
import Foundation

/// Runs one command line and returns the exit code: 0 success, 1 a runtime failure, 64 a usage error,
/// 130 when the user quit `browse` with Ctrl-C (128 + SIGINT, as a shell reports it).
@MainActor
public enum BoxOfficeApp {
    /// Runs `boxoffice` with `arguments` in an environment of `variables`.
    /// - Parameters:
    ///   - arguments: The arguments after the program's name.
    ///   - variables: The process environment.
    /// - Returns: The exit code.
    public static func run(arguments: [String], variables: [String: String]) async -> Int32 {
        // Until the keys are read, scrub the raw variables, so not even a malformed key is ever shown.
        // Trimmed as AppEnvironment trims them, so a key with a trailing newline is still recognised.
        let early = Output(
            secrets: ["KOBIS_API_KEY", "KAKAO_REST_API_KEY"].map {
                variables[$0]?.trimmingCharacters(in: .whitespacesAndNewlines)
            })
        let (code, output) = await execute(arguments: arguments, variables: variables, early: early)
        if early.hasFailedToWrite || output.hasFailedToWrite {
            StandardError.write("error: could not write to standard output\n")
            return 1
        }
        return code
    }

    private static func execute(arguments: [String], variables: [String: String], early: Output) async -> (
        Int32, Output
    ) {
        let invocation: Invocation
        do {
            invocation = try Arguments.parse(arguments)
        } catch {
            early.error("\(error)")
            StandardError.write("Run 'boxoffice --help' for usage.\n")
            return (64, early)
        }
        if invocation.command == .help {
            early.print(Arguments.helpText())
            return (0, early)
        }
        if invocation.command == .version {
            early.print(Arguments.versionText)
            return (0, early)
        }
        let environment: AppEnvironment
        do {
            environment = try AppEnvironment(variables: variables, forcesOffline: invocation.offline)
        } catch {
            early.error("\(error)")
            return (1, early)
        }
        let output = Output(secrets: environment.keys)
        return (
            await execute(invocation, environment: environment, variables: variables, output: output), output
        )
    }

    private static func execute(
        _ invocation: Invocation, environment: AppEnvironment, variables: [String: String], output: Output
    ) async -> Int32 {
        let demoData = DemoData.bundled
        let container = CompositionRoot.makeContainer(environment: environment, demoData: demoData) {
            output.warning($0)
        }
        let screen = Screen(
            style: Style.forStandardOutput(environment: variables),
            columns: Screen.columns(environment: variables), rows: Screen.rows(environment: variables),
            secrets: output.secrets)
        do {
            switch invocation.command {
            case .daily(let date, let mode, let json):
                let day = date ?? CompositionRoot.defaultDay(environment: environment, demoData: demoData)
                return try await daily(
                    day: day, mode: mode, json: json, refresh: invocation.refresh, container: container,
                    screen: screen, output: output, environment: environment, demoData: demoData)
            case .movie(let code, let json):
                return try await movie(
                    code: code, json: json, container: container, screen: screen, output: output,
                    environment: environment, variables: variables)
            case .search(let title, let json):
                return try await search(
                    title: title, json: json, container: container, screen: screen, output: output,
                    environment: environment)
            case .report(let date, let path):
                let day = date ?? CompositionRoot.defaultDay(environment: environment, demoData: demoData)
                return try await report(
                    day: day, path: path, container: container, output: output, environment: environment)
            case .browse:
                return try await browse(
                    container: container, screen: screen, output: output, environment: environment,
                    variables: variables, demoData: demoData)
            case .help, .version:
                return 0
            }
        } catch {
            output.error(ErrorMessage.describe(error))
            return 1
        }
    }
}
