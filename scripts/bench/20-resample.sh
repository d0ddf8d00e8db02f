#!/usr/bin/env bash
# make bench, resize part: the camera's frame -> model-input path timed with each resize kernel
# set this CPU runs (PLANTLEAF_RESAMPLE_KERNELS forces one), side by side with libjpeg-turbo
# alone on the MJPEG frame, each set's time also as a ratio to the portable Swift loops'. The
# sets give the same pixels (the tests check that); only the time differs.
set -euo pipefail
cd "$(dirname "$0")/../.."

binary=.build/release/plantleaf
sample="samples/plantvillage/Apple___Apple_scab/00075aa8-d81a-4184-8541-b692b78d398a___FREC_Scab 3335.JPG"
case "$(uname -m)" in
    x86_64)
        sets=(portable sse4.1 avx2)
        # The AVX-512 set's horizontal pass needs all five (a set the CPU lacks is not forced:
        # the fastest it has would run under that set's name).
        flags=$(grep -m1 '^flags' /proc/cpuinfo)
        if [[ " $flags " =~ \ avx512f\  && " $flags " =~ \ avx512bw\  && " $flags " =~ \ avx512vl\  &&
              " $flags " =~ \ avx512vbmi\  && " $flags " =~ \ avx512_vnni\  ]]; then
            sets+=(avx512)
        fi
        ;;
    aarch64) sets=(portable neon) ;;
    *) sets=(portable) ;;
esac

echo "== resize kernels: 640x480 frame -> model input ($(uname -m), $(nproc) cores; loaded machine: compare ratios)"
printf '  %-9s %10s %10s %14s %10s %10s\n' set "YUYV ms" "MJPEG ms" "MJPEG/decode" "YUYV/port" "MJPEG/port"
portable_yuyv="" portable_mjpeg=""
for set in "${sets[@]}"; do
    report=$(PLANTLEAF_RESAMPLE_KERNELS=$set "$binary" camera --bench-frames "$sample" --size 640x480 --iterations 300)
    median() { sed -n "s/^  $1.*median \([0-9.]*\) ms.*/\1/p" <<<"$report"; }
    yuyv=$(median YUYV) mjpeg=$(median MJPEG)
    decode=$(sed -n 's/^  libjpeg-turbo alone on the MJPEG frame (the floor): median \([0-9.]*\) ms.*/\1/p' <<<"$report")
    : "${portable_yuyv:=$yuyv}" "${portable_mjpeg:=$mjpeg}"
    awk -v set="$set" -v y="$yuyv" -v m="$mjpeg" -v d="$decode" -v py="$portable_yuyv" -v pm="$portable_mjpeg" \
        'BEGIN { printf "  %-9s %10.3f %10.3f %13.2fx %9.2fx %9.2fx\n", set, y, m, m / d, y / py, m / pm }'
done
