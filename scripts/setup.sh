#!/usr/bin/env bash
# Set-up for PlantLeaf on Debian, Ubuntu and Raspberry Pi OS. Every step checks before it acts,
# so running it again is quick and changes nothing.
#
#   scripts/setup.sh deps      apt packages the build and tests need (via sudo when not root), Swift from apt if missing
#   scripts/setup.sh runtime   libLiteRt.so from the ai-edge-litert wheel, sha256-verified
#   scripts/setup.sh data      links the models and sample images from ../shared
#   scripts/setup.sh all       all three (several steps may be named: setup.sh data runtime)
#   scripts/setup.sh reference djpeg, and .venv with the reference pipeline's Python packages (make test's parity
#                              tests and make bench)
#   scripts/setup.sh photos    reference, scikit-image in .venv, and the photo sets of scripts/verdicts/photos.tsv
#                              (make verdicts only)
#   scripts/setup.sh leaf-reference BINARY
#                              Models/leaf-reference.txt, the generalist check's reference, made by BINARY
#                              (plantleaf calibrate) from the sample leaves; again when they or the model change
#   scripts/setup.sh hardening valgrind and strip for the leak check (make leak-check only)
#   scripts/setup.sh browser   chromium, headless, for the tests of bench compare --html's page and
#                              serve's page (make test), with chromium-driver, python3-selenium and
#                              fonts-noto-core (Arabic glyphs, as a phone has them, for the Arabic page)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared=${PLANTLEAF_SHARED:-$root/../shared}
# The generalist model the second opinion runs (ProjectPaths.generalistModelFile; docs/verdicts.md
# says how it was chosen).
generalist_model=mobilenet_v1_0.25_128_quant.tflite

say() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"
    elif command -v sudo >/dev/null; then sudo "$@"
    else die "need root to run: $* (install sudo or run as root)"
    fi
}

# Debian names; Ubuntu's libjpeg-dev pulls libjpeg-turbo8-dev, Debian's libjpeg62-turbo-dev.
# libmosquitto1 is opened at run time for MQTT publishing; mosquitto and mosquitto-clients are the
# broker and reader the MQTT tests start for themselves (on a free port, not the service's 1883).
# libmicrohttpd12 is opened at run time by `plantleaf serve` (Debian 13 and Ubuntu 24.04 call it
# libmicrohttpd12t64, after the 64-bit time_t transition); python3-selenium and chromium-driver
# drive the browser in the serve page's test.
# tmux: the camera fixture test of --preview runs plantleaf in a tmux pane (the fixture's VM
# runs the host's binaries, so it must be on the host).
# ffmpeg makes the motion-JPEG streams the camera --input tests pipe in; systemd brings
# systemd-analyze, which checks the monitor's unit file.
apt_packages=(libpng-dev libjpeg-dev pkg-config python3 curl mosquitto mosquitto-clients libmosquitto1 ffmpeg systemd tmux)

# The name this release of the OS gives libmicrohttpd's ABI-12 package.
microhttpd_package() {
    if apt-cache show libmicrohttpd12t64 >/dev/null 2>&1; then echo libmicrohttpd12t64; else echo libmicrohttpd12; fi
}

deps() {
    case "$(uname -m)" in
        armv6l|armv7l|armhf|arm) die "this is a 32-bit ARM OS ($(uname -m)): LiteRT and Swift need a 64-bit one; install Raspberry Pi OS (64-bit) or Debian arm64" ;;
    esac
    apt_install "${apt_packages[@]}" "$(microhttpd_package)"
    swift_toolchain
}

# Swift 6.0 or later. Debian 13 and Raspberry Pi OS Trixie ship it as `swiftlang`; elsewhere it
# comes from swift.org, which this script does not fetch (an unpinned toolchain of 500+ MB).
swift_toolchain() {
    if command -v swift >/dev/null; then
        local version
        version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\)\..*/\1/p' | head -1)
        [ "${version:-0}" -ge 6 ] || die "swift is $(swift --version 2>/dev/null | head -1); PlantLeaf needs Swift 6.0 or later (https://www.swift.org/install/linux/)"
        return
    fi
    local candidate=
    if command -v apt-get >/dev/null; then
        as_root apt-get update -qq
        candidate=$(apt-cache policy swiftlang 2>/dev/null | sed -n 's/^ *Candidate: \([0-9]*\)\..*/\1/p')
    fi
    if [ "${candidate:-0}" -ge 6 ]; then
        apt_install swiftlang
    else
        die "no Swift found and apt offers no swiftlang 6.0+ here: install Swift 6.0 or later from https://www.swift.org/install/linux/ (Debian 13 and Raspberry Pi OS Trixie have it as 'apt install swiftlang'), then re-run"
    fi
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

