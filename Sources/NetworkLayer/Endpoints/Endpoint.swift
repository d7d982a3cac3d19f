import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP method.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The method's name, such as `"GET"`.
    public let rawValue: String

    /// Creates a method from its name.
    /// - Parameter rawValue: The name, upper-cased by convention.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a method from a string literal.
    /// - Parameter value: The name.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `GET`.
    public static let get: HTTPMethod = "GET"
    /// `POST`.
    public static let post: HTTPMethod = "POST"
    /// `PUT`.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`.
    public static let delete: HTTPMethod = "DELETE"
    /// `HEAD`.
    public static let head: HTTPMethod = "HEAD"

    /// Whether repeating the request has the same effect as sending it once (RFC 9110): GET, HEAD, PUT,
    /// DELETE, OPTIONS and TRACE. Only idempotent requests are retried by default.
    public var isIdempotent: Bool {
        ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(rawValue)
    }
}

/// The response type of an endpoint that returns no content (204, or 200 with an empty body). Nothing is
/// decoded, so an empty body is not an error.
public struct EmptyResponse: Decodable, Sendable, Equatable {
    /// Creates the empty response.
    public init() {}
}

/// One HTTP endpoint and the type of its response, checked at compile time.
///
/// Endpoints are usually made by an ``EndpointGroup``, which shares a base URL and defaults between the
/// endpoints of one API while each keeps its own response type:
/// ```swift
/// enum KobisAPI {
///     static let group = EndpointGroup(baseURL: kobisURL, credentialQueryItems: [URLQueryItem(name: "key", value: key)])
///     static func dailyBoxOffice(date: String) -> Endpoint<DailyBoxOfficeResponse> {
///         group.get("boxoffice/searchDailyBoxOfficeList.json", query: ["targetDt": date])
///     }
///     static func movieInfo(code: String) -> Endpoint<MovieInfoResponse> {
///         group.get("movie/searchMovieInfo.json", query: ["movieCd": code])
///     }
/// }
/// let daily = try await provider.send(KobisAPI.dailyBoxOffice(date: "20261121"))
/// ```
public struct Endpoint<Response: Sendable>: Sendable {
    /// The API's base URL; ``path`` is appended to it.
    public var baseURL: URL
    /// The path below ``baseURL``. A leading or trailing slash is not doubled.
    public var path: String
    /// The method. `GET` by default.
    public var method: HTTPMethod
    /// Query items, percent-encoded as UTF-8 (RFC 3986: `+`, `&`, `=` and spaces are escaped). Empty by
    /// default.
    public var queryItems: [URLQueryItem]
    /// Header fields. Empty by default.
    public var headers: [String: String]
    /// The body, if any; it also sets `Content-Type`. `nil` by default.
    public var body: RequestBody?
    /// The idle timeout: how long an attempt may go without receiving bytes before the provider fails it
    /// with ``NetworkError/timedOut(_:)``. 60 seconds by default. A stream or a download that keeps
    /// receiving bytes never hits it; a whole-body request (``NetworkProvider/send(_:)``) reports no bytes
    /// until its end, so for it this bounds the whole attempt. The provider enforces it itself (on Linux
    /// URLSession truncates sub-second timeouts), except for a download task on Apple platforms, whose
    /// stall URLSession's own timeout of this length detects, leaving resume data.
    public var timeout: Duration
    /// The total deadline: the most one attempt may take, body included, however steadily bytes arrive.
    /// Each attempt (a retry, a resumed download) has its own. `nil` (none) by default.
    public var deadline: Duration?
    /// The status codes that count as success: any ``StatusCodeSet`` (`200...299`, `[200, 304]`, a `Set`).
    /// `200...299` by default.
    public var acceptableStatusCodes: any StatusCodeSet
    /// Whether the request may be retried after a transient failure. Unless set, it follows ``method``
    /// (``HTTPMethod/isIdempotent``), also after the method changes; a value set (here or in `init`)
    /// stays.
    public var isIdempotent: Bool {
        get { idempotence ?? method.isIdempotent }
        set { idempotence = newValue }
    }
    /// The largest whole body this endpoint accepts, in bytes, or `nil` (the default) for the provider's
    /// ``NetworkProvider/Configuration/maximumResponseSize``. A body over it fails with
    /// ``NetworkError/responseTooLarge(limit:)``, checked against `Content-Length` before the body is read
    /// and against the bytes received (after decompression) while it arrives. It applies to a status the
    /// endpoint accepts; a refused status's body is cut to its first MiB (at most this limit) and the
    /// status reported. Streams and downloads on a `URLSession`, which do not hold the body, are not
    /// limited by it (with a custom session, which returns bodies whole, a stream's body is).
    public var maximumResponseSize: Int?
    /// Checks a successful response before decoding, for APIs that report errors inside a 2xx body
    /// (KOBIS sends `faultInfo` with HTTP 200). Throw to fail the request with
    /// ``NetworkError/apiError(_:)``. `nil` by default.
    public var validate: (@Sendable (Data, HTTPURLResponse) throws -> Void)?
    /// How this request uses the provider's ``HTTPCache`` (``NetworkProvider/Configuration/httpCache``);
    /// ``CachePolicy/useProtocol`` by default. Without a cache it changes nothing.
    public var cachePolicy = CachePolicy.useProtocol
    /// Turns the body into the response.
    public var decode: @Sendable (Data, HTTPURLResponse) throws -> Response
    /// ``isIdempotent`` as set, or `nil` to follow the method.
    private var idempotence: Bool?
    /// Whether ``decode`` is a JSON decoder's with `.convertFromSnakeCase`, so a decoding failure renders
    /// its coding path with the body's keys.
    var convertsSnakeCaseKeys = false

