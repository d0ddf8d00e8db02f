#!/usr/bin/env bash
# Runs every fuzz target of the fuzz build for a while and summarises what libFuzzer reports.
#
#   scripts/hardening/fuzz.sh SECONDS [TARGET...]     (make fuzz SECONDS=N runs it on all targets)
#
# Seeds are regenerated into .fuzz/seeds/<target>; what the fuzzer finds interesting accumulates
# in .fuzz/corpus/<target> (so later runs start further on); inputs that crash are kept in
# .fuzz/crashes/<target>/ and the full log in .fuzz/logs/<target>.log. Targets run side by side, one
# per core (PLANTLEAF_FUZZ_JOBS sets how many). Exits 1 if any target crashed.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:?usage: fuzz.sh SECONDS [TARGET...]}
shift
binary=${PLANTLEAF_FUZZ_BIN:-.build-fuzz/release/plantleaf-fuzz}
[ -x "$binary" ] || { echo "fuzz: $binary is missing: run 'make fuzz' (it builds it)" >&2; exit 2; }
if [ $# -eq 0 ]; then
    mapfile -t targets < <("$binary" list | cut -f1)
else
    targets=("$@")
fi

"$binary" seeds .fuzz/seeds >/dev/null

# One libFuzzer process per target, as many at once as there are cores: each is single-threaded
# and keeps to its own corpus, log and crash folder, so running them side by side gives each its
# full time and ends the run sooner.
fuzz_target() {
    local target=$1 log=.fuzz/logs/$1.log status=0
    mkdir -p ".fuzz/corpus/$target" ".fuzz/crashes/$target" .fuzz/logs
    # -rss_limit_mb and -timeout turn a memory blow-up or a hang into a kept crash input too.
    "$binary" run "$target" ".fuzz/corpus/$target" ".fuzz/seeds/$target" \
        -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix=".fuzz/crashes/$target/" >"$log" 2>&1 || status=$?
    echo "$status" >".fuzz/logs/$target.status"
}
jobs_at_once=${PLANTLEAF_FUZZ_JOBS:-$(nproc)}
for target in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
    fuzz_target "$target" &
done
wait

failed=()
printf '%-15s %12s %10s %6s %6s %8s  %s\n' target executions exec/s cov ft corpus crashes
for target in "${targets[@]}"; do
    log=.fuzz/logs/$target.log
    status=$(cat ".fuzz/logs/$target.status" 2>/dev/null || echo "not run")
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    # The last status line (DONE, pulse or NEW) carries the coverage reached; -a because the
    # log can hold raw bytes of inputs.
    coverage=$(grep -aE '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$coverage")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$coverage")
    corpus=$(find ".fuzz/corpus/$target" -type f | wc -l)
    crashes=$(find ".fuzz/crashes/$target" -type f | wc -l)
    printf '%-15s %12s %10s %6s %6s %8s  %s\n' "$target" "${executions:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$crashes"
    if [ "$status" != 0 ] || [ "$crashes" -gt 0 ]; then failed+=("$target"); fi
done
if [ ${#failed[@]} -gt 0 ]; then
    for target in "${failed[@]}"; do
        echo "fuzz: $target crashed (exit or kept input); see .fuzz/logs/$target.log and .fuzz/crashes/$target/" >&2
        grep -a -m3 -E 'ERROR: |SUMMARY: |Fatal error' ".fuzz/logs/$target.log" >&2 || true
    done
    exit 1
fi
echo "fuzz: ${#targets[@]} targets, ${seconds} s each, no crash"
