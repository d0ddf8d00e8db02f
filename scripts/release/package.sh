#!/usr/bin/env bash
# Packs a release archive: dist/plantleaf-VERSION-linux-ARCH.tar.gz from a plantleaf binary built
# with the static Swift standard library (`make release` builds it; see the Makefile).
#
#   package.sh ARCH BINARY
#
# The archive holds one folder, plantleaf-VERSION-linux-ARCH/, laid out as an install prefix
# (bin/, share/plantleaf/, share/doc/plantleaf/) so it also runs in place, plus install.sh, fetch-litert.sh and a README.
# File order, owners and times are fixed, so the same inputs give the same bytes.
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: package.sh ARCH BINARY" >&2; exit 2; }
arch=$1 binary=$2
project=$(cd "$(dirname "$0")/../.." && pwd)
version=$(sed -n 's/.*static let version = "\(.*\)"/\1/p' "$project/Sources/PlantLeafCommandLine/ProjectPaths.swift")
[ -n "$version" ] || { echo "package: no version in ProjectPaths.swift" >&2; exit 1; }
name=plantleaf-$version-linux-$arch

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
top=$stage/$name
mkdir -p "$top/bin" "$top/share/plantleaf"
install -m 755 "$binary" "$top/bin/plantleaf"
install -m 644 "$project/Models/plantvillage_int8.tflite" "$project/labels.txt" \
    "$project/Models/mobilenet_v1_0.25_128_quant.tflite" "$project/Models/leaf-reference.txt" \
    "$project/scripts/release/MODEL.md" "$project/packaging/plantleaf-monitor.service" \
    "$project/packaging/plantleaf-monitor.default" "$project/packaging/plantleaf-monitor.logrotate" \
    "$project/packaging/plantleaf-serve.service" "$project/packaging/plantleaf-serve.default" "$top/share/plantleaf/"
mkdir -p "$top/share/doc/plantleaf/docs"
install -m 644 "$project/README.md" "$top/share/doc/plantleaf/"
install -m 644 "$project"/docs/*.md "$top/share/doc/plantleaf/docs/"
install -m 755 "$project/scripts/install.sh" "$project/scripts/fetch-litert.sh" "$top/"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" "$project/scripts/release/README.txt" >"$top/README.txt"

mkdir -p "$project/dist"
epoch=$(git -C "$project" log -1 --format=%ct 2>/dev/null || echo 0)
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -cf - "$name" \
    | gzip -n -9 >"$project/dist/$name.tar.gz"
printf '%s\t%s bytes\n' "dist/$name.tar.gz" "$(stat -c %s "$project/dist/$name.tar.gz")"
