import BoxOffice
import Foundation
import NetworkLayer
import TestSupport

/// `../shared/fixtures/real/` beside the project, when present (CI and developer machines have it).
enum RealFixtures {
    /// This file is Tests/BoxOfficeTests/Support.swift: three levels up is the folder beside the project.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/real")

    static var isPresent: Bool {
        FileManager.default.fileExists(atPath: directory.path)
    }

    static func files(prefix: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
            .map { directory.appendingPathComponent($0) }
    }
}

/// The demo dataset as the app bundles it.
var demo: DemoData {
    get throws {
        guard let data = DemoData.bundled else { throw MissingDemoData() }
        return data
    }
}

struct MissingDemoData: Error {}

func day(_ text: String) -> Day {
    (try? Day(dashed: text)) ?? { fatalError("bad test date \(text)") }()
}
