#!/usr/bin/env bash
# PlantLeaf for aarch64, built with the Swift 6.0.3 a Raspberry Pi OS Trixie or Debian 13 user
# gets from apt and checked under qemu-user in an emulated Debian 13 root.
#
#   run.sh test      make test-aarch64: one debug build of PlantLeaf and its tests, cross-compiled
#                    by Debian's amd64 Swift 6.0.3 against the arm64 root, then the test suite,
#                    parity with the x86_64 build on the samples, bench beside the x86_64 report,
#                    all run in the arm64 root
#   run.sh build     the same cross-compiled debug build, tests included, and nothing else: the
#                    quick check that a change builds with Swift 6.0.3
#   run.sh release   make release: the release build (static Swift standard library, stripped),
#                    dist/plantleaf-VERSION-linux-aarch64.tar.gz, and that archive installed and
#                    used in a root without Swift
#
# Needs root (debootstrap, chroot, mounts) and the x86_64 release build (the Makefile builds it).
set -euo pipefail
source "$(dirname "$0")/common.sh"

mode=${1:-test}
case "$mode" in test|build|release) ;; *) die "unknown mode '$mode' (test, build or release)" ;; esac
[ "$(id -u)" -eq 0 ] || die "needs root for debootstrap, chroot and mounts (run it with sudo)"

results=$project/$scratch/results
host_bin=$project/.build/release/plantleaf
started=$SECONDS
step_started=$SECONDS
step() {
    printf 'aarch64: [%ds] %s\n' $((SECONDS - started)) "$*" >&2
    step_started=$SECONDS
}

step "host tools, the build root and the aarch64 libLiteRt.so"
host_tools
ensure_build_root
ensure_runtime
mkdir -p "$results"

swift_version=$(in_root "$build_root" -- swift --version 2>/dev/null | sed -n 's/.*Swift version \([^ ]*\).*/\1/p' | head -1)
if [ "$mode" = release ]; then
    step "release build with Swift $swift_version (static Swift standard library)"
    aarch64_release_build
    "$project/scripts/release/package.sh" aarch64 "$project/$release_scratch/release/plantleaf"
    step "release archive in an arm64 root without Swift, beside the x86_64 release build"
    x86_release_bin=$project/.build-static/release/plantleaf
    [ -x "$x86_release_bin" ] || die "no x86_64 release build at $x86_release_bin: run 'make release'"
    (cd "$project" && "$x86_release_bin" classify --format json samples/plantvillage) >"$results/classify-x86_64-release.jsonl"
    ensure_minimal_root
    archive=$(ls "$project"/dist/plantleaf-*-linux-aarch64.tar.gz)
    trial=$(mktemp -d)
    trap 'rm -rf "$trial"' EXIT
    mkdir -p "$trial/archive" "$trial/prefix" "$trial/out"
    tar -C "$trial/archive" -xzf "$archive"
    # Installed into /usr/local (a scratch folder bound there, so the cached root stays clean) with
    # the verified libLiteRt.so, then run by an unprivileged user from another folder.
    in_root "$minimal_root" --bind "$trial/archive" /opt/archive --bind "$trial/prefix" /usr/local \
        --bind "$runtime_cache/lib" /opt/litert --bind "$(shared_folder)/samples/plantvillage" /samples/plantvillage \
        -- bash -c 'set -e
            ! command -v swift >/dev/null
            /opt/archive/plantleaf-*/install.sh --litert /opt/litert/libLiteRt.so
            cd /
            setpriv --reuid=65534 --regid=65534 --clear-groups plantleaf classify --format json /samples/plantvillage' \
        >"$results/classify-release-aarch64.jsonl"
    python3 "$aarch64_dir/parity.py" "$results/classify-x86_64-release.jsonl" "$results/classify-release-aarch64.jsonl"

    # Every mount was made in a namespace that is gone by now; none may be visible here.
    if grep -q " $cache/" /proc/self/mounts; then die "mounts under $cache were left behind"; fi
    step "done"
    exit 0
fi

step "the cross root"
ensure_cross_root
same_swift_in_both_roots

step "debug build with Swift $swift_version for aarch64 in the cross root, tests included"
# One build serves the tests, parity and bench (its numbers are ratios under emulation anyway);
# make release builds and checks the optimised binary. The sysroot has no SDKSettings.json, which
# only Darwin SDKs carry; swiftc's warning about it for every module is dropped.
in_cross_root "set -o pipefail; swift build --scratch-path $scratch $test_build_flags $cross_build_flags --build-tests 2>&1 \
    | sed '/warning: Could not read SDKSettings.json/d'" || die "the cross build in $cross_root failed (its output is above)"
if [ "$mode" = build ]; then
    step "done: built with Swift $swift_version"
    exit 0
fi

step "test suite"
# The V4L2 device tests need the kernel's V4L2 ioctls, and qemu-user does not pass them through,
# so they run on x86_64 only.
echo "aarch64: skipped: PlantLeafCameraTests (capture through the camera fixture's V4L2 drivers): qemu-user has no V4L2 ioctls" >&2
# HostileImageTests assert CPU-time and wall-time budgets and decode 120-megapixel images: under
# qemu-user they measure the emulator, not PlantLeaf, so they run on x86_64 only.
# So does the RLIMIT_NPROC test: qemu-user's own threads count against the limit, and the mqtts://
# back-off test, whose 5 s, 2.5 s CPU and 7 s budgets include setting up the leaf and generalist
# models (emulated: 6 s to "cannot connect", 2.7 s CPU, 8 s in all, alone on an idle machine).
# ServeHostileTests measure the server's memory, CPU and answer times under attack: under
# qemu-user they measure the emulator (its own resident memory alone is tens of megabytes), so
# their floors hold for native builds only. The slow-client test's 2 s budget likewise, and bench
# compare's 90 s on 40,000 thread counts and 200,000 op types (7.5 s natively, 90 s emulated alone).
echo "aarch64: skipped: ServeHostileTests, slowClientsNeitherBlockOthersNorStay and compareBoundsTheRowsItShows" \
    "(memory, CPU and time floors that measure the emulator under qemu-user)" >&2
