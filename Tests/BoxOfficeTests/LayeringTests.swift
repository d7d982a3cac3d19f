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
                .compactMap { line -> (String, String)? in
                    // `import X`, `@preconcurrency import X`, `public import X`, `import struct X.Y`.
                    let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
                    guard let index = words.firstIndex(of: "import"), index <= 1 else { return nil }
                    let rest = words.dropFirst(index + 1)
                    let kinds: Set<Substring> = [
                        "struct", "class", "enum", "protocol", "func", "var", "let", "typealias",
                    ]
                    guard let target = rest.first(where: { !kinds.contains($0) }) else { return nil }
                    return (file, String(target.split(separator: ".").first ?? target))
                }
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

    @Test func presentationNamesNoTypeOfTheDataLayer() throws {
        // Given the data layer's public types (one module holds both layers, so no import would be needed)
        let dataTypes = [
            "KobisBoxOfficeRepository", "KobisAPI", "KakaoAPI", "PosterProvider", "PosterError", "KobisError",
            "KobisMappingError", "DemoData", "NetworkProvider", "NetworkError", "Cache<",
        ]
        let root = Self.sources.appendingPathComponent("Presentation")
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap {
            $0 as? String
        }
        .filter { $0.hasSuffix(".swift") }
        // When
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            found += dataTypes.filter { text.contains($0) }.map { "\(file): \($0)" }
        }
        // Then
        #expect(found.isEmpty, "\(found)")
    }

    @Test func theDomainImportsOnlyFoundation() throws {
        // When
        let modules = Set(try imports(under: "Domain").map(\.module))
        // Then
        #expect(modules.isSubset(of: ["Foundation"]))
    }
}
