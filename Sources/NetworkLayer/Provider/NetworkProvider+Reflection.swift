import Foundation

/// What `print`, `dump` and a debugger show of a provider: the kinds of its parts and its options,
/// never a value a part holds. A session's configuration may send a credential header, a middleware may
/// keep a token in a property, and the provider's transport keeps its own copy of the configuration's
/// credential headers; a mirror of the stored properties would show them all.
extension NetworkProvider: CustomReflectable {
    /// The session's and middlewares' type names and the provider's options, without their contents.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "session": String(describing: type(of: session)),
                "middlewares": middlewares.map { String(describing: type(of: $0)) },
                "coalescesIdenticalGETs": configuration.coalescesIdenticalGETs,
                "maximumResponseSize": configuration.maximumResponseSize,
                "streamBufferLimit": configuration.streamBufferLimit,
                "downloadWindow": configuration.downloadWindow as Any,
                "credentialHeaders": configuration.credentialHeaders.sorted(),
                "credentialQueryItems": configuration.credentialQueryItems.sorted(),
                "httpCache": configuration.httpCache == nil ? "none" : "HTTPCache",
            ],
            displayStyle: .class)
    }
}

/// What `dump` and a debugger's `po` show of an error: its one-line, redacted description. The stored
/// values (a status failure's URL with its `?apiKey=`, its `Set-Cookie` header, its body) stay available
/// to code, and out of logs that dump errors.
extension NetworkError: CustomReflectable {
    /// The error's ``description``, as its only child.
    public var customMirror: Mirror {
        Mirror(self, children: ["description": description], displayStyle: .enum)
    }
}
