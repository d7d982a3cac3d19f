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
        ("NO_COLOR", "when set, no colour even on a terminal"),
    ]

    /// Reads the configuration from `variables`.
    /// - Parameters:
    ///   - variables: The process environment.
    ///   - forcesOffline: Whether `--offline` was given.
    /// - Throws: ``ConfigurationError`` when a URL variable is not an http(s) URL.
    public init(variables: [String: String], forcesOffline: Bool) throws(ConfigurationError) {
        func nonEmpty(_ name: String) -> String? {
            guard let value = variables[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
                return nil
            }
            return value
        }
        func url(_ name: String, default fallback: URL) throws(ConfigurationError) -> URL {
            guard let text = nonEmpty(name) else { return fallback }
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil
            else { throw ConfigurationError(variable: name, value: text) }
            return url
        }
        kobisKey = nonEmpty("KOBIS_API_KEY")
        kakaoKey = nonEmpty("KAKAO_REST_API_KEY")
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
    }
}

/// An environment variable that does not hold what the app needs.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The variable's name.
    public let variable: String
    /// Its value.
    public let value: String

    /// One line naming the variable and the fix.
    public var description: String {
        "\(variable)=\"\(value)\" is not an http(s) URL. Set it to a URL such as https://example.com, or unset it."
    }
}
