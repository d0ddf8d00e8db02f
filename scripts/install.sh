#!/usr/bin/env bash
# Installs plantleaf with its default model, labels and libLiteRt.so into a prefix, in the places
# the binary looks for them (it finds them relative to itself, so any prefix works):
#
#   PREFIX/bin/plantleaf
#   PREFIX/lib/plantleaf/libLiteRt.so
#   PREFIX/share/plantleaf/plantvillage_int8.tflite, labels.txt (always installed as a pair)
#   PREFIX/share/plantleaf/mobilenet_v1_0.25_128_quant.tflite, leaf-reference.txt (the generalist
#     check's model and the leaf reference make setup made from the sample leaves)
#   PREFIX/lib/systemd/system/plantleaf-monitor.service (the greenhouse monitor, see docs/camera.md)
#   and plantleaf-serve.service (the web page and API, see docs/serve.md),
#   PREFIX/share/plantleaf/plantleaf-monitor.default, plantleaf-monitor.logrotate, plantleaf-serve.default
#   PREFIX/share/doc/plantleaf/README.md and docs/*.md (the units' Documentation= name docs/camera.md, docs/serve.md)
#
#   install.sh [--prefix DIR] [--binary FILE] [--litert FILE]   install (default prefix /usr/local)
#   install.sh --uninstall [--prefix DIR]                        remove what install put there
#   --destdir DIR   stage the files under DIR (for packaging); paths written into them keep PREFIX
#
# The same script runs in a project checkout (`make install`: the release build, Models/ and the
# verified .runtime/) and in an unpacked release archive (bin/, share/, and libLiteRt.so
# downloaded and checked against its pinned sha256 by fetch-litert.sh, or taken from --litert).
set -euo pipefail

say() { printf 'install: %s\n' "$*" >&2; }
die() { printf 'install: error: %s\n' "$*" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
prefix=/usr/local destdir= binary= litert= uninstall=false
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || die "--prefix needs a folder"; prefix=$2; shift 2 ;;
        --destdir) [ $# -ge 2 ] || die "--destdir needs a folder"; destdir=$2; shift 2 ;;
        --binary) [ $# -ge 2 ] || die "--binary needs a file"; binary=$2; shift 2 ;;
        --litert) [ $# -ge 2 ] || die "--litert needs a libLiteRt.so or its wheel"; litert=$2; shift 2 ;;
        --uninstall) uninstall=true; shift ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
done
case "$prefix" in /*) ;; *) prefix=$(pwd)/$prefix ;; esac

bin_file=$destdir$prefix/bin/plantleaf
lib_dir=$destdir$prefix/lib/plantleaf
data_dir=$destdir$prefix/share/plantleaf
doc_dir=$destdir$prefix/share/doc/plantleaf
unit_dir=$destdir$prefix/lib/systemd/system
units=(plantleaf-monitor.service plantleaf-serve.service)

if $uninstall; then
    rm -f "$bin_file" "${units[@]/#/$unit_dir/}"
    rm -rf "$lib_dir" "$data_dir" "$doc_dir"
    rmdir --ignore-fail-on-non-empty "$unit_dir" "$destdir$prefix/lib/systemd" "$(dirname "$doc_dir")" 2>/dev/null || true
    say "removed plantleaf from $destdir$prefix"
    exit 0
fi

if [ -f "$here/bin/plantleaf" ]; then  # an unpacked release archive
    : "${binary:=$here/bin/plantleaf}"
    model=$here/share/plantleaf/plantvillage_int8.tflite
    labels=$here/share/plantleaf/labels.txt
    generalist=$here/share/plantleaf/mobilenet_v1_0.25_128_quant.tflite
    reference=$here/share/plantleaf/leaf-reference.txt
    extras=("$here/share/plantleaf/MODEL.md")
    packaging=$here/share/plantleaf
    documents=$here/share/doc/plantleaf
    fetch=$here/fetch-litert.sh
else                                   # a project checkout
    project=$(cd "$here/.." && pwd)
    : "${binary:=$project/.build/release/plantleaf}"
    model=$project/Models/plantvillage_int8.tflite
    labels=$project/labels.txt
    generalist=$project/Models/mobilenet_v1_0.25_128_quant.tflite
    reference=$project/Models/leaf-reference.txt
    extras=("$project/scripts/release/MODEL.md")
    packaging=$project/packaging
    documents=$project
    fetch=$project/scripts/fetch-litert.sh
    [ -n "$litert" ] || litert=$project/.runtime/lib/libLiteRt.so
fi
for file in "$binary" "$model" "$labels" "$generalist" "$reference" "$documents/README.md" "$documents/docs/camera.md" "$documents/docs/serve.md"; do
    [ -f "$file" ] || die "$file is missing (in a checkout, run 'make build' first)"
done

mkdir -p "$(dirname "$bin_file")" "$lib_dir" "$data_dir" "$doc_dir/docs"
install -m 755 "$binary" "$bin_file"
install -m 644 "$model" "$labels" "$generalist" "$reference" "${extras[@]}" "$data_dir/"
install -m 644 "$packaging/plantleaf-monitor.default" "$packaging/plantleaf-monitor.logrotate" "$packaging/plantleaf-serve.default" \
    "$data_dir/"
# The README and docs/ keep their layout, so the links between them hold.
install -m 644 "$documents/README.md" "$doc_dir/"
install -m 644 "$documents"/docs/*.md "$doc_dir/docs/"
# The units name the binary where it will run from: PREFIX, without the staging folder.
mkdir -p "$unit_dir"
for unit in "${units[@]}"; do
    sed -e "s|@BINDIR@|$prefix/bin|g" -e "s|@DOCDIR@|$prefix/share/doc/plantleaf|g" "$packaging/$unit" >"$unit_dir/$unit"
    chmod 644 "$unit_dir/$unit"
done
if [ -n "$litert" ]; then
    "$fetch" "$lib_dir/libLiteRt.so" "$(uname -m)" --from "$litert"
else
    "$fetch" "$lib_dir/libLiteRt.so"
fi
say "installed $bin_file (models, labels and leaf reference in $data_dir, libLiteRt.so in $lib_dir)"
