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

    /// The variables the app reads, for `--help`.
    public static let variables: [(name: String, meaning: String)] = [
        ("KOBIS_API_KEY", "KOBIS Open API key; live box office when set (otherwise the demo data)"),
        ("KAKAO_REST_API_KEY", "Kakao REST API key; live poster search when set (otherwise the demo data)"),
        ("KOBIS_BASE_URL", "default \(KobisAPI.defaultBaseURL.absoluteString)"),
        ("KAKAO_BASE_URL", "default \(KakaoAPI.defaultBaseURL.absoluteString)"),
        ("BOXOFFICE_CACHE_DIR", "poster cache folder; default the platform caches directory plus boxoffice"),
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
    /// - Throws: ``ConfigurationError`` when a URL variable is not an http(s) URL.
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
            // A key is one printable token: a control character or a space inside it is a mistake, and
            // one that could split a header. Refuse it without echoing the value.
            guard
                !value.unicodeScalars.contains(where: {
                    $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F
                })
            else { throw ConfigurationError(variable: name, value: nil) }
            return value
        }
        func url(_ name: String, default fallback: URL) throws(ConfigurationError) -> URL {
            guard let text = nonEmpty(name) else { return fallback }
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil
            else { throw ConfigurationError(variable: name, value: text) }
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
    ///   - expected: What it should hold; an http(s) URL by default.
    public init(
        variable: String, value: String?, expected: String = "an http(s) URL such as https://example.com"
    ) {
        self.variable = variable
        self.value = value
        self.expected = expected
    }

    /// One line naming the variable and the fix.
    public var description: String {
        guard let value else {
            return "\(variable) contains spaces or control characters inside it, which no API key has. "
                + "Set it to the key alone."
        }
        // A value from the environment is shown cut to 60 characters: enough to recognise, never a flood.
        let shown = value.count > 60 ? String(value.prefix(60)) + "…" : value
        return "\(variable)=\"\(shown)\" is not \(expected). Set it to \(expected), or unset it."
    }
}
