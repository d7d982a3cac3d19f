#!/usr/bin/env python3
"""Fails when Swift code uses an API or a language feature newer than the package promises, unguarded.

Linux ignores Apple availability and this machine's compiler is newer than the package's minimum, so
neither `swift build` here nor CI can see that `withObservationTracking` (iOS 17 / macOS 14) breaks the
build for an app targeting iOS 16, or that `weak let` (Swift 6.2) breaks Xcode 16.3. This check reads
the minimums from Package.swift (`platforms:` and the tools version) and looks, in every Swift file
given, for the uses listed in RULES below. A use is accepted inside:
  - a declaration marked `@available(iOS X, macOS Y, tvOS Z, watchOS W, *)` whose versions reach the
    rule's (on every platform the package supports), or an `if #available(...)` block, or what follows a
    `guard #available(...)` in the same scope (for API rules);
  - an `#if compiler(>=X)` branch reaching the rule's Swift version (for language rules).
Comments and string literals are ignored. It is a lexical check, not a compiler: it knows the names in
RULES and nothing else, so a new API of this kind gets a rule when it is first used.

Usage: check-availability.py [--self-test] [paths...]   (default paths: Sources Tests Examples)
"""
import os
import re
import sys

PLATFORMS = ("iOS", "macOS", "tvOS", "watchOS")

OBSERVATION = {"iOS": (17,), "macOS": (14,), "tvOS": (17,), "watchOS": (10,)}
OS_15 = {"iOS": (18,), "macOS": (15,), "tvOS": (18,), "watchOS": (11,)}
OS_26 = {"iOS": (26,), "macOS": (26,), "tvOS": (26,), "watchOS": (26,)}

# (pattern, what, platform versions needed) — Apple API newer than iOS 16 / macOS 13.
API_RULES = [
    (r"\bwithObservationTracking\b", "withObservationTracking", OBSERVATION),
    (r"\bObservationRegistrar\b", "ObservationRegistrar", OBSERVATION),
    (r"@Observable\b", "the @Observable macro", OBSERVATION),
    (r"@ObservationIgnored\b|@ObservationTracked\b", "Observation's macros", OBSERVATION),
    (r"\bObservation\.Observable\b", "Observation.Observable", OBSERVATION),
    (r"\bTrackedValue\b", "Binding's TrackedValue", OBSERVATION),
    (r"\.tracked\(\)", "Binding's tracked()", OBSERVATION),
    (r"\bObservations\s*[({<]", "Observations", OS_26),
    (r"\bwith(Throwing)?DiscardingTaskGroup\b", "discarding task groups", OBSERVATION),
    (r"\bMutex\s*[<(]|\bAtomic\s*<", "Synchronization's Mutex and Atomic", OS_15),
    (r"\b(U)?Int128\b", "Int128", OS_15),
    (r"\bString\(validating:", "String(validating:)", OS_15),
    (r"\bany\s+AsyncSequence<|\bsome\s+AsyncSequence<", "AsyncSequence's primary associated types", OS_15),
    (r"\b(Raw|Mutable|UTF8)?Span\b|\.span\b|\bInlineArray\b", "Span and InlineArray", OS_26),
    (r"\bTask\.immediate\b|\bTask\(name:", "Task.immediate and named tasks", OS_26),
]

# (pattern, what, Swift version needed) — language and Swift Testing features newer than the tools version.
LANGUAGE_RULES = [
    (r"\bweak\s+let\b", "weak let", (6, 2)),
    (r"@concurrent\b", "@concurrent", (6, 2)),
    (r"\bnonisolated\s*\(\s*nonsending\s*\)", "nonisolated(nonsending)", (6, 2)),
    (r"\bisolated\s+deinit\b", "isolated deinit", (6, 2)),
    (r"\bTask\.immediate\b", "Task.immediate", (6, 2)),
    (r"\bInlineArray\b|\[\s*\d+\s+of\s+\w", "InlineArray", (6, 2)),
    (r"\bfunc\s+`[^`]*\s[^`]*`", "raw identifiers (function names with spaces)", (6, 2)),
    (r"@abi\b", "@abi", (6, 2)),
    (r"processExitsWith\s*:", "exit tests", (6, 2)),
    (r"\bAttachment\.record\b", "test attachments", (6, 2)),
    (r":\s*@MainActor\s+\w+\s*\{", "isolated conformances", (6, 2)),
    (r"\bTest\.cancel\(|\bseverity\s*:\s*\.warning", "Swift Testing 6.3 API", (6, 3)),
]


