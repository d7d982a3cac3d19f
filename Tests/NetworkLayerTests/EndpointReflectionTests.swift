import Foundation
import Testing

@testable import NetworkLayer

/// `print` and `dump` of an endpoint or a group show no credential (as OkHttp's `Headers.toString()`
/// hides them).
@Suite("Endpoint: what print and dump show")
struct EndpointReflectionTests {
    @Test func printAndDumpOfAnEndpointAndItsGroupShowNoCredential() {
        // Given a group with a credential header and query item, an endpoint of it, and a token in a path
        let key = "KEY-\(UUID().uuidString)"
        let item = "ITEM-\(UUID().uuidString)"
        let group = EndpointGroup(
            baseURL: URL(string: "https://api.example.com")!, credentialHeaders: ["X-Api-Key": key],
            credentialQueryItems: [URLQueryItem(name: "serviceKey", value: item)])
        let endpoint: Endpoint<Data> = group.get("films", query: ["page": "2"])
        // When they are printed and dumped
        var dumped = ""
        dump(endpoint, to: &dumped)
        dump(group, to: &dumped)
        let printed = "\(endpoint) \(group) \(String(reflecting: endpoint))"
        // Then neither value appears, and the harmless parts do
        for text in [dumped, printed] {
            #expect(!text.contains(key))
            #expect(!text.contains(item))
            #expect(text.contains("page=2"))
            #expect(text.contains("api.example.com"))
        }
    }
}
