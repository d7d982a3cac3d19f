import Foundation

/// The run's API keys, and the check that no text about to leave for a host, or to be cached, carries
/// one: verbatim, or percent-encoded as a URL would carry it (`%2B` for `+`).
struct CarriedSecrets: Sendable {
    private let secrets: [String]

    /// The keys; empty strings are ignored.
    init(_ secrets: [String]) {
        self.secrets = secrets.filter { !$0.isEmpty }
    }

    /// Whether `text` contains one of the keys, as is or once percent-decoded.
    func appear(in text: String) -> Bool {
        let decoded = text.removingPercentEncoding ?? text
        return secrets.contains { text.contains($0) || decoded.contains($0) }
    }

    /// Whether `text` is a URL with a user name or password (`https://user:pass@host/`), which
    /// URLSession would send as an `Authorization` header to that host.
    static func hasUserInfo(_ text: String) -> Bool {
        guard let components = URLComponents(string: text) else { return false }
        return components.user != nil || components.password != nil
    }
}
