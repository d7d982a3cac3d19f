import Foundation

/// A decoder's coding path with each key as the JSON body spells it: under a key strategy such as
/// `.convertFromSnakeCase` the decoder reports Swift's names (`stargazersCount`), while a person reading
/// the body looks for `stargazers_count`.
enum JSONKeyPath {
    /// `path` rendered like `items[1].stargazers_count`, each key matched against the body's objects
    /// along the way: as is when the object has it, else the object's key the snake-case strategy maps
    /// to it; a key the object lacks (a missing key) is written in snake case when this object or one
    /// before it on the path has snake-case keys.
    static func render(_ path: [any CodingKey], in body: Data) -> String {
        var node = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        var text = ""
        var snakeCase = false
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
                let array = node as? [Any]
                node = array.flatMap { index >= 0 && index < $0.count ? $0[index] : nil }
                continue
            }
            let object = node as? [String: Any]
            let name =
                object.map { spelling(of: key.stringValue, in: $0, snakeCase: &snakeCase) } ?? key.stringValue
            text += text.isEmpty ? name : "." + name
            node = object?[name]
        }
        return text
    }

    /// How `object` spells the key a decoder calls `name`; `snakeCase` says whether the path so far was
    /// spelled in snake case, and is set when this key is.
    private static func spelling(of name: String, in object: [String: Any], snakeCase: inout Bool) -> String {
        if object.keys.contains(where: { $0.contains("_") }) { snakeCase = true }
        if object[name] != nil { return name }
        if let match = object.keys.sorted().first(where: { fromSnakeCase($0) == name }) {
            snakeCase = true
            return match
        }
        return snakeCase ? toSnakeCase(name) : name
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
