"""The API half of .ci/check-availability.py: every symbol a Swift file references, found in an index
store, checked against the Apple availability the toolchain's own module interfaces declare.

Linux ignores Apple availability, but the Swift toolchain here carries it: `swift-symbolgraph-extract`
reports, for each public symbol of Swift, _Concurrency, Synchronization, Observation and the string
processing modules (and of this package's modules), the iOS, macOS, tvOS and watchOS versions it was
introduced in. The index store the build writes (`-index-store-path`, on by default for debug builds)
lists every symbol each file references, by USR, with its line and column. A reference is accepted where
the availability in force (the package's minimums, an enclosing `@available` declaration, an `if
#available` block or a `guard #available`, read lexically by check-availability.py) reaches the symbol's.
There is no list of APIs to keep. Foundation on Linux declares no availability, so Foundation's newer
API is not checked here. Implicit references (what `for await` calls, a synthesized conformance) and
references to protocol requirements (which the index names where the compiler, for an older deployment
target, may pick an older overload or the conforming type's own member) are left to the compiler.
"""
import glob
import json
import os
import re
import subprocess
import tempfile

import indexstore

SYSTEM_MODULES = ["Swift", "_Concurrency", "Synchronization", "Observation", "_StringProcessing", "RegexBuilder",
                  "Distributed"]
PACKAGE_MODULES = ["Binding", "CacheKit", "DIKit", "NetworkLayer"]
PLATFORMS = ("iOS", "macOS", "tvOS", "watchOS")
ROLE_IMPLICIT = 1 << 8


def toolchain_file(*parts):
    swift = subprocess.run(["which", "swift"], capture_output=True, text=True).stdout.strip()
    return os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(swift))), *parts)


def symbol_availability(modules_dirs):
    """USR -> {platform: version tuple} for every public symbol with Apple availability, from the toolchain's
    modules and this package's (found in `modules_dirs`)."""
    table = {}
    with tempfile.TemporaryDirectory() as out:
        jobs = [(module, []) for module in SYSTEM_MODULES]
        for module in PACKAGE_MODULES if modules_dirs else []:
            found = [d for d in modules_dirs if os.path.exists(os.path.join(d, module + ".swiftmodule"))]
            if not found:
                raise SystemExit(f"no {module}.swiftmodule in {', '.join(modules_dirs)}: build the package first")
            jobs.append((module, ["-I", found[0]]))
        for module, extra in jobs:
            subprocess.run(["swift-symbolgraph-extract", "-module-name", module, "-target", "x86_64-unknown-linux-gnu",
                            "-minimum-access-level", "public", "-output-dir", out] + extra,
                           capture_output=True, check=False)
        requirements = set()
        for path in glob.glob(os.path.join(out, "*.symbols.json")):
            with open(path, encoding="utf-8") as file:
                graph = json.load(file)
            for relationship in graph.get("relationships", []):
                if relationship.get("kind") in ("requirementOf", "optionalRequirementOf"):
                    requirements.add(relationship["source"])
            for symbol in graph.get("symbols", []):
                needed = {}
                for entry in symbol.get("availability", []):
                    introduced = entry.get("introduced")
                    if entry.get("domain") in PLATFORMS and introduced:
                        needed[entry["domain"]] = (introduced.get("major", 0), introduced.get("minor", 0))
                precise = symbol["identifier"]["precise"]
                # A synthesized copy (a protocol extension's member as seen on one conforming type) carries
                # that type's availability, not the member's: only the member's own entry counts.
                if needed and "::SYNTHESIZED::" not in precise:
                    table[precise] = needed
        # A requirement added to an older protocol (FixedWidthInteger's `&*` in Swift 6) is what the index
        # names for a call the compiler resolves, for an older deployment target, to an older overload or
        # the conforming type's own member: left to the compiler, as the module docstring says.
        for usr in requirements:
            table.pop(usr, None)
    return table


def padded(version):
    """`version` with three components, so (18,) and (18, 0) compare equal."""
    return tuple(version) + (0,) * (3 - len(version))


def character_column(line, byte_column):
    """The 1-based character column of a 1-based UTF-8 byte column in `line`."""
    return len(line.encode("utf-8")[:byte_column - 1].decode("utf-8", "ignore")) + 1


def violations(stores, modules_dirs, keep_file, walk, minimums, tools):
    """(path, line, message) for each reference to a symbol newer than the availability in force there."""
    table = symbol_availability(modules_dirs)
    library = toolchain_file("lib", "libIndexStore.so")
    scopes = {}  # path -> line -> [(start column, in force)]
    found = []
    for store in stores:
        if not os.path.isdir(store):
            raise SystemExit(f"no index store at {store}: build with --enable-index-store first")
        referenced = 0
        for path, usr, name, line, column, roles in indexstore.references(store, library, keep_file):
            referenced += 1
            needed = table.get(usr)
            # A record of a file deleted since it was indexed stays in the store: only files there now count.
            if not needed or roles & ROLE_IMPLICIT or not os.path.exists(path):
                continue
            if path not in scopes:
                with open(path, encoding="utf-8") as file:
                    source = file.read()
                pieces = {}
                for number, start, _, in_force, _ in walk(source, tools, minimums):
                    pieces.setdefault(number, []).append((start, in_force))
                scopes[path] = (source.split("\n"), pieces)
            lines, pieces = scopes[path]
            if line <= len(lines) and re.match(r"\s*(@\w+\s+)*import\b", lines[line - 1]):
                continue  # importing a newer type by name needs no availability
            where = character_column(lines[line - 1], column) if line <= len(lines) else column
            in_force = minimums
            for start, force in pieces.get(line, []):
                if start <= where:
                    in_force = force
            if not all(padded(in_force.get(p, (0,))) >= padded(needed[p]) for p in PLATFORMS if p in needed):
                versions = ", ".join(f"{p} {'.'.join(map(str, needed[p]))}" for p in PLATFORMS if p in needed)
                found.append((path, line, f"{name} needs {versions}: mark the declaration @available or guard it "
                                          "with #available"))
        if referenced == 0:
            raise SystemExit(f"the index store at {store} lists no reference in the files checked")
    return sorted(set(found))
