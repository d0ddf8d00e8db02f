#!/usr/bin/env bash
# make bench, cold-start part: `plantleaf classify` of one image, each run a new process, with
# XNNPACK's weight cache (read from a cache folder filled by a first run) and with --no-cache,
# the leaf model alone with the cache (the reference pipeline's work: no generalist check), and
# the reference pipeline (reference_classify.py) on the same image, alternated so all see the
# same machine. Prints each median wall time; floor: with the cache (both models) ≤ 20 ms. The
# files are in the page cache either way: this is a new process, not a cold disk.
set -euo pipefail
cd "$(dirname "$0")/../.."

binary=${PLANTLEAF_BINARY:-.build/release/plantleaf}
sample="samples/plantvillage/Apple___Apple_scab/00075aa8-d81a-4184-8541-b692b78d398a___FREC_Scab 3335.JPG"
runs=${PLANTLEAF_COLD_RUNS:-15}
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export XDG_CACHE_HOME=$cache

shared=${PLANTLEAF_SHARED:-../shared}
labels=$cache/labels.txt
grep -v -e '^#' -e '^$' labels.txt >"$labels"  # the reference reads every line as a label

# Microseconds one process takes, start to exit.
timed() {
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    echo $(((end - start) / 1000))
}

"$binary" classify "$sample" >/dev/null  # fills the cache (and the stored digests)
with=() without=() leaf=() reference=()
for _ in $(seq "$runs"); do
    with+=("$(timed "$binary" classify "$sample")")
    without+=("$(timed "$binary" classify --no-cache "$sample")")
    leaf+=("$(timed "$binary" classify --checks picture,vegetation,score "$sample")")
    reference+=("$(timed .venv/bin/python "$shared/tools/reference_classify.py" Models/plantvillage_int8.tflite "$labels" "$sample")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 1000 }'; }
cached=$(median "${with[@]}") uncached=$(median "${without[@]}")
leaf_only=$(median "${leaf[@]}") pipeline=$(median "${reference[@]}")
echo "== cold start: classify of one image in a new process ($(uname -m), $(nproc) cores, median of $runs each)"
awk -v c="$cached" -v u="$uncached" -v l="$leaf_only" -v r="$pipeline" 'BEGIN {
    printf "  %-40s %9.1f ms  floor 20 ms: %s\n", "with weight cache (both models)", c, (c <= 20 ? "met" : "MISSED")
    printf "  %-40s %9.1f ms\n  %-40s %9.2fx\n", "--no-cache", u, "no-cache / cache", u / c
    printf "  %-40s %9.1f ms\n", "leaf model alone, with weight cache", l
    printf "  %-40s %9.1f ms (%.1fx plantleaf with the cache)\n", "reference pipeline (leaf model alone)", r, r / c
    exit (c <= 20 ? 0 : 1) }'
