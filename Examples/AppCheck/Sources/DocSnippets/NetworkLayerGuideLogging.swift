// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift).
import Foundation  //-
import NetworkLayer  //-
#if canImport(os)  //-
import os   // Apple platforms

func networkLayerGuideOSLog() {  //-
    let logger = Logger(subsystem: "com.example.boxoffice", category: "network")
    let provider = NetworkProvider(configuration: .init(onEvent: { event in
        switch event {
        case .failed: logger.error("\(event.publicDescription, privacy: .public) \(event.description, privacy: .private)")
        default: logger.debug("\(event.publicDescription, privacy: .public)")
        }
    }))
    _ = provider  //-
}  //-
#endif  //-
