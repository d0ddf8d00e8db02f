#!/usr/bin/env bash
# make bench, camera part: the frame -> model-input path `plantleaf camera` uses, timed on
# 640x480 YUYV and MJPEG frames made from a sample leaf, side by side with invoke and with
# libjpeg-turbo alone decoding the MJPEG frame at the same DCT scale, in one process (release
# build). Floors: YUYV <= 0.30 ms a frame, MJPEG <= 1.3x libjpeg-turbo's own decode; the script
# exits 1 when one is missed. Then the frame age (driver timestamp -> scores) measured inside the
# camera fixture, where everything runs emulated (QEMU TCG), so it is many times the age on real
# hardware.
set -euo pipefail
cd "$(dirname "$0")/../.."

binary=.build/release/plantleaf
sample="samples/plantvillage/Apple___Apple_scab/00075aa8-d81a-4184-8541-b692b78d398a___FREC_Scab 3335.JPG"
shared=${PLANTLEAF_SHARED:-../shared}
fixture=$(cd "$shared" 2>/dev/null && pwd)/tools/camera-fixture/camera-fixture.sh

echo "== camera: frame -> model input vs invoke ($(uname -m), $(nproc) cores)"
report=$("$binary" camera --bench-frames "$sample" --size 640x480 --iterations 300)
echo "$report"
median() { sed -n "s/^  $1.*median \([0-9.]*\) ms.*/\1/p" <<<"$report"; }
missed=0
verdict() {  # verdict NAME VALUE FLOOR UNIT
    if awk -v value="$2" -v floor="$3" 'BEGIN { exit !(value <= floor) }'; then
        echo "  PASS  $1: $2$4 (floor <= $3$4)"
    else
        echo "  FAIL  $1: $2$4 (floor <= $3$4)"
        missed=1
    fi
}
floor_ms=$(sed -n 's/^  libjpeg-turbo alone on the MJPEG frame (the floor): median \([0-9.]*\) ms.*/\1/p' <<<"$report")
verdict "YUYV frame -> model input" "$(median YUYV)" 0.30 " ms"
verdict "MJPEG frame -> model input / libjpeg-turbo alone" "$(awk -v a="$(median MJPEG)" -v b="$floor_ms" 'BEGIN { printf "%.2f", a / b }')" 1.3 "x"

if [ ! -x "$fixture" ]; then
    echo "== camera: no camera fixture at $fixture, frame age in the fixture not measured"
    exit "$missed"
fi
echo "== camera: frame age inside the camera fixture (vivid, YUYV 256x256, emulated CPU)"
workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT
binary_path=$(pwd)/$binary sample_path=$(pwd)/$sample
if ! (cd "$workdir" && "$fixture" -s 256x256 -i "$sample_path" -- \
        sh -c "'$binary_path' camera --size 256x256 --frames 10 --format json > frames.json") >"$workdir/fixture.log" 2>&1; then
    cat "$workdir/fixture.log" >&2
    echo "camera fixture run failed (log above)" >&2
    exit 1
fi
summary=$(grep '"summary"' "$workdir/frames.json")
echo "  $summary"
sed -n 's/.*"age_median_ms": \([0-9.]*\), "age_p99_ms": \([0-9.]*\).*/  frame age in the fixture: median \1 ms, p99 \2 ms/p' <<<"$summary"
grep -o '"invoke": [0-9.]*' "$workdir/frames.json" | awk '{ sum += $2; n++ } END { if (n) printf "  invoke in the fixture: mean %.1f ms over %d frames\n", sum / n, n }'
exit "$missed"