# The two progress-line tests need script(1) to give plantleaf a pseudo-terminal; Debian 13's
# (util-linux 2.41) runs the command without one when its own stdin is not a terminal.
echo "aarch64: skipped: HostileImageTests, threadLimitBelowTheThreadsAskedForIsASetupError and tlsToARefusingPortBacksOffAndSaysSoPromptly" \
    "(time and thread budgets that measure the emulator, not PlantLeaf); progressLineOnlyWhenStderrIsATerminal" \
    "and noProgressLineOnADumbTerminal (Debian 13's script(1) gives no terminal without one on stdin)" >&2
# Two tests need programs whose work is the same on every architecture and that the build root
# (debootstrap minbase) leaves out: systemd-analyze checks the unit file's text, and ffmpeg
# only makes a motion-JPEG stream (the other --input tests read streams the tests write).
echo "aarch64: skipped: systemdUnitIsInstalledAndVerifies and serveUnitWithItsTokenCredentialVerifies (no systemd in the root; the units are text)" \
    "and ffmpegStreamOfALeafIsClassifiedToTheEnd (no ffmpeg in the root; the other stream tests run)" >&2
# Likewise Chromium: bench compare --html's page and serve's pages are the same text on every
# architecture, so the browser's look at them runs on x86_64 only; the pages' escaping, the
# server's routes and refusals are tested here too. Every test that drives Chromium says so in
# its suite's or its own name ("Browser" or "browser"), so one pattern skips them all.
echo "aarch64: skipped: every test named for the browser (no chromium in the root; the pages are text)" >&2
# Three suites check on every sample, or on hundreds of model runs, what the steps after this one
# check on aarch64 more directly, and take a third of the emulated run: the int8 outputs against
# the reference pipeline's (the parity step holds every sample's top-3 to x86_64's, which these
# hold to the reference; the resizer's NEON and portable paths are held to Pillow's arithmetic by
# the unit tests here), and bench's runs and reports (the bench step runs it and compares).
echo "aarch64: skipped: ReferenceParityTests, int8ModelGetsTheSamplesRightAndMatchesTheReferenceOutputs and BenchCommandTests" \
    "(the parity and bench steps check the same on aarch64)" >&2
in_build_root "PLANTLEAF_BIN=$project/$test_bin swift test --scratch-path $scratch $test_build_flags --skip-build \
        --skip PlantLeafCameraTests \
        --skip HostileImageTests --skip threadLimitBelowTheThreadsAskedForIsASetupError \
        --skip tlsToARefusingPortBacksOffAndSaysSoPromptly --skip ServeHostileTests --skip slowClientsNeitherBlockOthersNorStay \
        --skip compareBoundsTheRowsItShows \
        --skip progressLineOnlyWhenStderrIsATerminal --skip noProgressLineOnADumbTerminal \
        --skip systemdUnitIsInstalledAndVerifies --skip serveUnitWithItsTokenCredentialVerifies \
        --skip ffmpegStreamOfALeafIsClassifiedToTheEnd \
        --skip '[Bb]rowser' \
        --skip ReferenceParityTests --skip int8ModelGetsTheSamplesRightAndMatchesTheReferenceOutputs --skip BenchCommandTests"

step "parity: aarch64 and x86_64 classify the samples"
[ -x "$host_bin" ] || die "no x86_64 release build at $host_bin: run 'make build' first"
(cd "$project" && "$host_bin" classify --format json samples/plantvillage) >"$results/classify-x86_64.jsonl"
in_build_root "$test_bin classify --format json samples/plantvillage" >"$results/classify-aarch64.jsonl"
python3 "$aarch64_dir/parity.py" "$results/classify-x86_64.jsonl" "$results/classify-aarch64.jsonl"

step "bench: the aarch64 build's report beside the x86_64 one"
(cd "$project" && "$host_bin" bench --runs 5 --json "$results/bench-x86_64.json" >/dev/null 2>&1)
in_build_root "$test_bin bench --runs 5 --json $results/bench-aarch64.json >/dev/null 2>&1"
python3 - "$results/bench-aarch64.json" <<'PY'
import json, sys
machine = json.load(open(sys.argv[1]))["machine"]
board = machine["board"]
if machine["architecture"] != "aarch64" or not board.startswith("Raspberry Pi 5"):
    sys.exit(f"aarch64: error: the aarch64 bench report says {machine['architecture']}, board {board!r}, not a Raspberry Pi 5")
print(f"aarch64: the aarch64 bench reports {board}, {machine['cpu_model']}", file=sys.stderr)
PY
"$host_bin" bench compare "$results/bench-x86_64.json" "$results/bench-aarch64.json" | tee "$results/bench-compare.txt"
grep -q "Raspberry Pi 5" "$results/bench-compare.txt" || die "bench compare does not show the Raspberry Pi 5 report"

# Every mount was made in a namespace that is gone by now; none may be visible here.
if grep -q " $cache/" /proc/self/mounts; then die "mounts under $cache were left behind"; fi
step "done"
