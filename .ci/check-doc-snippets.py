#!/usr/bin/env python3
"""Fails when a Swift code block in the README, Docs/ or a DocC landing page is not code that CI compiles.

Each ```swift block must stand, line for line, in a Swift file that CI builds: most are in
Examples/AppCheck/Sources/DocSnippets (one file per guide), written out with whatever the block leaves
implicit (the types it mentions, the function around its statements). Lines of those files that end with
`//-` are that scaffolding: they are skipped when a block is looked for, so a block's statements can sit
inside a function the page does not show; so are `///` documentation comments, so a block may show a
declaration of the library itself. Lines are compared with their indentation removed and runs of
spaces folded, blank lines ignored.

A block that is a manifest fragment (it names `.package(` or `.product(`) is checked differently: it is
put into a package beside a link to this repository (in .build-doc-manifests), which must build.

Usage: check-doc-snippets.py [--skip-manifests]
"""
import glob
import os
import re
import subprocess
import sys

PAGES = ["README.md", *sorted(glob.glob("Docs/*.md")), *sorted(glob.glob("Sources/*/*.docc/*.md"))]
COMPILED = ["Examples/AppCheck/Sources", "Examples/AppCheck/Tests", "Examples/BoxOffice/Sources", "Sources", "Tests"]
SCAFFOLD = "//-"


def normalized(line):
    return re.sub(r"\s+", " ", line.strip())


def blocks(path):
    """Yields (line number, lines) for each ```swift block of a page."""
    lines = open(path, encoding="utf-8").read().split("\n")
    index = 0
    while index < len(lines):
        if re.match(r"^\s*```swift\s*$", lines[index]):
            end = index + 1
            while end < len(lines) and not re.match(r"^\s*```\s*$", lines[end]):
                end += 1
            yield index + 1, lines[index + 1:end]
            index = end
        index += 1


def compiled_files():
    files = {}
    for root in COMPILED:
        for directory, folders, names in os.walk(root):
            folders[:] = [f for f in folders if not f.startswith(".build")]
            for name in names:
                if name.endswith(".swift"):
                    path = os.path.join(directory, name)
                    text = open(path, encoding="utf-8").read().split("\n")
                    files[path] = [
                        normalized(l) for l in text
                        if l.strip() and not l.rstrip().endswith(SCAFFOLD) and not l.strip().startswith("///")
                    ]
    return files


def found_in(block, files):
    for path, lines in files.items():
        for start in range(len(lines) - len(block) + 1):
            if lines[start] == block[0] and lines[start:start + len(block)] == block:
                return path
    return None


MANIFEST = """// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "DocsManifestCheck",
    platforms: [.iOS(.v16), .macOS(.v13)],
    {package_dependencies}
    targets: [
        .target(name: "App", {target_dependencies})
    ]
)
"""


def check_manifest(block):
    """Builds the fragment in a package that depends on this repository as `../AppArchitectureKit`: a
    product or package name that does not exist fails. One folder for every fragment, so the library is
    compiled once."""
    code = [l.strip() for l in block if l.strip() and not l.strip().startswith("//")]
    package_dependencies = next((l for l in code if l.startswith("dependencies: [.package(")), None)
    target_lines = [l for l in code if l is not package_dependencies]
    if len(target_lines) == 1 and target_lines[0].startswith(".product("):
        target_lines = [f"dependencies: [{target_lines[0].rstrip(',')}],"]
    folder = os.path.abspath(".build-doc-manifests")
    link = os.path.join(folder, "AppArchitectureKit")
    app = os.path.join(folder, "App")
    os.makedirs(os.path.join(app, "Sources", "App"), exist_ok=True)
    if not os.path.islink(link):
        os.symlink(os.getcwd(), link)
    open(os.path.join(app, "Sources", "App", "App.swift"), "w").write("")
    manifest = MANIFEST.format(
        package_dependencies=package_dependencies or 'dependencies: [.package(path: "../AppArchitectureKit")],',
        target_dependencies=" ".join(target_lines).rstrip(","))
    open(os.path.join(app, "Package.swift"), "w").write(manifest)
    result = subprocess.run(
        ["swift", "build", "--package-path", app, "--target", "App"], capture_output=True, text=True)
    return result.returncode == 0, (result.stderr + result.stdout).strip()[-600:]


def main():
    skip_manifests = "--skip-manifests" in sys.argv
    files = compiled_files()
    failures, checked, seen = [], 0, set()
    for page in PAGES:
        if os.path.islink(page) or os.path.realpath(page) in seen:
            continue  # a guide linked into a DocC catalog is checked once, as itself
        seen.add(os.path.realpath(page))
        for line_number, block in blocks(page):
            checked += 1
            where = f"{page}:{line_number}"
            if any(".package(" in l or ".product(" in l for l in block):
                if skip_manifests:
                    continue
                loaded, message = check_manifest(block)
                if not loaded:
                    failures.append(f"{where}: the manifest fragment does not load:\n{message}")
                continue
            wanted = [normalized(l) for l in block if l.strip()]
            code = [re.sub(r"//.*$", "", re.sub(r'"[^"]*"', '""', l)) for l in wanted]
            if any("…" in l for l in code):
                failures.append(f"{where}: a block with '…' is not code; write it out")
            elif not found_in(wanted, files):
                failures.append(f"{where}: not found in any compiled file; put it in "
                                f"Examples/AppCheck/Sources/DocSnippets, line for line")
    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"{checked} Swift blocks in {len(seen)} pages; {len(failures)} not compiled")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