def version(text):
    return tuple(int(part) for part in text.split("."))


def package_minimums(manifest):
    tools = version(re.search(r"swift-tools-version:\s*([\d.]+)", manifest).group(1))
    platforms = {}
    for name, number in re.findall(r"\.(iOS|macOS|tvOS|watchOS)\(\.v(\d+(?:_\d+)?)\)", manifest):
        platforms[name] = version(number.replace("_", "."))
    return tools, platforms


def blank_comments_and_strings(source):
    """The source with comments and string literals replaced by spaces, line breaks kept."""
    out, i, n = [], 0, len(source)

    def blank(text):
        return re.sub(r"[^\n]", " ", text)

    while i < n:
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
            out.append(blank(source[i:end])); i = end
        elif source.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if source.startswith("/*", j): depth += 1; j += 2
                elif source.startswith("*/", j): depth -= 1; j += 2
                else: j += 1
            out.append(blank(source[i:j])); i = j
        elif re.match(r'#*"', source[i:i + 8]):
            hashes = len(re.match(r"#*", source[i:]).group(0))
            multi = source.startswith('"""', i + hashes)
            quote = '"""' if multi else '"'
            closing = quote + "#" * hashes
            j = i + hashes + len(quote)
            kept = []  # (start, end) of interpolated code, which is code and is judged
            escape = "\\" + "#" * hashes
            while j < n:
                if source.startswith(escape + "(", j):
                    depth, k = 1, j + len(escape) + 1
                    while k < n and depth:
                        depth += {"(": 1, ")": -1}.get(source[k], 0)
                        k += 1
                    kept.append((j + len(escape) + 1, k - 1)); j = k; continue
                if hashes == 0 and source[j] == "\\": j += 2; continue
                if source.startswith(closing, j): j += len(closing); break
                if not multi and source[j] == "\n": break
                j += 1
            text, cursor = [], i
            for begin, finish in kept:
                text.append(blank(source[cursor:begin])); text.append(source[begin:finish]); cursor = finish
            text.append(blank(source[cursor:j]))
            out.append("".join(text)); i = j
        else:
            out.append(source[i]); i += 1
    return "".join(out)


def merge(outer, inner):
    merged = dict(outer)
    for platform, number in inner.items():
        merged[platform] = max(merged.get(platform, (0,)), number)
    return merged


def parse_available(text):
    found = {}
    for platform, number in re.findall(r"\b(iOS|macOS|tvOS|watchOS)\s+([\d.]+)", text):
        found[platform] = version(number)
    return found


