// swift-format-ignore-file
// Docs/NetworkLayer.md's SwiftUI lifecycle for a background session, against SwiftUI's stand-in.
import NetworkLayer  //-
import SwiftUIStandIn  //-
import Foundation  //-
#if canImport(FoundationNetworking)  //-
    import FoundationNetworking  //-
#endif  //-
struct LibraryView: View {}  //-
let downloads = NetworkProvider(  //-
    sessionConfiguration: .ephemeral)  // .background(withIdentifier:) in the app  //-

struct LibraryApp: App {
    var body: some Scene {
        WindowGroup { LibraryView() }
            .backgroundTask(.urlSession("com.example.app.downloads")) {
                await downloads.deliverBackgroundEvents(forSession: "com.example.app.downloads")
            }
    }
}