    /// Creates an endpoint with an explicit decoding closure.
    /// - Parameters:
    ///   - baseURL: The API's base URL.
    ///   - path: The path below it.
    ///   - method: `GET` by default.
    ///   - queryItems: Empty by default.
    ///   - headers: Empty by default.
    ///   - body: `nil` by default.
    ///   - timeout: 60 seconds by default.
    ///   - acceptableStatusCodes: `200...299` by default.
    ///   - isIdempotent: `nil` (the default) to derive it from the method.
    ///   - validate: A check of 2xx bodies; `nil` by default.
    ///   - decode: Makes the response from the body and the HTTP response.
    public init(
        baseURL: URL,
        path: String,
        method: HTTPMethod = .get,
        queryItems: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: RequestBody? = nil,
        timeout: Duration = .seconds(60),
        acceptableStatusCodes: any StatusCodeSet = 200...299,
        isIdempotent: Bool? = nil,
        validate: (@Sendable (Data, HTTPURLResponse) throws -> Void)? = nil,
        decode: @escaping @Sendable (Data, HTTPURLResponse) throws -> Response
    ) {
        self.baseURL = baseURL
        self.path = path
        self.method = method
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.acceptableStatusCodes = acceptableStatusCodes
        self.idempotence = isIdempotent
        self.validate = validate
        self.decode = decode
    }

    /// URLSession's own timeout for a request whose provider-enforced timeout is `timeout`: one second
    /// later, so the provider's fires first, and at most a week (FoundationNetworking multiplies it into
    /// an `Int` of milliseconds and traps on overflow).
    static func transportTimeout(for timeout: Duration) -> TimeInterval {
        // Compared before `components`, which traps past `Int64.max` seconds either way.
        guard timeout > .zero else { return 1 }
        guard timeout < .seconds(maximumTransportTimeout) else {
            return TimeInterval(maximumTransportTimeout)
        }
        return TimeInterval(timeout.components.seconds + 1)
    }

    static var maximumTransportTimeout: Int64 { 7 * 86_400 }

    /// A short name for logs and errors: the method and the path.
    public var name: String {
        "\(method.rawValue) \(path)"
    }

    /// The `URLRequest` this endpoint sends.
    /// - Throws: ``NetworkError/invalidRequest(_:)`` when the URL cannot be formed or the body cannot be
    ///   encoded.
    public func makeRequest() throws(NetworkError) -> URLRequest {
        guard let url = RequestURL.make(baseURL: baseURL, path: path, queryItems: queryItems) else {
            throw .invalidRequest(.url(baseURL: baseURL.absoluteString, path: path))
        }
        var request = URLRequest(url: url)
        // A new request's method is already GET; setting it is not free (FoundationNetworking compares
        // it with each known method, case-insensitively, through NSString: about 4,300 instructions, a
        // twelfth of a request's own work).
        if method.rawValue != "GET" { request.httpMethod = method.rawValue }
        request.timeoutInterval = Self.transportTimeout(for: timeout)
        if let body {
            do {
                request.httpBody = try body.makeData()
            } catch {
                throw .invalidRequest(.body(endpoint: name, underlying: error))
            }
            request.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
        }
        for (field, value) in headers {
            request.setValue(value, forHTTPHeaderField: field)
        }
        return request
    }
}

