#!/usr/bin/env python3
"""Turns `swift package benchmark --format markdown` output into the tables of Docs/Performance.md.

usage: swift package --package-path Benchmarks benchmark --format markdown > run.md
       python3 Benchmarks/Scripts/summarize.py run.md
Prints the medians (p50) of every benchmark and every goal of Docs/Performance.md, marked met or missed,
all computed from that one run. A goal the instruction table judges (Benchmarks/Scripts/instructions.py:
CPU-bound work, which noise cannot move there) is shown with its time and marked "instructions", and is
not counted here.
"""
import re
import sys

UNITS = {"ns": 1, "μs": 1_000, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000}


def parse(path):
    """Each benchmark's medians, read from the p50 column, found by its header name."""
    results, name, median_column = {}, None, None
    for line in open(path, encoding="utf-8"):
        if line.startswith("### "):
            name = line[4:].strip()
            results[name] = {}
        elif name and line.startswith("| "):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if cells[0] == "Metric":
                median_column = cells.index("p50")
                continue
            if median_column is None or len(cells) <= median_column:
                continue
            label, p50 = cells[0], cells[median_column]
            if not re.fullmatch(r"[0-9]+", p50 or ""):
                continue
            if label.startswith("Time (wall clock)"):
                unit = re.search(r"\((ns|μs|us|ms|s)\)", label).group(1)
                results[name]["ns"] = int(p50) * UNITS[unit]
                p99 = cells[median_column + 3] if len(cells) > median_column + 3 else ""
                if re.fullmatch(r"[0-9]+", p99):
                    results[name]["p99_ns"] = int(p99) * UNITS[unit]
            elif label.startswith("Memory Δ (resident peak)"):
                # The tool picks the unit per benchmark: (K), (M) or (G).
                scale = {"K": 1 / 1024, "M": 1, "G": 1024}[re.search(r"\(([KMG])\)\s*$", label).group(1)]
                results[name]["peak_mb"] = round(int(p50) * scale, 1)
                worst = cells[-2] if len(cells) >= 2 else ""
                if re.fullmatch(r"[0-9]+", worst):
                    results[name]["peak_worst_mb"] = round(int(worst) * scale, 1)
            elif label.startswith("bytes on the wire"):
                # A custom metric, printed in thousands (K) or millions (M).
                unit = re.search(r"\(([KMG])\)\s*$", label)
                scale = {"K": 1_000, "M": 1_000_000, "G": 1_000_000_000}[unit.group(1)] if unit else 1
                results[name]["wire_bytes"] = int(p50) * scale
            elif label.startswith("Malloc (total)"):
                results[name]["mallocs"] = int(p50)
            elif label.startswith("Throughput"):
                results[name]["per_second"] = int(p50)
    return results


def show_time(ns):
    if ns >= 1_000_000:
        return f"{ns / 1_000_000:.1f} ms"
    if ns >= 1_000:
        return f"{ns / 1_000:.1f} µs"
    return f"{ns} ns"


