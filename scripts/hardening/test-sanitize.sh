#!/usr/bin/env bash
# The test suite built with AddressSanitizer (LeakSanitizer included) for Swift and the C shims,
# plus UndefinedBehaviorSanitizer for the C shims (swiftc offers no -sanitize=undefined on Linux;
# Swift's own overflow and bounds checks trap in these debug builds), then a short fuzz run of
# every target. The CLI tests run the sanitized plantleaf binary, so it is checked too.
#
#   scripts/hardening/test-sanitize.sh [FUZZ_SECONDS]      (make test-sanitize; default 15)
set -euo pipefail
cd "$(dirname "$0")/../.."
swift=${SWIFT:-swift}
fuzz_seconds=${1:-15}
sanitize=(--scratch-path .build-sanitize --sanitize address
          -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined)
# Leak checking at exit is ASan's default on Linux; said here so an inherited setting cannot drop it.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/hardening/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export PLANTLEAF_BIN=$PWD/.build-sanitize/debug/plantleaf PLANTLEAF_SANITIZER=address

start=$SECONDS
"$swift" build --build-tests "${sanitize[@]}"
# The generalist check's reference, as make test makes it, so that this target also runs alone
# from a fresh clone (present already, it is kept).
scripts/setup.sh leaf-reference "$PLANTLEAF_BIN"
# Of the camera fixture's scenarios (run in one VM boot), the YUYV one is kept: it drives every
# V4L2 path (negotiation, mmap streaming, faults, unplug); so is the black frame and test
# pattern one (the verdicts on a real driver's frames, vivid reloaded). The others
# repeat those paths with other drivers or CLI options whose code the rest of the suite already
# runs sanitized (MJPEG frames, --every, --log and --input streams, the preview renderer); they
# run unsanitized in make test, and leaving them out here keeps CI's whole run inside its limit.
# The two 120-megapixel images run only in make test-perf (PLANTLEAF_TEST_FLOORS=1): they go
# through the same decoder, resizer and budget code as every other image the suite decodes
# sanitized, only for longer (four minutes here), and what they measure, peak memory, ASan's
# shadow memory and quarantine would swamp.
# The tests that drive Chromium (each says "Browser" or "browser" in its suite's or its own
# name) run it, not sanitized itself, beside the sanitized suite: the server code they reach runs
# sanitized in the HTTP and camera-route tests, and the browser's load starved the MQTT tests'
# TLS handshakes and acknowledgements here.
PLANTLEAF_CAMERA_SCENARIOS=yuyv,black "$swift" test --skip-build "${sanitize[@]}" --skip mjpegThroughLoopback --skip alternatingLeavesThroughUnpatchedLoopback \
    --skip everyIntervalWaitsForAnUnpluggedCamera --skip previewInTmuxShowsTheLeaf --skip '[Bb]rowser'
echo "test-sanitize: sanitized build and tests took $((SECONDS - start)) s"

make --no-print-directory fuzz-build
scripts/hardening/fuzz.sh "$fuzz_seconds"
echo "test-sanitize: done in $((SECONDS - start)) s"
