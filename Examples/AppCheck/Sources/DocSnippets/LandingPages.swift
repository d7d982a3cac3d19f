// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift).
import Foundation  //-
import CacheKit  //-

func cacheKitLandingPage(url: URL, download: @escaping @Sendable (URL) async throws -> Data) async throws {  //-
    let posters = try Cache<Data>(name: "posters")
    let image = try await posters.value(forKey: url.absoluteString) {
        try await download(url)
    }
    _ = image  //-
}  //-
