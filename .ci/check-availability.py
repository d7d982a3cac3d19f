#!/usr/bin/env python3
"""Fails when Swift code uses an API or a language feature newer than the package promises, unguarded.

Linux ignores Apple availability and this machine's compiler is newer than the package's minimum, so
neither `swift build` here nor CI can see that `withObservationTracking` (iOS 17 / macOS 14) breaks the
build for an app targeting iOS 16, or that `weak let` (Swift 6.2) breaks Xcode 16.3. This check reads
the minimums from Package.swift (`platforms:` and the tools version), then:
  - APIs: every symbol each file references, from the build's index stores, against the availability
    the toolchain's module interfaces declare (availability_index.py: no list of APIs to keep);
  - language features: the uses listed in LANGUAGE_RULES below, lexically.
A use is accepted inside:
  - a declaration marked `@available(iOS X, macOS Y, tvOS Z, watchOS W, *)` whose versions reach the
    symbol's (on every platform the package supports), or an `if #available(...)` block, or what follows a
    `guard #available(...)` in the same scope (for APIs);
  - an `#if compiler(>=X)` branch reaching the rule's Swift version (for language rules).
Comments and string literals are ignored.

Usage: check-availability.py [--self-test] [--index-store STORE]... [--modules DIR]... [paths...]
  (default paths: Sources Tests Examples; without --index-store only the language rules run)
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import availability_index  # noqa: E402

PLATFORMS = ("iOS", "macOS", "tvOS", "watchOS")

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


def walk(source, tools, minimums):
    """Yields (line number, column where the piece starts, piece, availability in force, compiler version)
    for each run of code between braces, with the scope in force there: the package's minimums, raised by
    an enclosing `@available` declaration, `if #available` block or `guard #available`, and `#if compiler`."""
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
        following = next((later.strip() for later in lines[number:] if later.strip()), "")
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
        column = 1
        for piece in re.split(r"([{}])", line):
            start, column = column, column + len(piece)
            if piece == "{" and pending_available is not None and in_declaration and parens > 0:
                # A closure inside the declaration's parentheses (a default argument): not its body.
                scopes.append([merge(scopes[-1][0], pending_available), scopes[-1][1]])
                continue
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
            yield number, start, piece, in_force, compiler
            if pending_available is not None:
                if re.search(r"\b(func|init|subscript|let|var|case|typealias|associatedtype|class|struct|enum|"
                             r"actor|protocol|extension|macro)\b", piece):
                    in_declaration = True
                if in_declaration:
                    parens += piece.count("(") - piece.count(")")
        # An attributed declaration without a body (a stored property, a protocol requirement) ends at the
        # end of its line once its parentheses close and nothing continues it: its attribute covers no more.
        continues = line.rstrip().endswith(("(", ",", "=", "->", ":", "&", "where")) or line.rstrip().endswith("{")
        # A signature wrapped before its result, effects, constraints or body goes on below.
        continues = continues or following.startswith(("->", "{", "throws", "async", "rethrows", "where", "&"))
        if pending_available is not None and in_declaration and parens <= 0 and not continues:
            pending_available = None
            in_declaration, parens = False, 0


def reaches(in_force, needed):
    """Whether the availability in force reaches what `needed` asks, on every platform the package has."""
    return all(in_force.get(platform, (0,)) >= needed[platform] for platform in PLATFORMS if platform in needed)


def violations(path, source, tools, minimums):
    """Yields (line number, message) for each use of a language feature newer than the tools version,
    unguarded (API availability is the index check's: see availability_index.py)."""
    for number, _, piece, in_force, compiler in walk(source, tools, minimums):
        for pattern, what, needed in LANGUAGE_RULES:
            if re.search(pattern, piece) and compiler < needed:
                yield number, f"{what} needs Swift {'.'.join(map(str, needed))}; the package's minimum is " \
                    f"{'.'.join(map(str, tools))}: guard it with #if compiler(>={'.'.join(map(str, needed))})"


def check(paths, stores=(), modules_dirs=(), manifest_path="Package.swift"):
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
    if stores:
        roots = [os.path.abspath(root) + os.sep for root in paths]

        def ours(path):
            return any(path.startswith(root) for root in roots) and f"{os.sep}.build" not in path

        for path, number, message in availability_index.violations(
                stores, modules_dirs, ours, walk, minimums, tools):
            print(f"{os.path.relpath(path)}:{number}: {message}")
            failures += 1
    return failures


SELF_TEST_BAD = '''
func child() { weak let c = Object() }
@concurrent func work() async {}
'''

SELF_TEST_GOOD = '''
#if compiler(>=6.2)
    func child() { weak let c = Object() }
#endif
// weak let in a comment, and "weak let" in a string
'''

# Compiled into an index store by the self-test: each unguarded use of a symbol newer than the minimums
# (Synchronization's Atomic and Mutex, Swift's RangeSet and indices(where:), Observation) is on a line
# ending `// flagged`; every other use is guarded.
SELF_TEST_API = '''
import Observation
import Synchronization

func atomic() -> Int { let a = Atomic<Int>(0); return a.load(ordering: .relaxed) }   // flagged
func ranges() { _ = RangeSet<Int>() }   // flagged
func indices() { _ = [1, 2].indices(where: { $0 > 1 }) }   // flagged
func track() { withObservationTracking { } onChange: { } }   // flagged
@available(iOS 18, macOS 15, tvOS 18, watchOS 11, *)
func guardedByDeclaration() { let m = Mutex(0); _ = m.withLock { $0 } }
func guardedByIf() {
    if #available(iOS 18, macOS 15, tvOS 18, watchOS 11, *) { _ = RangeSet<Int>() } else { withObservationTracking { } onChange: { } }   // flagged
}
func guardedByGuard() {
    guard #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) else { return }
    withObservationTracking { } onChange: { }
}
@available(iOS 18, macOS 15, tvOS 18, watchOS 11, *)
func wrapped(a: Int)
    -> Int
{
    _ = RangeSet<Int>()
    return a
}
@available(iOS 18, macOS 15, tvOS 18, watchOS 11, *)
func closureDefault(x: () -> Void = {}) {
    _ = RangeSet<Int>()
}
// RangeSet<Int>() in a comment
'''


def self_test():
    tools, minimums = (6, 1), {"iOS": (16,), "macOS": (13,), "tvOS": (16,), "watchOS": (9,)}
    bad = list(violations("bad.swift", SELF_TEST_BAD, tools, minimums))
    good = list(violations("good.swift", SELF_TEST_GOOD, tools, minimums))
    assert [line for line, _ in bad] == [2, 3], bad
    assert good == [], good
    with tempfile.TemporaryDirectory() as work:
        source = os.path.join(work, "Fixture.swift")
        with open(source, "w", encoding="utf-8") as file:
            file.write(SELF_TEST_API)
        store = os.path.join(work, "store")
        subprocess.run(["swiftc", "-parse-as-library", "-module-name", "Fixture", "-c", source, "-o",
                        os.path.join(work, "Fixture.o"), "-index-store-path", store], check=True)
        found = availability_index.violations(
            [store], [], lambda path: path == os.path.realpath(source) or path == source, walk, minimums, tools)
    expected = [number for number, text in enumerate(SELF_TEST_API.split("\n"), start=1) if text.endswith("// flagged")]
    lines = sorted({line for _, line, _ in found})
    assert lines == expected, (lines, expected, found)
    print(f"self-test: {len(bad)} unguarded language features and {len(expected)} unguarded API uses found "
          "(Atomic, RangeSet, indices(where:), Observation), 0 false reports on guarded ones")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments[:1] == ["--self-test"]:
        self_test()
        arguments = arguments[1:]
    stores, modules_dirs, paths = [], [], []
    while arguments:
        argument = arguments.pop(0)
        if argument == "--index-store":
            stores.append(arguments.pop(0))
        elif argument == "--modules":
            modules_dirs.append(arguments.pop(0))
        else:
            paths.append(argument)
    found = check(paths or ["Sources", "Tests", "Examples"], stores, modules_dirs)
    if found:
        print(f"{found} use(s) newer than the package's minimums, unguarded (see Docs/ApplePlatforms.md)")
        sys.exit(1)
    print("every use of newer API and language features is guarded")