extension Endpoint where Response: Decodable {
    /// Creates an endpoint whose JSON body decodes into `Response`; an ``EmptyResponse`` endpoint decodes
    /// nothing, so an empty body is fine.
    /// - Parameters:
    ///   - baseURL: The API's base URL.
    ///   - path: The path below it.
    ///   - method: `GET` by default.
    ///   - queryItems: Empty by default.
    ///   - headers: Empty by default.
    ///   - body: `nil` by default.
    ///   - timeout: 60 seconds by default.
    ///   - acceptableStatusCodes: `200...299` by default.
    ///   - decoder: A plain `JSONDecoder()` by default.
    public init(
        baseURL: URL,
        path: String,
        method: HTTPMethod = .get,
        queryItems: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: RequestBody? = nil,
        timeout: Duration = .seconds(60),
        acceptableStatusCodes: any StatusCodeSet = 200...299,
        decoder: JSONDecoder = JSONDecoder()
    ) {
        self.init(
            baseURL: baseURL, path: path, method: method, queryItems: queryItems, headers: headers,
            body: body,
            timeout: timeout, acceptableStatusCodes: acceptableStatusCodes,
            decode: { data, _ in try JSONDecoding.decode(Response.self, from: data, using: decoder) })
        // A failure then names the body's keys as the body spells them (NetworkError.DecodingFailure).
        if case .convertFromSnakeCase = decoder.keyDecodingStrategy { convertsSnakeCaseKeys = true }
    }
}

extension Endpoint where Response == Data {
    /// Creates a `GET` endpoint for one absolute URL, returning the raw body: an image, a file. The URL is
    /// used exactly as given (a trailing `/` and the query are kept).
    ///
    /// ```swift
    /// var poster = Endpoint<Data>(url: imageURL)
    /// poster.maximumResponseSize = 10_000_000
    /// let bytes = try await provider.send(poster)
    /// ```
    /// - Parameters:
    ///   - url: The whole URL.
    ///   - headers: Empty by default.
    ///   - timeout: 60 seconds by default.
    public init(url: URL, headers: [String: String] = [:], timeout: Duration = .seconds(60)) {
        self.init(baseURL: url, path: "", headers: headers, timeout: timeout)
    }

    /// Creates an endpoint whose response is the raw body (an image, a file), returned as it arrived:
    /// nothing is decoded.
    /// - Parameters:
    ///   - baseURL: The base URL.
    ///   - path: The path below it; empty to use `baseURL` as it is.
    ///   - method: `GET` by default.
    ///   - queryItems: Empty by default.
    ///   - headers: Empty by default.
    ///   - body: `nil` by default.
    ///   - timeout: 60 seconds by default.
    ///   - acceptableStatusCodes: `200...299` by default.
    public init(
        baseURL: URL,
        path: String = "",
        method: HTTPMethod = .get,
        queryItems: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: RequestBody? = nil,
        timeout: Duration = .seconds(60),
        acceptableStatusCodes: any StatusCodeSet = 200...299
    ) {
        self.init(
            baseURL: baseURL, path: path, method: method, queryItems: queryItems, headers: headers,
            body: body, timeout: timeout, acceptableStatusCodes: acceptableStatusCodes,
            decode: { data, _ in data })
    }
}

/// Decoding that knows about ``EmptyResponse`` (nothing to decode) and `Data` (the raw body, even when
/// an endpoint typed `Data` is made by a JSON-decoding initializer such as ``EndpointGroup/get(_:query:as:)``).
enum JSONDecoding {
    static func decode<Response: Decodable>(
        _ type: Response.Type, from data: Data, using decoder: JSONDecoder
    ) throws -> Response {
        if let empty = EmptyResponse() as? Response { return empty }
        if Response.self == Data.self, let raw = data as? Response { return raw }
        return try decoder.decode(Response.self, from: data)
    }
}
