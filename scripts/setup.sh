#!/usr/bin/env bash
# Set-up for PlantLeaf on Debian, Ubuntu and Raspberry Pi OS. Every step checks before it acts,
# so running it again is quick and changes nothing.
#
#   scripts/setup.sh deps      apt packages the build needs (via sudo when not root)
#   scripts/setup.sh runtime   libLiteRt.so from the ai-edge-litert wheel, sha256-verified
#   scripts/setup.sh data      links the models and sample images from ../shared
#   scripts/setup.sh all       all three
#   scripts/setup.sh reference djpeg, and .venv with the reference pipeline's Python packages (make bench only)
#   scripts/setup.sh hardening valgrind and strip for the leak check (make leak-check only)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared=${PLANTLEAF_SHARED:-$root/../shared}

say() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"
    elif command -v sudo >/dev/null; then sudo "$@"
    else die "need root to run: $* (install sudo or run as root)"
    fi
}

# Debian names; Ubuntu's libjpeg-dev pulls libjpeg-turbo8-dev, Debian's libjpeg62-turbo-dev.
apt_packages=(libpng-dev libjpeg-dev pkg-config python3 python3-pip)

deps() {
    apt_install "${apt_packages[@]}"
}

apt_install() {  # apt_install PACKAGE...: installs those not installed yet
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if [ ${#missing[@]} -eq 0 ]; then say "apt packages present"; return; fi
    command -v apt-get >/dev/null || die "missing ${missing[*]} and no apt-get: install them with your package manager"
    say "installing ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# ai-edge-litert 2.3.0, cp311 wheels: libLiteRt.so is byte-identical across the cp310-cp314
# wheels of one architecture, so the cp311 one serves every Python (none is needed at run time).
litert_version=2.3.0
runtime_dir=$root/.runtime
library=$runtime_dir/lib/libLiteRt.so

runtime() {
    local arch platform wheel_sha library_sha
    arch=$(uname -m)
    case "$arch" in
        x86_64)
            platform=manylinux_2_27_x86_64
            wheel_sha=1f15078a6725d2357d9de9221664c29afa0545d807559c5f7199ce5e40b96b23
            library_sha=eec47eb35e2924b3166015887e652a58edc9af823ae38e02bf83bef2548300bb ;;
        aarch64|arm64)
            platform=manylinux_2_27_aarch64
            wheel_sha=853fc608f96da87bd5f3458465dfb9abbf18d5ae6b94eceacead407146f175ae
            library_sha=b57687dc234d2b8b0598aef5a9c961ed24263df8f8b3f56adbee1cff618e544b ;;
        *) die "LiteRT publishes no libLiteRt.so for $arch (x86_64 and aarch64 only; a 32-bit Raspberry Pi OS needs the 64-bit image)" ;;
    esac
    if [ -f "$library" ] && echo "$library_sha  $library" | sha256sum --check --status; then
        say "libLiteRt.so $litert_version present ($arch)"
        return
    fi
    local download=$runtime_dir/download
    mkdir -p "$download" "$runtime_dir/lib"
    local wheel=$download/ai_edge_litert-$litert_version-cp311-cp311-$platform.whl
    if [ ! -f "$wheel" ] || ! echo "$wheel_sha  $wheel" | sha256sum --check --status; then
        say "downloading ai-edge-litert==$litert_version for $arch"
        command -v python3 >/dev/null && python3 -m pip --version >/dev/null 2>&1 || die "pip is missing: run 'make deps' first"
        python3 -m pip download --quiet --no-deps --only-binary=:all: --platform "$platform" \
            --python-version 3.11 "ai-edge-litert==$litert_version" -d "$download"
    fi
    echo "$wheel_sha  $wheel" | sha256sum --check --status || die "$wheel does not have the pinned sha256 $wheel_sha; delete it and retry"
    python3 - "$wheel" "$library.partial" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel, open(sys.argv[2], "wb") as out:
    out.write(wheel.read("ai_edge_litert/libLiteRt.so"))
PY
    echo "$library_sha  $library.partial" | sha256sum --check --status || die "libLiteRt.so from the wheel has an unexpected sha256"
    mv "$library.partial" "$library"
    rm -f "$wheel"
    say "installed $library"
}

link() {  # link TARGET NAME: make NAME a symlink to TARGET unless it already is one
    local target=$1 name=$2
    [ -e "$target" ] || die "$target is missing: PlantLeaf expects the shared data in $shared"
    if [ "$(readlink "$name" 2>/dev/null)" != "$target" ]; then ln -sfn "$target" "$name"; fi
}

data() {
    [ -d "$shared" ] || die "no $shared: set PLANTLEAF_SHARED to the folder holding models/ and samples/"
    shared=$(cd "$shared" && pwd)
    mkdir -p "$root/Models" "$root/samples"
    for model in plantvillage_int8.tflite plantvillage_float.tflite mobilenet_v2_1.0_224_quant.tflite; do
        link "$shared/models/$model" "$root/Models/$model"
    done
    link "$shared/samples/plantvillage" "$root/samples/plantvillage"
    link "$shared/samples/imagenet" "$root/samples/imagenet"
    say "models and samples linked from $shared"
}

# The reference pipeline (../shared/tools/reference_classify.py) needs PIL, numpy and the
# ai_edge_litert interpreter; they live in .venv so the system Python is left alone.
reference_packages=(pillow==11.3.0 numpy==2.2.6 ai-edge-litert==$litert_version)

reference() {
    local venv=$root/.venv
    # djpeg is libjpeg-turbo's own decoder: the benchmark's floor for JPEG decoding.
    if ! command -v djpeg >/dev/null; then
        say "installing libjpeg-turbo-progs (djpeg)"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libjpeg-turbo-progs >/dev/null
    fi
    if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import PIL, numpy, ai_edge_litert" 2>/dev/null; then
        say "reference pipeline packages present in .venv"
        return
    fi
    if ! python3 -m venv --help >/dev/null 2>&1; then
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    fi
    say "installing ${reference_packages[*]} into .venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet "${reference_packages[@]}"
}

case "${1:-all}" in
    deps) deps ;;
    runtime) runtime ;;
    data) data ;;
    reference) reference ;;
    hardening) apt_install valgrind binutils ;;
    all) deps; runtime; data ;;
    *) die "unknown step '$1' (deps, runtime, data, reference, hardening or all)" ;;
esac
