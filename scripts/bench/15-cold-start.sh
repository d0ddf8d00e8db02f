#!/usr/bin/env bash
# make bench, cold-start part: `plantleaf classify` of one image, each run a new process, with
# XNNPACK's weight cache (read from a cache folder filled by a first run) and with --no-cache,
# alternated so both see the same machine. Prints each side's median wall time and their ratio.
# The files are in the page cache either way: this is a new process, not a cold disk.
set -euo pipefail
cd "$(dirname "$0")/../.."

binary=${PLANTLEAF_BINARY:-.build/release/plantleaf}
sample="samples/plantvillage/Apple___Apple_scab/00075aa8-d81a-4184-8541-b692b78d398a___FREC_Scab 3335.JPG"
runs=${PLANTLEAF_COLD_RUNS:-15}
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export XDG_CACHE_HOME=$cache

# Milliseconds one classify process takes, start to exit.
timed() {
    local start end
    start=$(date +%s%N)
    "$binary" classify "$@" "$sample" >/dev/null
    end=$(date +%s%N)
    echo $(((end - start) / 1000))
}

"$binary" classify "$sample" >/dev/null  # fills the cache (and the stored digests)
with=() without=()
for _ in $(seq "$runs"); do
    with+=("$(timed)")
    without+=("$(timed --no-cache)")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 1000 }'; }
cached=$(median "${with[@]}") uncached=$(median "${without[@]}")
echo "== cold start: classify of one image in a new process ($(uname -m), $(nproc) cores, median of $runs each)"
awk -v c="$cached" -v u="$uncached" 'BEGIN {
    printf "  %-22s %9.1f ms\n  %-22s %9.1f ms\n  %-22s %9.2fx\n", "with weight cache", c, "--no-cache", u, "no-cache / cache", u / c }'
