#!/usr/bin/env bash
# Puts a verified libLiteRt.so (LiteRT 2.3.0, from the ai-edge-litert wheel on PyPI) at DEST.
# Used by `make setup` and shipped in the release archives as part of their installer, so it
# needs only bash, sha256sum, curl or wget, and python3 or unzip (to open the wheel).
#
#   fetch-litert.sh DEST [ARCH]               download the wheel for ARCH (default: uname -m)
#   fetch-litert.sh DEST [ARCH] --from FILE   use a libLiteRt.so or a wheel already on disk
#
# Nothing unverified is ever left at DEST: the library is checked against its pinned sha256
# before it is moved into place. Re-running with a verified DEST present does nothing.
set -euo pipefail

say() { printf 'fetch-litert: %s\n' "$*" >&2; }
die() { printf 'fetch-litert: error: %s\n' "$*" >&2; exit 1; }

[ $# -ge 1 ] || die "usage: fetch-litert.sh DEST [ARCH] [--from FILE]"
dest=$1; shift
arch=$(uname -m)
if [ $# -ge 1 ] && [ "$1" != "--from" ]; then arch=$1; shift; fi
from=
if [ $# -ge 1 ]; then
    [ "$1" = "--from" ] && [ $# -eq 2 ] || die "usage: fetch-litert.sh DEST [ARCH] [--from FILE]"
    from=$2
fi

# ai-edge-litert 2.3.0, cp311 wheels: libLiteRt.so is byte-identical across the cp310-cp314
# wheels of one architecture, so the cp311 one serves every Python (none is needed at run time).
version=2.3.0
pypi=https://files.pythonhosted.org/packages
case "$arch" in
    x86_64)
        wheel_url=$pypi/65/da/254ec1df4f28ae0d03c410921053b570b116bd917dd64c296bdcc4b5192b/ai_edge_litert-2.3.0-cp311-cp311-manylinux_2_27_x86_64.whl
        wheel_sha=1f15078a6725d2357d9de9221664c29afa0545d807559c5f7199ce5e40b96b23
        library_sha=eec47eb35e2924b3166015887e652a58edc9af823ae38e02bf83bef2548300bb ;;
    aarch64|arm64)
        wheel_url=$pypi/33/68/446c2685f5752eef7891dc8a43ca27bd393461ea0caac7c413587c2f4535/ai_edge_litert-2.3.0-cp311-cp311-manylinux_2_27_aarch64.whl
        wheel_sha=853fc608f96da87bd5f3458465dfb9abbf18d5ae6b94eceacead407146f175ae
        library_sha=b57687dc234d2b8b0598aef5a9c961ed24263df8f8b3f56adbee1cff618e544b ;;
    armv7l|armv6l|armhf|arm*)
        die "this is a 32-bit ARM OS ($arch); LiteRT and PlantLeaf need a 64-bit one (Raspberry Pi OS 64-bit, Debian arm64)" ;;
    *) die "LiteRT publishes no libLiteRt.so for $arch (x86_64 and aarch64 only)" ;;
esac

verified() { [ -f "$1" ] && echo "$2  $1" | sha256sum --check --status; }

if verified "$dest" "$library_sha"; then
    say "libLiteRt.so $version present ($arch): $dest"
    exit 0
fi
mkdir -p "$(dirname "$dest")"
work=$(mktemp -d "$(dirname "$dest")/.fetch-litert.XXXXXX")
trap 'rm -rf "$work"' EXIT

extract() {  # extract WHEEL OUT: the library out of the wheel (a zip file)
    if command -v python3 >/dev/null; then
        python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("ai_edge_litert/libLiteRt.so"))' "$1" "$2"
    elif command -v unzip >/dev/null; then
        unzip -p "$1" ai_edge_litert/libLiteRt.so >"$2"
    else
        die "need python3 or unzip to open the wheel (apt install unzip), or pass --from a libLiteRt.so"
    fi
}

if [ -n "$from" ]; then
    [ -f "$from" ] || die "$from is not a file"
    if verified "$from" "$library_sha"; then cp "$from" "$work/libLiteRt.so"
    elif verified "$from" "$wheel_sha"; then extract "$from" "$work/libLiteRt.so"
    else die "$from is neither libLiteRt.so $version for $arch nor its wheel (sha256 differs from the pinned one)"
    fi
else
    say "downloading ai-edge-litert $version for $arch from PyPI"
    wheel=$work/litert.whl
    if command -v curl >/dev/null; then curl -fsSL --retry 3 -o "$wheel" "$wheel_url"
    elif command -v wget >/dev/null; then wget -q -O "$wheel" "$wheel_url"
    else die "need curl or wget to download $wheel_url (or pass --from a libLiteRt.so)"
    fi || die "download of $wheel_url failed"
    verified "$wheel" "$wheel_sha" || die "the downloaded wheel does not have the pinned sha256 $wheel_sha"
    extract "$wheel" "$work/libLiteRt.so"
fi
verified "$work/libLiteRt.so" "$library_sha" || die "libLiteRt.so from the wheel has an unexpected sha256"
chmod 644 "$work/libLiteRt.so"
mv "$work/libLiteRt.so" "$dest"
say "installed $dest"
