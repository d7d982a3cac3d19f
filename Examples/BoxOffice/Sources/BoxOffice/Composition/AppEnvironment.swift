import Foundation

/// The app's configuration, read from the environment.
public struct AppEnvironment: Sendable {
    /// `KOBIS_API_KEY`: live KOBIS when set.
    public var kobisKey: String?
    /// `KAKAO_REST_API_KEY`: live poster search when set.
    public var kakaoKey: String?
    /// `KOBIS_BASE_URL`, or the official one.
    public var kobisBaseURL: URL
    /// `KAKAO_BASE_URL`, or the official one.
    public var kakaoBaseURL: URL
    /// `BOXOFFICE_CACHE_DIR`, or the platform caches directory plus `boxoffice`.
    public var cacheDirectory: URL
    /// `--offline`: the demo data even when keys are set.
    public var forcesOffline: Bool
    /// `BOXOFFICE_TIMEOUT_SECONDS`: each request's timeout, or `nil` for the APIs' own (15 s for KOBIS,
    /// 10 s for Kakao).
    public var requestTimeout: Duration?

    /// Whether KOBIS is called for real.
    public var isKobisLive: Bool { !forcesOffline && kobisKey != nil }
    /// Whether Kakao is called for real.
    public var isKakaoLive: Bool { !forcesOffline && kakaoKey != nil }
    /// The keys set, which nothing printed, cached or sent to another host may carry.
    public var keys: [String] { [kobisKey, kakaoKey].compactMap { $0 } }

    /// The variables the app reads, for `--help`.
    public static let variables: [(name: String, meaning: String)] = [
        ("KOBIS_API_KEY", "KOBIS Open API key; live box office when set (otherwise the demo data)"),
        ("KAKAO_REST_API_KEY", "Kakao REST API key; live poster search when set (otherwise the demo data)"),
        ("KOBIS_BASE_URL", "default \(KobisAPI.defaultBaseURL.absoluteString)"),
        ("KAKAO_BASE_URL", "default \(KakaoAPI.defaultBaseURL.absoluteString)"),
        (
            "BOXOFFICE_CACHE_DIR",
            "cache folder for posters, charts and details; default the platform caches directory plus boxoffice"
        ),
        (
            "BOXOFFICE_TIMEOUT_SECONDS",
            "each request's timeout, 0.1 to 600; default 15 (KOBIS) and 10 (Kakao)"
        ),
        ("NO_COLOR", "when set to anything but empty, no colour even on a terminal"),
    ]

    /// Reads the configuration from `variables`.
    /// - Parameters:
    ///   - variables: The process environment.
    ///   - forcesOffline: Whether `--offline` was given.
    /// - Throws: ``ConfigurationError`` when a key breaks ``isKey(_:)``'s rule, a URL variable is not a
    ///   base URL (http or https, a host, no query, fragment or user name; no IPv6 literal on Linux), or
    ///   the timeout is out of range.
    public init(variables: [String: String], forcesOffline: Bool) throws(ConfigurationError) {
        // Values are trimmed of spaces *and* line breaks: `KEY=$(cat key.txt)` keeps a trailing newline,
        // which would otherwise be sent as `key=abc%0A` or drop the header.
        func nonEmpty(_ name: String) -> String? {
            guard let value = variables[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty
            else { return nil }
            return value
        }
        func key(_ name: String) throws(ConfigurationError) -> String? {
            guard let value = nonEmpty(name) else { return nil }
            // One rule for every key, checked before anything is sent: see `isKey`. Refused without
            // echoing the value.
            guard Self.isKey(value) else { throw ConfigurationError(variable: name, value: nil) }
            return value
        }
        func url(_ name: String, default fallback: URL) throws(ConfigurationError) -> URL {
            guard let text = nonEmpty(name) else { return fallback }
            guard let url = Self.baseURL(text) else {
                throw ConfigurationError(variable: name, value: Self.shownWithoutCredentials(text))
            }
            if Self.isIPv6Literal(url), !Self.acceptsIPv6Literals {
                throw ConfigurationError(
                    variable: name, value: text,
                    expected: "a host name or an IPv4 address (FoundationNetworking on Linux cannot "
                        + "reach an IPv6 literal such as [::1]; use localhost)")
            }
            return url
        }
        kobisKey = try key("KOBIS_API_KEY")
        kakaoKey = try key("KAKAO_REST_API_KEY")
        kobisBaseURL = try url("KOBIS_BASE_URL", default: KobisAPI.defaultBaseURL)
        kakaoBaseURL = try url("KAKAO_BASE_URL", default: KakaoAPI.defaultBaseURL)
        if let directory = nonEmpty("BOXOFFICE_CACHE_DIR") {
            cacheDirectory = URL(fileURLWithPath: directory, isDirectory: true)
        } else {
            let caches =
                FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
                ?? FileManager.default.temporaryDirectory
            cacheDirectory = caches.appendingPathComponent("boxoffice", isDirectory: true)
        }
        self.forcesOffline = forcesOffline
        if let text = nonEmpty("BOXOFFICE_TIMEOUT_SECONDS") {
            guard let seconds = Double(text), seconds.isFinite, (0.1...600).contains(seconds) else {
                throw ConfigurationError(
                    variable: "BOXOFFICE_TIMEOUT_SECONDS", value: text,
                    expected: "a number of seconds from 0.1 to 600")
            }
            requestTimeout = .milliseconds(Int64(seconds * 1000))
        }
    }
}

extension AppEnvironment {
    /// The longest key accepted: 256 characters (KOBIS and Kakao issue 32).
    public static let maximumKeyLength = 256

