import BoxOffice
import DIKit
import Foundation

// `report`: one HTML page of a day's chart, to a file or to standard output.
extension BoxOfficeApp {
    static func report(
        day: Day, path: String?, container: Container, output: Output, environment: AppEnvironment
    ) async throws -> Int32 {
        let destination = ReportFile.destination(for: path, day: day)
        if case .file(let file) = destination {
            do {
                try ReportFile.check(file)
            } catch {
                output.error("cannot write the report to \(file.path): \(error)")
                return 1
            }
        }
        let viewModel = try container.resolve(BoxOfficeReportViewModel.self)
        let spinner = Spinner()
        if environment.isKobisLive || environment.isKakaoLive {
            spinner.start("Making the report for \(day)…")
        }
        await viewModel.load(day)
        spinner.stop()
        guard let report = viewModel.report.value else {
            output.error(viewModel.errorMessage.value ?? "no report for \(day)")
            return 1
        }
        for note in viewModel.notes.value { output.note(note) }
        for problem in viewModel.problems.value { output.warning(problem) }
        // Each string is scrubbed before the page escapes it, and the page once more as a whole.
        let html = output.scrubbed(
            HTMLReport.render(
                ReportScrubbing.scrubbed(report, with: output.scrubbed), isDemo: !environment.isKobisLive,
                generated: Date()))
        switch destination {
        case .standardOutput:
            output.print(html)
        case .file(let file):
            do {
                try ReportFile.write(html, to: file)
            } catch {
                output.error("could not write the report to \(file.path): \(error)")
                return 1
            }
            output.print(TerminalText.line(file.path))
        }
        return 0
    }
}
