#!/usr/bin/env bash
# Peak resident memory of one NetworkLayer request against a hostile server, each in a process of its
# own (.ci/memory-check), against the fixture server on 127.0.0.1; then of `boxoffice movie` against a
# poster host sending 1 GiB, an endless body or a gzip bomb (Tests/BoxOfficeCLITests/Fixtures/demo_server.py). Each case must stay under its limit
# plus a fixed allowance for the process itself (a Foundation process is about 30 MB here, and libcurl
# buffers what a fast sender pushes before a cancel lands: 1 GiB refused on its Content-Length peaked
# at 36-71 MB over ten runs, 93 MB once under a concurrent compile), and the process lives 5 s after
# the error, so what the transport still does then counts too (`boxoffice` exits when it is done).
set -euo pipefail
cd "$(dirname "$0")/.."
allowance_kb=$((96 * 1024))

swift build -c release --package-path .ci/memory-check --build-path .build-memory-check >/dev/null
binary=.build-memory-check/release/memory-check

coproc SERVER { exec python3 Tests/NetworkLayerTests/Fixtures/server.py; }
read -r port <&"${SERVER[0]}"
trap 'kill "$SERVER_PID" 2>/dev/null || true' EXIT
base="http://127.0.0.1:$port"

failures=0
check() { # name, mode, path, limit in bytes, the error expected
    local name=$1 mode=$2 path=$3 limit=$4 expected=$5 output peak budget
    output=$( { /usr/bin/time -f "%M" timeout 120 "$binary" "$mode" "$base$path" "$limit" ; } 2>&1 || true )
    peak=$(tail -n 1 <<<"$output")
    budget=$((limit / 1024 + allowance_kb))
    if [[ "$output" == *"failed: $expected"* && "$peak" =~ ^[0-9]+$ && "$peak" -le "$budget" ]]; then
        echo "ok   $name: peak $((peak / 1024)) MB (budget $((budget / 1024)) MB)"
    else
        echo "FAIL $name: peak ${peak} KB, budget ${budget} KB; output: $(head -n 1 <<<"$output")"
        failures=$((failures + 1))
    fi
}

too_large="The response is larger than the limit"
fell_behind="The stream's reader fell more than"
check "1 GiB body, 10 MB limit" send "/large?bytes=1073741824" 10000000 "$too_large"
check "endless body, 10 MB limit" send "/endless?id=memory" 10000000 "$too_large"
check "gzip body of 400 MB, 10 MB limit" send "/gzip?bytes=400000000" 10000000 "$too_large"
check "endless stream, reader paused 6 s, 8 MiB buffer" stream "/endless?id=memory-stream" 8388608 "$fell_behind"

# The example app, as a user runs it: its poster limit is 10 MB (PosterProvider.maximumImageBytes).
# The library's server is done with; it is stopped (and reaped) before the demo server starts.
kill "$SERVER_PID" 2>/dev/null || true
wait "$SERVER_PID" 2>/dev/null || true
swift build --product boxoffice >/dev/null
app=.build/debug/boxoffice
coproc DEMO { exec python3 Tests/BoxOfficeCLITests/Fixtures/demo_server.py Examples/BoxOffice/Sources/BoxOffice/DemoData; }
read -r demo_port <&"${DEMO[0]}"
trap 'kill "$DEMO_PID" 2>/dev/null || true' EXIT
check_poster() { # name, the Kakao key's mode
    local name=$1 mode=$2 cache output peak budget=$((10485760 / 1024 + allowance_kb))
    cache=$(mktemp -d)
    output=$( { /usr/bin/time -f "%M" timeout 120 env KOBIS_API_KEY=memory-check KAKAO_REST_API_KEY="memory-$mode" \
        KOBIS_BASE_URL="http://127.0.0.1:$demo_port/kobis" KAKAO_BASE_URL="http://127.0.0.1:$demo_port/kakao" \
        BOXOFFICE_CACHE_DIR="$cache" "$app" movie 20261001 >/dev/null; } 2>&1 || true )
    rm -rf "$cache"
    peak=$(tail -n 1 <<<"$output")
    if [[ "$output" == *"poster unavailable: the answer was larger than the 10485760 bytes"* && "$peak" =~ ^[0-9]+$ \
        && "$peak" -le "$budget" ]]; then
        echo "ok   $name: peak $((peak / 1024)) MB (budget $((budget / 1024)) MB)"
    else
        echo "FAIL $name: peak ${peak} KB, budget ${budget} KB; output: $(head -n 1 <<<"$output")"
        failures=$((failures + 1))
    fi
}
check_poster "boxoffice: a 1 GiB poster" huge
check_poster "boxoffice: an endless poster" endless
check_poster "boxoffice: a 400 MB gzip poster" gzipbomb

exit "$failures"
