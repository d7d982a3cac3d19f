import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The shared part of a set of endpoints: one API's base URL, headers, query items, timeout, JSON coders
/// and error check. Each endpoint it makes keeps its own response type (the role of Moya's `TargetType`,
/// without one associated type pinning every endpoint to one response).
///
/// ```swift
/// let kakao = EndpointGroup(baseURL: URL(string: "https://dapi.kakao.com")!)
/// let search: Endpoint<ImageSearchResponse> = kakao.get("v2/search/image", query: ["query": "광해 포스터"])
/// ```
public struct EndpointGroup: Sendable {
    /// The base URL every endpoint's path is appended to.
    public var baseURL: URL
    /// Headers sent by every endpoint (an endpoint's own headers win). Empty by default.
    public var headers: [String: String]
    /// Query items sent by every endpoint, before its own (an API key, a locale). Empty by default.
    public var queryItems: [URLQueryItem]
    /// Each attempt's timeout. 60 seconds by default.
    public var timeout: Duration
    /// Decodes every endpoint's JSON. A plain `JSONDecoder()` by default.
    public var decoder: JSONDecoder
    /// Encodes JSON bodies. A plain `JSONEncoder()` by default.
    public var encoder: JSONEncoder
    /// Checks every successful response before decoding; throw to report an error sent inside a 2xx body.
    /// `nil` by default.
    public var validate: (@Sendable (Data, HTTPURLResponse) throws -> Void)?

    /// Creates a group.
    /// - Parameters:
    ///   - baseURL: The API's base URL.
    ///   - headers: Headers for every endpoint; empty by default.
    ///   - queryItems: Query items for every endpoint; empty by default.
    ///   - credentialHeaders: Headers for every endpoint that carry credentials (an API key, a
    ///     passphrase), added to `headers` and declared to ``Credentials`` with their values: never
    ///     logged, recorded or sent along a redirect to another origin, whatever their names. Empty by
    ///     default.
    ///   - credentialQueryItems: Query items for every endpoint that carry credentials (`?key=`,
    ///     `?serviceKey=`), added after `queryItems` and declared to ``Credentials`` with their values.
    ///     Empty by default.
    ///   - timeout: Each attempt's timeout; 60 seconds by default.
    ///   - decoder: The JSON decoder; `JSONDecoder()` by default.
    ///   - encoder: The JSON encoder; `JSONEncoder()` by default.
    ///   - validate: A check of 2xx bodies; `nil` by default.
    public init(
        baseURL: URL,
        headers: [String: String] = [:],
        queryItems: [URLQueryItem] = [],
        credentialHeaders: [String: String] = [:],
        credentialQueryItems: [URLQueryItem] = [],
        timeout: Duration = .seconds(60),
        decoder: JSONDecoder = JSONDecoder(),
        encoder: JSONEncoder = JSONEncoder(),
        validate: (@Sendable (Data, HTTPURLResponse) throws -> Void)? = nil
    ) {
        self.baseURL = baseURL
        self.headers = headers.merging(credentialHeaders) { _, credential in credential }
        self.queryItems = queryItems + credentialQueryItems
        self.timeout = timeout
        self.decoder = decoder
        self.encoder = encoder
        self.validate = validate
        Credentials.declare(headerNames: credentialHeaders.keys, queryNames: credentialQueryItems.map(\.name))
        for value in credentialHeaders.values { Credentials.declareHeaderValue(value) }
        for value in credentialQueryItems.compactMap(\.value) { Credentials.declare(value: value) }
    }

    /// An endpoint of this group that decodes its JSON body into `Response`.
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The path below ``baseURL``.
    ///   - query: The endpoint's own query items, after the group's; empty by default.
    ///   - headers: The endpoint's own headers; empty by default.
    ///   - body: The body; `nil` by default.
    ///   - response: The response type; inferred from the context when omitted.
    /// - Returns: The endpoint.
    public func endpoint<Response: Decodable & Sendable>(
        _ method: HTTPMethod,
        _ path: String,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: RequestBody? = nil,
        as response: Response.Type = Response.self
    ) -> Endpoint<Response> {
        var endpoint = Endpoint<Response>(
            baseURL: baseURL, path: path, method: method, queryItems: queryItems + query,
            headers: self.headers.merging(headers) { _, own in own }, body: body, timeout: timeout,
            decoder: decoder)
        endpoint.validate = validate
        return endpoint
    }

    /// A `GET` endpoint of this group.
    /// - Parameters:
    ///   - path: The path below ``baseURL``.
    ///   - query: Query parameters in a stable (sorted by name) order; empty by default.
    ///   - response: The response type; inferred when omitted.
    /// - Returns: The endpoint.
    public func get<Response: Decodable & Sendable>(
        _ path: String,
        query: [String: String] = [:],
        as response: Response.Type = Response.self
    ) -> Endpoint<Response> {
        endpoint(
            .get, path,
            query: query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) })
    }

    /// A `GET` endpoint of this group whose query items are sent as given: in this order, a name
    /// repeated as often as it appears (`?genre=drama&genre=comedy`).
    /// - Parameters:
    ///   - path: The path below ``baseURL``.
    ///   - query: The endpoint's own query items, after the group's.
    ///   - response: The response type; inferred when omitted.
    /// - Returns: The endpoint.
    public func get<Response: Decodable & Sendable>(
        _ path: String,
        query: [URLQueryItem],
        as response: Response.Type = Response.self
    ) -> Endpoint<Response> {
        endpoint(.get, path, query: query)
    }

    /// A `POST` endpoint of this group whose body is `body` encoded as JSON with ``encoder``.
    /// - Parameters:
    ///   - path: The path below ``baseURL``.
    ///   - body: The value to send.
    ///   - response: The response type; inferred when omitted.
    /// - Returns: The endpoint.
    public func post<Response: Decodable & Sendable, Body: Encodable & Sendable>(
        _ path: String,
        json body: Body,
        as response: Response.Type = Response.self
    ) -> Endpoint<Response> {
        endpoint(.post, path, body: .json(body, encoder: encoder))
    }
}
