#!/usr/bin/env python3
"""Lists every lock the library's sources declare, as `Type.property`, module by module.

A lock is a stored property holding a `Locked` value, a `Lock` or a `ReadWriteLock`. The enclosing
type is the nearest `class`, `struct`, `actor`, `enum` or `extension` opened before it at a lower
indentation. Docs/Architecture.md's lock table names each of these once (check-lock-table.py).
"""

import pathlib
import re
import sys

DECLARATION = re.compile(
    r"^(?P<indent>\s*)(?:(?:private|fileprivate|internal|public|static|nonisolated\(unsafe\)|@\w+)\s+)*"
    r"(?:let|var)\s+(?P<name>\w+)\s*(?::\s*(?P<type>[^=]+?))?\s*(?:=\s*(?P<value>.+))?$"
)
TYPE = re.compile(
    r"^(?P<indent>\s*)(?:(?:private|fileprivate|internal|public|final|@\w+(?:\([^)]*\))?)\s+)*"
    r"(?:class|struct|actor|enum|extension)\s+(?P<name>\w+)"
)
LOCK = re.compile(r"^(?:Locked\b|Lock\(\)|Lock$|ReadWriteLock\b|UnsafeMutablePointer<pthread_mutex_t>)")


def locks(root: pathlib.Path):
    for path in sorted(root.glob("Sources/*/**/*.swift")):
        if path.name == "Lock.swift":
            continue
        module = path.relative_to(root / "Sources").parts[0]
        stack: list[tuple[int, str]] = []
        for line in path.read_text().splitlines():
            stripped = line.strip()
            if stripped.startswith("//"):
                continue
            match = TYPE.match(line)
            if match:
                indent = len(match["indent"])
                stack = [entry for entry in stack if entry[0] < indent]
                stack.append((indent, match["name"]))
                continue
            match = DECLARATION.match(line)
            if not match:
                continue
            kind = (match["type"] or match["value"] or "").strip()
            if not LOCK.match(kind):
                continue
            indent = len(match["indent"])
            owners = [name for level, name in stack if level < indent]
            if not owners:
                continue
            yield module, f"{owners[-1]}.{match['name']}", path.relative_to(root)


if __name__ == "__main__":
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    for module, name, path in locks(root):
        print(f"{module}\t{name}\t{path}")
