#!/usr/bin/env python3
"""Fails when Docs/Architecture.md's lock table and the locks in Sources/ differ.

Each row's second column names a lock as `Type.property`; lock_table.py lists the ones the code has.
"""

import pathlib
import re
import sys

from lock_table import locks

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
in_code = {(module, name) for module, name, _ in locks(root)}
rows = re.findall(r"^\| (\w+) \| `([\w.]+)` \|", (root / "Docs/Architecture.md").read_text(), re.M)
in_docs = set(rows)
missing = sorted(in_code - in_docs)
stale = sorted(in_docs - in_code)
for module, name in missing:
    print(f"Docs/Architecture.md: the lock table lacks {module} `{name}`")
for module, name in stale:
    print(f"Docs/Architecture.md: the lock table names {module} `{name}`, which the code no longer has")
if missing or stale:
    sys.exit(1)
print(f"lock table: {len(in_docs)} locks, as in the code")
