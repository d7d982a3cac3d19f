import BoxOffice
import Foundation

/// Shows an image inside the terminal, for terminals that have an inline image protocol.
///
/// Detected from the environment, and only when standard output is a terminal: kitty's graphics
/// protocol (kitty, and Ghostty, which implements it) for PNG images, and iTerm2's (iTerm2, WezTerm)
/// for PNG, JPEG, GIF and WebP. Inside tmux or screen, which would swallow or garble the sequences,
/// nothing is sent. The image bytes are base64-encoded, so nothing from a server reaches the terminal
/// as text.
enum InlineImage: Equatable {
    /// kitty's graphics protocol.
    case kitty
    /// iTerm2's inline images.
    case iTerm2

    /// The protocol the terminal speaks, or `nil` for none (or when standard output is not a terminal).
    /// - Parameters:
    ///   - environment: The process environment.
    ///   - isTerminal: Whether standard output is a terminal.
    static func detect(environment: [String: String], isTerminal: Bool) -> InlineImage? {
        guard isTerminal, !Style.isDumb(environment: environment) else { return nil }
        let term = environment["TERM"] ?? ""
        // Multiplexers pass such sequences through only when configured to; never risk a garbled screen.
        if !(environment["TMUX"] ?? "").isEmpty || term.hasPrefix("screen") || term.hasPrefix("tmux") {
            return nil
        }
        let program = environment["TERM_PROGRAM"] ?? ""
        if !(environment["KITTY_WINDOW_ID"] ?? "").isEmpty || term == "xterm-kitty" || program == "ghostty" {
            return .kitty
        }
        if program == "iTerm.app" || program == "WezTerm" || environment["LC_TERMINAL"] == "iTerm2" {
            return .iTerm2
        }
        return nil
    }

    /// The escape sequence that draws `image` `columns` cells wide, or `nil` when this protocol cannot
    /// show its format (kitty is sent PNG only).
    func sequence(for image: Data, columns: Int) -> String? {
        let encoded = image.base64EncodedString()
        switch self {
        case .iTerm2:
            return "\u{1B}]1337;File=inline=1;size=\(image.count);width=\(columns);preserveAspectRatio=1:"
                + encoded + "\u{07}"
        case .kitty:
            guard Poster.mediaType(of: image) == "image/png" else { return nil }
            // At most 4096 base64 bytes per escape; `m=1` says more follow. `q=2` asks the terminal not
            // to answer, so no reply lands in the shell's input.
            var chunks: [Substring] = []
            var start = encoded.startIndex
            while start < encoded.endIndex {
                let end =
                    encoded.index(start, offsetBy: 4096, limitedBy: encoded.endIndex) ?? encoded.endIndex
                chunks.append(encoded[start..<end])
                start = end
            }
            var sequence = ""
            for (index, chunk) in chunks.enumerated() {
                let more = index < chunks.count - 1 ? 1 : 0
                let control = index == 0 ? "a=T,f=100,q=2,c=\(columns),m=\(more)" : "m=\(more)"
                sequence += "\u{1B}_G\(control);\(chunk)\u{1B}\\"
            }
            return sequence
        }
    }
}