library=$root/.runtime/lib/libLiteRt.so

runtime() {
    "$root/scripts/fetch-litert.sh" "$library"
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
    # The generalist the second opinion runs, and the one it replaced (kept for the tests of a
    # uint8 MobileNetV2 resized to a smaller input).
    for model in plantvillage_int8.tflite plantvillage_float.tflite "$generalist_model" mobilenet_v2_1.0_224_quant.tflite; do
        link "$shared/models/$model" "$root/Models/$model"
    done
    link "$shared/samples/plantvillage" "$root/samples/plantvillage"
    link "$shared/samples/imagenet" "$root/samples/imagenet"
    say "models and samples linked from $shared"
}

# The reference pipeline (../shared/tools/reference_classify.py) needs PIL, numpy and the
# ai_edge_litert interpreter; they live in .venv so the system Python is left alone. Pillow
# 13.0.0 chooses the order of the resize's two passes from the sizes (11.x always ran the
# horizontal one first), and PlantLeaf's resize follows 13.0.0.
reference_packages=(pillow==13.0.0 numpy==2.2.6 ai-edge-litert==2.3.0)

reference() {
    local venv=$root/.venv
    # djpeg is libjpeg-turbo's own decoder: the benchmark's floor for JPEG decoding.
    if ! command -v djpeg >/dev/null; then
        say "installing libjpeg-turbo-progs (djpeg)"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libjpeg-turbo-progs >/dev/null
    fi
    if [ -x "$venv/bin/python" ]; then
        local installed missing=0
        installed=$("$venv/bin/python" -m pip freeze 2>/dev/null)
        for package in "${reference_packages[@]}"; do
            grep -qix "$package" <<<"$installed" || missing=1
        done
        if [ "$missing" = 0 ]; then
            say "reference pipeline packages present in .venv"
            return
        fi
    fi
    if ! python3 -m venv --help >/dev/null 2>&1; then
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    fi
    say "installing ${reference_packages[*]} into .venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet "${reference_packages[@]}"
}

# make verdicts needs photos without plants: scikit-image ships 26 in skimage/data, and the
# verdict thresholds were measured on those of this version (docs/verdicts.md).
leaf_reference() {
    local binary=$1 target=$root/Models/leaf-reference.txt
    [ -x "$binary" ] || die "no $binary to make the leaf reference with: build plantleaf first"
    # Derived from third-party photos, so made here and never committed.
    # Made again in the current format too (its input line says the side it was made at), and
    # for another generalist than the one it was made with (its generalist line names it).
    if [ -f "$target" ] && [ "$(head -n 1 "$target")" = "plantleaf-leaf-reference 3" ] \
        && grep -q "^generalist $generalist_model " "$target" \
        && [ "$target" -nt "$root/Models/$generalist_model" ] \
        && [ -z "$(find -L "$root/samples/plantvillage" -newer "$target" -print -quit)" ]; then
        say "leaf reference present in Models/"
        return
    fi
    "$binary" calibrate --output "$target" "$root/samples/plantvillage" >/dev/null \
        || die "could not make $target from samples/plantvillage (see the line above)"
    say "made Models/leaf-reference.txt from the sample leaves"
}

photos() {
    reference
    if "$root/.venv/bin/python" -c "import skimage" 2>/dev/null; then
        say "scikit-image present in .venv"
    else
        say "installing scikit-image==0.26.0 into .venv"
        "$root/.venv/bin/python" -m pip install --quiet scikit-image==0.26.0
    fi
    bash "$root/scripts/verdicts/fetch-photos.sh"
}

# `leaf-reference BINARY` takes the binary to make it with.
if [ "${1:-}" = leaf-reference ]; then
    [ $# -eq 2 ] || die "usage: setup.sh leaf-reference BINARY"
    leaf_reference "$2"
    exit 0
fi

# Each step named, in order (`setup.sh data runtime`); every name is checked before any step runs.
for step in "${@:-all}"; do
    case "$step" in
        deps|runtime|data|reference|photos|hardening|browser|all) ;;
        *) die "unknown step '$step' (deps, runtime, data, reference, photos, hardening, browser or all)" ;;
    esac
done
for step in "${@:-all}"; do
    case "$step" in
        deps) deps ;;
        runtime) runtime ;;
        data) data ;;
        reference) reference ;;
        photos) photos ;;
        hardening) apt_install valgrind binutils ;;
        browser) apt_install chromium chromium-driver python3-selenium fonts-noto-core ;;
        all) deps; runtime; data ;;
    esac
done
