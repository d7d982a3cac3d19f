// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift).
import Foundation  //-
import CacheKit

func readmeCacheKitTour(url: URL, download: @escaping @Sendable (URL) async throws -> Data) async throws {  //-
    let posters = try Cache<Data>(name: "posters")          // memory (5 min) in front of disk (7 days)
    let image = try await posters.value(forKey: url.absoluteString) {
        try await download(url)                               // once, however many callers miss together
    }
    _ = image  //-
}  //-
