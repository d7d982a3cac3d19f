import Foundation
import Testing

/// The example's layers, as its folders show them: domain and presentation know nothing of how data is
/// fetched or cached.
@Suite("The example's layers")
struct LayeringTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/BoxOffice/Sources/BoxOffice")

    /// Every `import` line of the Swift files under `folder`, with the file's name.
    func imports(under folder: String) throws -> [(file: String, module: String)] {
        let root = Self.sources.appendingPathComponent(folder)
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap {
            $0 as? String
        }
        .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty, "no sources under \(folder)")
        return try files.flatMap { file in
            try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("import ") }
                .map { (file, String($0.dropFirst("import ".count))) }
        }
    }

    @Test(arguments: ["Domain", "Presentation"])
    func domainAndPresentationImportNeitherNetworkLayerNorCacheKit(folder: String) throws {
        // When
        let forbidden = try imports(under: folder).filter {
            ["NetworkLayer", "CacheKit", "DIKit"].contains($0.module)
        }
        // Then
        #expect(forbidden.isEmpty, "\(forbidden)")
    }

    @Test func theDomainImportsOnlyFoundation() throws {
        // When
        let modules = Set(try imports(under: "Domain").map(\.module))
        // Then
        #expect(modules.isSubset(of: ["Foundation"]))
    }
}
