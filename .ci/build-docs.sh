#!/usr/bin/env bash
# Builds each library module's DocC documentation with the toolchain's docc (no plugin dependency):
# symbol graphs from the compiler, then `docc convert` of the module's catalog, warnings as errors.
# A module's guide (Docs/<Module>.md) is an article of its catalog through a symbolic link, so the guide
# on GitHub and the article in DocC are one file.
# Usage: .ci/build-docs.sh [output folder]   (default: .build-docs/archives)
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-docs
output=${1:-$scratch/archives}
graphs=$scratch/symbol-graphs
# A fresh scratch folder: the compiler writes symbol graphs only for what it compiles.
rm -rf "$scratch"
mkdir -p "$graphs" "$output"

for module in Binding CacheKit DIKit DIKitTesting NetworkLayer; do
    # A graph folder per module: docc must see this module's graphs (and its extensions of other
    # modules') and no other's. Modules built earlier for another target are not compiled again, so
    # their graphs are copied from the folder they were first written to.
    mkdir -p "$graphs/$module"
    if ! swift build --scratch-path "$scratch" --target "$module" -Xswiftc -emit-symbol-graph \
        -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs/all" >"$scratch/build-$module.log" 2>&1; then
        cat "$scratch/build-$module.log" >&2
        exit 1
    fi
    cp "$graphs/all/$module.symbols.json" "$graphs/$module/" 2>/dev/null || true
    cp "$graphs/all/$module"@*.symbols.json "$graphs/$module/" 2>/dev/null || true
    if [ ! -s "$graphs/$module/$module.symbols.json" ]; then
        echo "no symbol graph was written for $module" >&2
        exit 1
    fi
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.apparchitecturekit.$module" \
        --warnings-as-errors --transform-for-static-hosting \
        --output-path "$output/$module.doccarchive" 2>&1 | tee "$scratch/docc-$module.log"
    pages=$(find "$output/$module.doccarchive/data/documentation" -name '*.json' | wc -l)
    echo "$module: $pages pages, no warnings"
done
