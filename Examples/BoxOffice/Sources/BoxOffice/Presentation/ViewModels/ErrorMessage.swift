import Foundation

/// Turns any error the app meets into one line a person can act on.
public enum ErrorMessage {
    /// The line for `error`: a ``BoxOfficeError``'s message, or the error's own description.
    public static func describe(_ error: any Error) -> String {
        "\(error)"
    }
}
