import Benchmark
import Foundation
import NetworkLayer

/// What hiding secrets in a recorded text body costs: `Redaction.redact(text:)`, the pass a recording's
/// UTF-8 body goes through, over JSON-like text of 1 and 4 MiB with 64 values declared: the two rows
/// show the cost grows with the body (linearly). Every benchmark of the target runs in one process, whose
/// store only grows, so a row "without values" could not be told apart.
func redactionBenchmarks() {
    let line =
        "{\"movieCd\":\"20240001\",\"movieNm\":\"A title\",\"openDt\":\"2024-01-01\",\"audiCnt\":\"12345\"},\n"
    let oneMiB = String(repeating: line, count: (1 << 20) / line.utf8.count)
    let fourMiB = String(repeating: oneMiB, count: 4)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(smoke ? 1 : 3),
        maxIterations: smoke ? 1 : 50)
    Benchmark("Redaction: 1 MiB text, 64 values declared", configuration: configuration) { benchmark in
        declareSixtyFourValues()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(Redaction.redact(text: oneMiB)) }
    }
    Benchmark("Redaction: 4 MiB text, 64 values declared", configuration: configuration) { benchmark in
        declareSixtyFourValues()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(Redaction.redact(text: fourMiB)) }
    }
}

/// Declares 64 values as an app with many keys would (the store keeps the newest 64), each with a
/// prefix of its own.
private func declareSixtyFourValues() {
    for index in 0..<64 { Credentials.declare(value: "\(index * 7919)-declared-secret-value-\(index)") }
}
