#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer and AddressSanitizer and runs each for a bounded time.
#
# usage: Fuzz/run.sh [seconds per target, default 25] [target ...]
# A crash, a sanitizer report, a hang (one input over 10 s) or a leak fails the run: libFuzzer writes the
# input that did it as crash-*/timeout-*/leak-* in Fuzz/findings/ and this script exits non-zero. Replay
# one with: Fuzz/.build-fuzz/debug/<Target> Fuzz/findings/<file>
# The seed corpora in Fuzz/Corpus/<Target>/ are copied to a scratch folder first, so runs never change them.
set -euo pipefail
cd "$(dirname "$0")"

seconds=${1:-25}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(EntryFileFuzzer APIDecodingFuzzer HTTPFieldsFuzzer ArgumentsFuzzer TerminalTextFuzzer TransferParsingFuzzer HTTPCacheFuzzer)
fi

# lld, because SwiftPM aliases `main` to the executable's entry and gold cannot link that beside
# libFuzzer's own `main`; -parse-as-library is set in Package.swift.
flags=(--scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
build_log=$(mktemp)
for target in "${targets[@]}"; do
    # A failed build stops the run: an old binary must never be fuzzed in its place.
    if ! swift build "${flags[@]}" --product "$target" > "$build_log" 2>&1; then
        grep -v "Cannot export local symbol" "$build_log" >&2
        echo "building $target failed" >&2
        exit 1
    fi
done
rm -f "$build_log"

# libFuzzer reports a crash itself; Swift's own backtracer would spend minutes symbolicating first.
export SWIFT_BACKTRACE=enable=no
mkdir -p findings
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
status=0
for target in "${targets[@]}"; do
    mkdir -p "$scratch/$target"
    cp -R "Corpus/$target/." "$scratch/$target/"
    echo "==> $target for ${seconds}s"
    if ! ".build-fuzz/debug/$target" "$scratch/$target" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="findings/$target-" \
        > "$scratch/$target.log" 2>&1; then
        status=1
        echo "$target FOUND A PROBLEM:" >&2
        grep -E "ERROR|Fatal error|SUMMARY|panic|Test unit written" "$scratch/$target.log" | head -20 >&2
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/$target.log")
    echo "$target: ${runs:-?} executions, $(find "$scratch/$target" -type f | wc -l) inputs in the corpus"
done
exit $status