def violations(path, source, tools, minimums):
    """Yields (line number, message) for each unguarded use in `source`."""
    lines = blank_comments_and_strings(source).split("\n")
    # Each scope: [availability dict, compiler version]; the file scope has the package's minimums.
    scopes = [[dict(minimums), tools]]
    pending_available = None        # an @available attribute waiting for its declaration's `{`
    pending_if_available = None     # an `if #available` waiting for its `{`
    in_declaration = False          # the attributed declaration has begun (a decl keyword was seen)
    parens = 0                      # open parentheses of that declaration
    directives = []                 # stack of compiler versions from #if / #else
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith("#if"):
            match = re.search(r"(?:compiler|swift)\(>=\s*([\d.]+)\)", stripped)
            directives.append(version(match.group(1)) if match else None)
            continue
        if stripped.startswith("#else") or stripped.startswith("#elseif"):
            if directives: directives[-1] = None
            continue
        if stripped.startswith("#endif"):
            if directives: directives.pop()
            continue
        if re.match(r"(@\w+\s+)*import\b", stripped):
            continue  # importing a newer type by name needs no availability
        # A line is judged piece by piece: each run of text between braces with the scope in force there,
        # so `if #available(…) { a() } else { b() }` judges `b()` outside the guard.
        for piece in re.split(r"([{}])", line):
            if piece == "{":
                opened = merge(scopes[-1][0], pending_available or {})
                opened = merge(opened, pending_if_available or {})
                scopes.append([opened, scopes[-1][1]])
                pending_available = pending_if_available = None
                in_declaration, parens = False, 0
                continue
            if piece == "}":
                if len(scopes) > 1:
                    scopes.pop()
                pending_if_available = None
                continue
            compiler = scopes[-1][1]
            for needed in directives:
                if needed: compiler = max(compiler, needed)
            for match in re.finditer(r"@available\s*\(([^)]*)\)", piece):
                if "unavailable" not in match.group(1) and "deprecated" not in match.group(1):
                    pending_available = merge(pending_available or {}, parse_available(match.group(1)))
            guard = re.search(r"\b(if|guard)\s+#available\s*\(([^)]*)\)", piece)
            if guard and guard.group(1) == "guard":
                scopes[-1][0] = merge(scopes[-1][0], parse_available(guard.group(2)))
            elif guard:
                pending_if_available = parse_available(guard.group(2))
            # The piece's own code is judged with what is in force once its declaration's attribute applies.
            in_force = merge(scopes[-1][0], pending_available or {})
            in_force = merge(in_force, pending_if_available or {})
            for pattern, what, needed in API_RULES:
                if re.search(pattern, piece) and not all(
                    in_force.get(platform, (0,)) >= needed[platform] for platform in PLATFORMS
                ):
                    yield number, f"{what} needs {', '.join(f'{p} {needed[p][0]}' for p in PLATFORMS)}: " \
                        "mark the declaration @available or guard it with #available"
            for pattern, what, needed in LANGUAGE_RULES:
                if re.search(pattern, piece) and compiler < needed:
                    yield number, f"{what} needs Swift {'.'.join(map(str, needed))}; the package's minimum is " \
                        f"{'.'.join(map(str, tools))}: guard it with #if compiler(>={'.'.join(map(str, needed))})"
            if pending_available is not None:
                if re.search(r"\b(func|init|subscript|let|var|case|typealias|associatedtype|class|struct|enum|"
                             r"actor|protocol|extension|macro)\b", piece):
                    in_declaration = True
                if in_declaration:
                    parens += piece.count("(") - piece.count(")")
        # An attributed declaration without a body (a stored property, a protocol requirement) ends at the
        # end of its line once its parentheses close and nothing continues it: its attribute covers no more.
        continues = line.rstrip().endswith(("(", ",", "=", "->", ":", "&", "where")) or line.rstrip().endswith("{")
        if pending_available is not None and in_declaration and parens <= 0 and not continues:
            pending_available = None
            in_declaration, parens = False, 0


def check(paths, manifest_path="Package.swift"):
    with open(manifest_path, encoding="utf-8") as manifest:
        tools, minimums = package_minimums(manifest.read())
    failures = 0
    for root in paths:
        for directory, folders, files in os.walk(root):
            folders[:] = sorted(f for f in folders if not f.startswith(".build") and f != ".git")
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as file:
                    for number, message in violations(path, file.read(), tools, minimums):
                        print(f"{path}:{number}: {message}")
                        failures += 1
    return failures


SELF_TEST_BAD = '''
import Observation
@MainActor @Observable final class Model { var x = 0 }
func track() { withObservationTracking { } onChange: { } }
func child() { weak let c = Object() }
protocol P {
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    func a()
}
func c() { withObservationTracking { } onChange: { } }
func d() { if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) { e() } else { withObservationTracking { } onChange: { } } }
let s = "\\(withObservationTracking { } onChange: { })"
'''

SELF_TEST_GOOD = '''
import Observation
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
@MainActor @Observable final class Model { var x = 0 }
// withObservationTracking in a comment, and "withObservationTracking" in a string
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
func track() {
    withObservationTracking { } onChange: { }
}
func later() {
    if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) { withObservationTracking { } onChange: { } }
    guard #available(iOS 18, macOS 15, tvOS 18, watchOS 11, *) else { return }
    let m = Mutex(0)
}
#if compiler(>=6.2)
    func child() { weak let c = Object() }
#endif
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
public func tracked(
    value: Int
) -> TrackedValue<Int> {
    withObservationTracking { } onChange: { }
}
let text = "withObservationTracking \\(value) in a string"
'''


def self_test():
    tools, minimums = (6, 1), {"iOS": (16,), "macOS": (13,), "tvOS": (16,), "watchOS": (9,)}
    bad = list(violations("bad.swift", SELF_TEST_BAD, tools, minimums))
    good = list(violations("good.swift", SELF_TEST_GOOD, tools, minimums))
    assert [line for line, _ in bad] == [3, 4, 5, 10, 11, 12], bad
    assert good == [], good
    print("self-test: 6 unguarded uses found, 0 false reports on guarded ones")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments[:1] == ["--self-test"]:
        self_test()
        arguments = arguments[1:]
    found = check(arguments or ["Sources", "Tests", "Examples"])
    if found:
        print(f"{found} use(s) newer than the package's minimums, unguarded (see Docs/ApplePlatforms.md)")
        sys.exit(1)
    print("every use of newer API and language features is guarded")
