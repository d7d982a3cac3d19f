import Foundation
import NetworkLayer

/// Turns any error the app meets into one line a person can act on.
public enum ErrorMessage {
    /// The line for `error`.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let error as NetworkError:
            switch error {
            case .apiError(let underlying): return "\(underlying)"
            default: return error.description
            }
        default:
            return "\(error)"
        }
    }
}
