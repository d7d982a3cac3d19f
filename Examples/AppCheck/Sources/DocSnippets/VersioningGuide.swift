// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift).
import Foundation  //-
import CacheKit  //-

func advice(for error: CacheError) -> String {
    switch error.reason {
    case .fileSystem(let code, _) where code == ENOSPC: "The disk is full."
    case .entryTooLarge: "This value is larger than the cache."
    case .fileSystem, .encodingFailed, .tier: error.description
    @unknown default: error.description     // a case a later version adds
    }
}
