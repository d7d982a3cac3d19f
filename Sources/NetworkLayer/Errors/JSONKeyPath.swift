import Foundation

/// A decoder's coding path with each key as the JSON body spells it: under a key strategy such as
/// `.convertFromSnakeCase` the decoder reports Swift's names (`stargazersCount`), while a person reading
/// the body looks for `stargazers_count`.
enum JSONKeyPath {
    /// `path` rendered like `items[1].stargazers_count`. Without `convertsSnakeCase`, the decoder's keys
    /// are the body's, as they are. With it, each key is matched against the body's objects along the way:
    /// as is when the object has it, else the object's key the strategy maps to it; a key the object lacks
    /// (a missing key) is written in snake case, as the decoder looked for it.
    static func render(_ path: [any CodingKey], in body: Data, convertsSnakeCase: Bool) -> String {
        var node =
            convertsSnakeCase
            ? try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) : nil
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
                let array = node as? [Any]
                node = array.flatMap { index >= 0 && index < $0.count ? $0[index] : nil }
                continue
            }
            var name = key.stringValue
            if convertsSnakeCase {
                let object = node as? [String: Any]
                name = object.map { spelling(of: key.stringValue, in: $0) } ?? toSnakeCase(key.stringValue)
                node = object?[name]
            }
            text += text.isEmpty ? name : "." + name
        }
        return text
    }

    /// How `object` spells the key a snake-case decoder calls `name`.
    private static func spelling(of name: String, in object: [String: Any]) -> String {
        if object[name] != nil { return name }
        if let match = object.keys.sorted().first(where: { fromSnakeCase($0) == name }) { return match }
        return toSnakeCase(name)
    }

    /// `key` as `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` converts it: `avatar_url` →
    /// `avatarUrl`, leading and trailing underscores kept.
    static func fromSnakeCase(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }),
            let last = key.lastIndex(where: { $0 != "_" })
        else { return key }
        let words = key[first...last].split(separator: "_")
        guard words.count > 1 else { return key }
        let joined =
            words[0].lowercased()
            + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
    }

    /// `name` in snake case: `avatarUrl` → `avatar_url`.
    static func toSnakeCase(_ name: String) -> String {
        var result = ""
        var previous: Character?
        for character in name {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
                result += "_"
            }
            result += character.lowercased()
            previous = character
        }
        return result
    }
}