    /// The shortest key accepted: 4 characters, the shortest the app can hide in what it prints (a
    /// shorter one would be found inside ordinary words).
    public static let minimumKeyLength = 4

    /// Whether `value` can be an API key: ``minimumKeyLength`` to ``maximumKeyLength`` printable ASCII
    /// characters (`!` to `~`). Spaces, control characters (C0 and C1), other scripts (Hangul) and
    /// invisible characters (a zero-width space) are refused: no issued key has them, and one could split
    /// a header or hide a key from the scrubbing that keeps it out of everything printed.
    public static func isKey(_ value: String) -> Bool {
        (minimumKeyLength...maximumKeyLength).contains(value.utf8.count)
            && value.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// `text` as a base URL, or `nil`: an `http` or `https` URL with a host, and no user name or password,
    /// query or fragment (the API's path is appended to it, so a query would swallow the path).
    static func baseURL(_ text: String) -> URL? {
        guard let url = URL(string: text),
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
            let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil, components.query == nil,
            components.fragment == nil
        else { return nil }
        return url
    }

    /// `text` as an error may show it: a user name and password, a query and a fragment (where a key
    /// or password may sit) replaced by `REDACTED`. In text that is no URL, or whose `@` no host follows
    /// (`http:admin:hunter2@host/`, which `URLComponents` reads as a path), whatever stands between the
    /// scheme and the last `@` is `REDACTED`, and the text is cut before the first `?` or `#`.
    static func shownWithoutCredentials(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.host != nil || !text.contains("@")
        else { return redactedBeforeLastAt(text) }
        if components.user != nil || components.password != nil {
            components.percentEncodedUser = "REDACTED"
            components.percentEncodedPassword = nil
        }
        if components.query != nil { components.percentEncodedQuery = "REDACTED" }
        if components.fragment != nil { components.percentEncodedFragment = "REDACTED" }
        return components.string ?? "REDACTED"
    }

    /// `text` with what stands between its scheme (and slashes) and its last `@` replaced by `REDACTED`,
    /// cut before the first `?` or `#`.
    private static func redactedBeforeLastAt(_ text: String) -> String {
        var shown = text
        if let at = shown.lastIndex(of: "@") {
            var start = shown.startIndex
            if let colon = shown.firstIndex(of: ":"), colon < at { start = shown.index(after: colon) }
            while start < at, shown[start] == "/" { start = shown.index(after: start) }
            shown = String(shown[..<start]) + "REDACTED" + String(shown[at...])
        }
        guard let cut = shown.firstIndex(where: { "?#".contains($0) }) else { return shown }
        return String(shown[..<cut]) + "…"
    }

    /// Whether `url`'s host is an IPv6 literal, `[::1]`.
    static func isIPv6Literal(_ url: URL) -> Bool {
        url.host?.contains(":") ?? false
    }

    /// Whether this platform's URLSession reaches IPv6 literal hosts: Apple's does; FoundationNetworking
    /// on Linux fails them with `URLError.badURL` before connecting.
    #if canImport(FoundationNetworking)
        static let acceptsIPv6Literals = false
    #else
        static let acceptsIPv6Literals = true
    #endif
}

/// An environment variable that does not hold what the app needs.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The variable's name.
    public let variable: String
    /// Its value; `nil` for a key, whose value is never shown.
    public let value: String?
    /// What the variable should hold.
    public let expected: String

    /// Creates the error.
    /// - Parameters:
    ///   - variable: The variable's name.
    ///   - value: Its value, or `nil` when it must not be shown.
    ///   - expected: What it should hold; an http(s) base URL by default.
    public init(
        variable: String, value: String?,
        expected: String =
            "an http(s) URL without a query, fragment or user name, such as https://example.com/api"
    ) {
        self.variable = variable
        self.value = value
        self.expected = expected
    }

    /// One line naming the variable and the fix.
    public var description: String {
        guard let value else {
            let lengths = "\(AppEnvironment.minimumKeyLength) to \(AppEnvironment.maximumKeyLength)"
            return "\(variable) is not an API key: a key is \(lengths) printable ASCII characters, with no "
                + "spaces, control characters, other scripts or invisible characters. Set it to the key alone."
        }
        // A value from the environment is shown cut to 60 characters: enough to recognise, never a flood.
        let shown = value.count > 60 ? String(value.prefix(60)) + "…" : value
        return "\(variable)=\"\(shown)\" is not \(expected). Set it to \(expected), or unset it."
    }
}
