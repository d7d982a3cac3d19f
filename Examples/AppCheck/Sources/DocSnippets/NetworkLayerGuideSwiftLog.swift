// swift-format-ignore-file
// The docs' code, laid out as the page shows it (see DocSnippets.swift).
import NetworkLayer  //-
import Logging   // swift-log, on a server

func networkLayerGuideSwiftLog() {  //-
    let log = Logger(label: "network")
    let provider = NetworkProvider(configuration: .init(onEvent: { event in
        var metadata: Logger.Metadata = ["endpoint": "\(event.summary.endpointName)"]
        if let duration = event.summary.metrics?.duration { metadata["duration"] = "\(duration)" }
        log.info("\(event.description)", metadata: metadata)
    }))
    _ = provider  //-
}  //-
