#!/usr/bin/env python3
"""Fails when a library module uses an API Apple lists as "required reason" without its privacy manifest
declaring it, or when a manifest is not a resource of its target.

App Store review rejects an app whose frameworks use such an API undeclared. The categories below are the
ones this package can reach; each maps the calls that need it to the reason the package gives. A module
that reaches none (Binding, DIKit) ships no manifest: Apple asks for one only to declare such uses,
tracking, or data collection, and they have none of these.
"""
import os
import plistlib
import re
import sys

CATEGORIES = {
    # File timestamps and metadata of files in the app's container: stat, fstat, lstat, the date keys.
    "NSPrivacyAccessedAPICategoryFileTimestamp": (
        r"\b(f|l)?stat\s*\(|\b(creation|modification|contentModification)Date(Key)?\b|\bgetattrlist\b",
        {"CacheKit": ["C617.1"], "NetworkLayer": ["C617.1", "3B52.1"]},
    ),
    # The uptime clock, read to measure elapsed time for timeouts and timers.
    "NSPrivacyAccessedAPICategorySystemBootTime": (
        r"\bsystemUptime\b|\bmach_absolute_time\b|\buptimeNanoseconds\b",
        {"NetworkLayer": ["35F9.1"]},
    ),
}
MODULES = ["Binding", "CacheKit", "DIKit", "NetworkLayer"]


def code_lines(path):
    with open(path, encoding="utf-8") as file:
        for line in file:
            stripped = line.strip()
            if not stripped.startswith("//"):
                yield stripped


def main():
    manifest_text = open("Package.swift", encoding="utf-8").read()
    failures = []
    for module in MODULES:
        folder = os.path.join("Sources", module)
        needed = set()
        for directory, _, files in os.walk(folder):
            for name in files:
                if name.endswith(".swift"):
                    for line in code_lines(os.path.join(directory, name)):
                        for category, (pattern, _) in CATEGORIES.items():
                            if re.search(pattern, line):
                                needed.add(category)
        path = os.path.join(folder, "PrivacyInfo.xcprivacy")
        declared = {}
        if os.path.exists(path):
            with open(path, "rb") as file:
                plist = plistlib.load(file)
            if plist.get("NSPrivacyTracking") is not False:
                failures.append(f"{path}: NSPrivacyTracking must be false")
            for entry in plist.get("NSPrivacyAccessedAPITypes", []):
                declared[entry["NSPrivacyAccessedAPIType"]] = entry["NSPrivacyAccessedAPITypeReasons"]
            target = re.search(r'\.target\(\s*name:\s*"%s"[^)]*\)' % module, manifest_text)
            if not target or '.copy("PrivacyInfo.xcprivacy")' not in target.group(0):
                failures.append(f"{module}: PrivacyInfo.xcprivacy is not a resource of its target")
        for category in sorted(needed):
            reasons = CATEGORIES[category][1].get(module)
            if reasons is None:
                failures.append(f"{module} uses {category}: decide its reason and add it to this script")
            elif sorted(declared.get(category, [])) != sorted(reasons):
                failures.append(f"{module} uses {category}: its privacy manifest must give {reasons}")
        for category in sorted(set(declared) - needed):
            failures.append(f"{module} declares {category} but no longer uses it")
        print(f"{module}: uses {sorted(needed) or 'no required-reason API'}; declares {sorted(declared) or 'none'}")
    for failure in failures:
        print(failure, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