def main():
    r = parse(sys.argv[1])
    t = lambda name: r[name]["ns"]
    print("| benchmark | median time | mallocs |")
    print("|---|---:|---:|")
    for name, values in r.items():
        if "ns" in values:
            print(f"| {name} | {show_time(values['ns'])} | {values.get('mallocs', '-')} |")
    goals = []

    def goal(module, operation, text, measured, met, by="wall clock (I/O)"):
        verdict = "see instructions" if by == "instructions" else ("met" if met else "**missed**")
        goals.append((module, operation, text, measured, by, verdict))

    # Goals the instruction table judges; their times are shown here, their verdicts are there.
    cpu = "instructions"

    s, sw, floor = t("DIKit resolve singleton"), t("Swinject resolve singleton"), t("Locked dictionary lookup (floor)")
    goal("DIKit", "resolve singleton", "≥ 20x faster than Swinject", f"{sw / s:.1f}x", sw / s >= 20, cpu)
    goal("DIKit", "resolve singleton", "≤ 3x a locked Dictionary lookup", f"{s / floor:.2f}x", s / floor <= 3,
         "wall clock (CPU; no instruction row)")
    tr, swt = t("DIKit resolve transient"), t("Swinject resolve transient")
    goal("DIKit", "resolve transient", "≥ 10x faster than Swinject", f"{swt / tr:.1f}x", swt / tr >= 10, cpu)
    one, cvs = t("Observable set, 1 subscriber(s)"), t("CurrentValueSubject send, 1 subscriber(s)")
    allocs = r["Observable set, 1 subscriber(s)"].get("mallocs", 0)
    goal("Binding", "set, 1 subscriber", "≤ 0.5x OpenCombine send; no allocation",
         f"{one / cvs:.2f}x, {allocs} mallocs", one / cvs <= 0.5 and allocs == 0, cpu)
    ten, hundred = t("Observable set, 10 subscriber(s)"), t("Observable set, 100 subscriber(s)")
    per10, per100 = (ten - one) / 9, (hundred - one) / 99
    goal("Binding", "set, 100 subscribers", "linear in subscribers",
         f"{per10:.0f} ns vs {per100:.0f} ns per extra subscriber (10 vs 100)", per100 <= 1.5 * per10,
         "wall clock (CPU; the row's own shape)")
    for size in ["1000", "100000", "1000000"]:
        name = f"Memory hit, {size} entries"
        if f"{name}: MemoryStorage" not in r:
            continue
        m, d, n = t(f"{name}: MemoryStorage"), t(f"{name}: locked Dictionary"), t(f"{name}: NSCache")
        goal("CacheKit memory", f"hit, {int(size):,} entries", "≤ 1.5x locked Dictionary", f"{m / d:.2f}x",
             m / d <= 1.5, cpu)
        goal("CacheKit memory", f"hit, {int(size):,} entries", "≥ 4x faster than NSCache", f"{n / m:.1f}x",
             n / m >= 4, cpu)
    stores = [t(f"Memory store with eviction, {size} entries: MemoryStorage") for size in ["1000", "100000", "1000000"]
              if f"Memory store with eviction, {size} entries: MemoryStorage" in r]
    goal("CacheKit memory", "store with eviction", "flat from 1k to 1M entries",
         " → ".join(show_time(value) for value in stores), max(stores) <= 2 * min(stores), cpu)
    mix, mix_floor = (t("Memory get-or-store mix, Zipf, a tenth held: MemoryStorage"),
                      t("Memory get-or-store mix, Zipf, a tenth held: locked Dictionary"))
    goal("CacheKit memory", "get-or-store mix, Zipf keys, a tenth held", "≤ 2x a locked Dictionary holding all",
         f"{mix / mix_floor:.2f}x", mix / mix_floor <= 2, "wall clock (CPU; its instruction row shown too)")
    for size in ["4 KB", "1 MB"]:
        ds, raw = t(f"Disk store {size}: DiskStorage"), t(f"Disk store {size}: Data.write atomic")
        goal("CacheKit disk", f"{size} store", "≤ 1.5x raw atomic write", f"{ds / raw:.2f}x", ds / raw <= 1.5)
        dh, rh = t(f"Disk hit {size}: DiskStorage"), t(f"Disk hit {size}: Data(contentsOf:)")
        goal("CacheKit disk", f"{size} hit", "≤ 1.5x raw read", f"{dh / rh:.2f}x", dh / rh <= 1.5)
        if f"Disk hit {size}, shared folder: DiskStorage" in r:
            sh = t(f"Disk hit {size}, shared folder: DiskStorage")
            goal("CacheKit disk", f"{size} hit, folder shared across processes", "≤ 1.3x the same hit unshared",
                 f"{sh / dh:.2f}x", sh / dh <= 1.3)
    small, large = t("Disk store at 1000 entries: DiskStorage"), t("Disk store at 100000 entries: DiskStorage")
    goal("CacheKit disk", "per-store cost", "flat from 1k to 100k entries",
         f"{show_time(small)} → {show_time(large)}", large <= 1.5 * small)
    opening = [name for name in r if name.startswith("Disk open")]
    if opening:
        goal("CacheKit disk", opening[0].split(":")[0].replace("Disk ", ""), "≤ 150 ms",
             show_time(t(opening[0])), t(opening[0]) <= 150_000_000)
    first = [name for name in r if name.startswith("Disk first hit after opening")]
    if first:
        goal("CacheKit disk", first[0].split(":")[0].replace("Disk ", ""), "≤ 10 ms",
             show_time(t(first[0])), t(first[0]) <= 10_000_000)
    for kind in ["sequential", "8 concurrent"]:
        provider = r[f"GET {kind}: NetworkProvider"]["per_second"]
        session = r[f"GET {kind}: URLSession"]["per_second"]
        goal("NetworkLayer", f"GET {kind}", "≥ 0.95x URLSession's requests/s", f"{provider / session:.2f}x",
             provider / session >= 0.95)
        if f"GET {kind}, nginx: NetworkProvider" in r:
            provider = r[f"GET {kind}, nginx: NetworkProvider"]["per_second"]
            session = r[f"GET {kind}, nginx: URLSession"]["per_second"]
            shown = f"{provider / session:.2f}x"
            if f"GET {kind}, nginx: URLSession delegate" in r:
                floor = r[f"GET {kind}, nginx: URLSession delegate"]["per_second"]
                shown += f" (a bare session delegate: {floor / session:.2f}x)"
            goal("NetworkLayer", f"GET {kind}, against nginx", "≥ 0.95x URLSession's requests/s",
                 shown, provider / session >= 0.95)
    chain, chain_peer = (t("Observable map → removeDuplicates → 1 subscriber, set"),
                         t("CurrentValueSubject map → removeDuplicates → sink, send"))
    chain_allocs = r["Observable map → removeDuplicates → 1 subscriber, set"].get("mallocs", 0)
    goal("Binding", "map → removeDuplicates → 1 subscriber", "≤ 0.5x OpenCombine; no allocation",
         f"{chain / chain_peer:.2f}x, {chain_allocs} mallocs", chain / chain_peer <= 0.5 and chain_allocs == 0,
         cpu)
    pair, pair_peer = (t("Observable combineLatest of 2, alternating sets"),
                       t("CurrentValueSubject two sinks paired by hand, alternating sends"))
    pair_allocs = r["Observable combineLatest of 2, alternating sets"].get("mallocs", 0)
    goal("Binding", "combineLatest of 2", "≤ 1.0x OpenCombine; no allocation",
         f"{pair / pair_peer:.2f}x, {pair_allocs} mallocs", pair / pair_peer <= 1.0 and pair_allocs == 0, cpu)
    graph = t("DIKit resolve app graph")
    for peer, by in [("Swinject resolve app graph", cpu),
                     ("Swinject synchronized resolve app graph", "wall clock (CPU; no instruction row)")]:
        goal("DIKit", "resolve a 12-service app graph", f"≥ 15x faster than {peer.split(' resolve')[0]}",
             f"{t(peer) / graph:.1f}x", t(peer) / graph >= 15, by)
    hand = t("Hand-written app graph")
    goal("DIKit", "resolve a 12-service app graph", "≤ 10x the hand-written graph", f"{graph / hand:.1f}x",
         graph / hand <= 10, cpu)
    pair_graph = "DIKit resolve app graph, two threads"
    if pair_graph in r:
        # Each two-thread row resolves a graph on each thread: the rate is two graphs per row time.
        scaling = 2 * graph / t(pair_graph)
        hand_scaling = 2 * hand / t("Hand-written app graph, two threads")
        # Issue #41: two cores cannot give anyone 1.8x here; the goal is DIKit's scaling against the
        # hand-written graph's, in the same run.
        goal("DIKit", "resolve the app graph on two threads", "scaling ≥ 0.9x the hand-written graph's",
             f"{scaling:.2f}x vs {hand_scaling:.2f}x: {scaling / hand_scaling:.2f}", scaling / hand_scaling >= 0.9,
             "wall clock (contention)")
        peer = t("Swinject synchronized resolve app graph, two threads")
        goal("DIKit", "resolve the app graph on two threads", "≥ 15x faster than Swinject synchronized",
             f"{peer / t(pair_graph):.1f}x", peer / t(pair_graph) >= 15, "wall clock (contention)")
    quiet = r["Disk hit 4 KB, no writer: DiskStorage"]["p99_ns"]
    busy = r["Disk hit 4 KB, another thread storing 1 MB values: DiskStorage"]["p99_ns"]
    goal("CacheKit disk", "4 KB hit p99 under a 1 MB writer", "≤ 2x the p99 with no writer",
         f"{show_time(busy)} vs {show_time(quiet)}: {busy / quiet:.1f}x", busy / quiet <= 2)
    for target in ["to a new file", "replacing a file"]:
        name = f"Download 200 MB {target}"
        if f"{name}: NetworkProvider" not in r:
            continue
        provider, raw = r[f"{name}: NetworkProvider"], r[f"{name}: URLSession download task"]
        goal("NetworkLayer", f"download 200 MB {target}", "≥ 0.9x a raw download task's throughput",
             f"{show_time(provider['ns'])} vs {show_time(raw['ns'])}: {raw['ns'] / provider['ns']:.2f}x",
             raw["ns"] / provider["ns"] >= 0.9)
        goal("NetworkLayer", f"download 200 MB {target}", "< 32 MB peak resident growth",
             f"{provider['peak_mb']} MB median, {provider.get('peak_worst_mb', '?')} MB worst "
             f"(one request: {r[f'{name}: NetworkProvider, one request']['peak_mb']} MB)",
             provider.get("peak_worst_mb", provider["peak_mb"]) < 32)
    ten = "HTTP cache, nginx, 10 fetches of 1 MiB (max-age=0, ETag)"
    if f"{ten}: NetworkProvider + HTTPCache" in r:
        cached, plain = r[f"{ten}: NetworkProvider + HTTPCache"], r[f"{ten}: NetworkProvider, no cache"]
        url_cache = r[f"{ten}: URLSession + URLCache"]
        goal("NetworkLayer", "HTTP cache: 10 fetches of 1 MiB revalidated each time, bytes on the wire",
             "≤ 1.1 MiB", f"{cached['wire_bytes']:,} bytes (no cache: {plain['wire_bytes']:,}; URLSession + "
             f"URLCache: {url_cache['wire_bytes']:,})", cached["wire_bytes"] <= 1.1 * (1 << 20),
             "bytes counted (I/O)")
        one = "HTTP cache, nginx, one fetch of 1 MiB"
        revalidated, full = t(f"{one}: revalidated (304)"), t(f"{one}: full (200)")
        floor = t(f"{one}: URLSession conditional GET (304)")
        goal("NetworkLayer", "HTTP cache: a revalidated fetch (304) vs a full fetch of 1 MiB", "≤ 0.3x",
             f"{show_time(revalidated)} vs {show_time(full)}: {revalidated / full:.2f}x (URLSession's own 304: "
             f"{floor / full:.2f}x)", revalidated / full <= 0.3)
    if "HTTP cache, fresh hit: NetworkProvider + HTTPCache" in r:
        hit, memory = t("HTTP cache, fresh hit: NetworkProvider + HTTPCache"), t("HTTP cache, fresh hit: CacheKit MemoryStorage")
        goal("NetworkLayer", "HTTP cache: a fresh hit", "≤ 2x a CacheKit memory hit of the same body",
             f"{show_time(hit)} vs {show_time(memory)}: {hit / memory:.0f}x", hit / memory <= 2, cpu)
        offline = t("HTTP cache, offline with a stale entry: NetworkProvider + HTTPCache + RetryMiddleware")
        goal("NetworkLayer", "HTTP cache: offline, an accepted stale answer with RetryMiddleware", "≤ 50 ms",
             show_time(offline), offline <= 50_000_000)
    overhead = t("Decode: NetworkProvider over a stub session") - t("Decode: raw JSONDecoder")
    goal("NetworkLayer", "per-request overhead, I/O excluded", "< 20 µs; its own work ≤ 25,000 instructions",
         show_time(overhead), overhead < 20_000, cpu)
    print("\n| module | operation | goal | measured | judged by | |")
    print("|---|---|---|---|---|---|")
    for row in goals:
        print("| " + " | ".join(row) + " |")
    judged = [row for row in goals if row[-1] != "see instructions"]
    met = sum(row[-1] == "met" for row in judged)
    print(f"\n{met} met, {len(judged) - met} missed on the wall clock; "
          f"{len(goals) - len(judged)} more goals are judged in instructions.")


if __name__ == "__main__":
    main()
