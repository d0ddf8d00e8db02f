#!/usr/bin/env python3
"""Leak and memory-growth check of the classify path: one plantleaf process classifies the sample
leaves many times over with damaged files mixed in, first as it is (resident memory sampled as the
results arrive), then under valgrind (bytes definitely lost at exit).

    leak-check.py BINARY SAMPLES_DIR [--rounds N] [--work DIR] [--no-valgrind]

Exits 1 if valgrind reports any byte definitely lost, if resident memory grows by more than
--max-growth-mb between the first result and the last, or if an input yields no result line."""
import argparse, json, os, shutil, struct, subprocess, sys, time, zlib

def bad_files(folder: str, a_jpeg: bytes) -> list:
    """Damaged inputs a phone gallery or a download folder can hold, written to `folder`."""
    def png_chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    png_signature = b"\x89PNG\r\n\x1a\n"
    def png_header(width, height):
        return png_signature + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    small_png = png_header(2, 2) + png_chunk(b"IDAT", zlib.compress(b"\x00" + b"\x80" * 6 + b"\x00" + b"\x40" * 6)) + png_chunk(b"IEND", b"")
    # A JPEG whose frame header claims 65000 x 65000 pixels: refused before any pixel is allocated.
    frame = a_jpeg.find(b"\xff\xc0")
    bomb_jpeg = a_jpeg[:frame + 5] + struct.pack(">HH", 65000, 65000) + a_jpeg[frame + 9:]
    files = {
        "zero-bytes.jpg": b"",
        "text-as.jpg": b"this is a shopping list, not a photo\n",
        "truncated-half.jpg": a_jpeg[:len(a_jpeg) // 2],
        "truncated-header.jpg": a_jpeg[:300],
        "bit-flipped.jpg": a_jpeg[:2000] + bytes(b ^ 0x5A for b in a_jpeg[2000:2400]) + a_jpeg[2400:],
        "bomb-65000x65000.jpg": bomb_jpeg,
        "bomb-100000x100000.png": png_header(100000, 100000) + png_chunk(b"IDAT", zlib.compress(b"\x00" * 64)),
        "truncated.png": small_png[:40],
        "bad-crc.png": small_png[:30] + b"\x00" + small_png[31:],
        "photo-named.png": a_jpeg,  # mislabelled but whole: must still be classified
        "random.png": bytes((index * 7919 + 13) % 251 for index in range(5000)),
    }
    paths = []
    for name, data in files.items():
        path = os.path.join(folder, name)
        with open(path, "wb") as out:
            out.write(data)
        paths.append(path)
    return paths

def resident_kib(pid: int):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary"); parser.add_argument("samples")
    parser.add_argument("--rounds", type=int, default=13)
    parser.add_argument("--work", default=".fuzz/leak-check")
    parser.add_argument("--max-growth-mb", type=float, default=16)
    parser.add_argument("--no-valgrind", action="store_true")
    options = parser.parse_args()

    samples = sorted(os.path.join(root, name) for root, _, names in os.walk(options.samples, followlinks=True)
                     for name in names if name.lower().endswith((".jpg", ".jpeg", ".png")))
    if not samples:
        sys.exit(f"leak-check: no images under {options.samples} (run `make setup`)")
    os.makedirs(options.work, exist_ok=True)
    bad = bad_files(options.work, open(samples[0], "rb").read())
    inputs = []
    for round_index in range(options.rounds):
        for index, sample in enumerate(samples):
            inputs.append(sample)
            if index % 8 == 7:
                inputs.append(bad[(round_index * len(samples) // 8 + index // 8) % len(bad)])
    bad_count = sum(1 for path in inputs if path in bad)
    refusals_expected = sum(1 for path in inputs if path in bad and not path.endswith("photo-named.png"))
    print(f"leak-check: {len(inputs)} inputs in one process ({len(samples)} samples x {options.rounds}, {bad_count} damaged or mislabelled files mixed in)")
    command = [options.binary, "classify", "--format", "json"] + inputs
    failed = False

    # Resident memory: read from /proc as each result line arrives (plantleaf writes them unbuffered).
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    samples_kib, results, errors = [], 0, 0
    for line in process.stdout:
        results += 1
        errors += "error" in json.loads(line)
        if results == 1 or results % 100 == 0 or results == len(inputs):
            samples_kib.append((results, resident_kib(process.pid)))
    process.wait()
    elapsed = time.monotonic() - start
    readings = [kib for _, kib in samples_kib if kib is not None]
    first, last, peak = readings[0], readings[-1], max(readings)
    print(f"leak-check: {results} result lines ({results - errors} classified, {errors} refused) in {elapsed:.1f} s, exit {process.returncode}")
    print("leak-check: RSS by result line: " + ", ".join(f"{count}: {kib / 1024:.1f}" for count, kib in samples_kib if kib) + " MiB")
    print(f"leak-check: RSS first {first / 1024:.1f} MiB, last {last / 1024:.1f} MiB, peak {peak / 1024:.1f} MiB, growth {(last - first) / 1024:+.1f} MiB")
    # The first hundred images warm the caches and the kept heap up; after that a leak shows as a slope.
    warm = [kib for count, kib in samples_kib if count >= 100 and kib is not None]
    if len(warm) > 1:
        print(f"leak-check: RSS after warm-up (result 100) {warm[0] / 1024:.1f} MiB, last {warm[-1] / 1024:.1f} MiB, growth {(warm[-1] - warm[0]) / 1024:+.1f} MiB")
    sys.stdout.flush()
    if results != len(inputs) or errors != refusals_expected:
        print(f"leak-check: FAILED: expected {len(inputs)} lines with {refusals_expected} refusals", file=sys.stderr)
        failed = True
    if (last - first) / 1024 > options.max_growth_mb:
        print(f"leak-check: FAILED: resident memory grew more than {options.max_growth_mb} MiB", file=sys.stderr)
        failed = True

    if not options.no_valgrind:
        if shutil.which("valgrind") is None:
            sys.exit("leak-check: valgrind is missing: run `scripts/setup.sh hardening`")
        # Valgrind 3.19 cannot read the DWARF 5 the Swift toolchain writes, so it gets a copy without it.
        stripped = os.path.join(options.work, "plantleaf")
        shutil.copy(options.binary, stripped)
        subprocess.run(["strip", "--strip-debug", stripped], check=True)
        log = os.path.join(options.work, "valgrind.log")
        environment = dict(os.environ)
        # The copy no longer sits in the project's .build folder, so it is told where the runtime and model are.
        project = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
        environment.setdefault("PLANTLEAF_LITERT_LIB", os.path.join(project, ".runtime/lib/libLiteRt.so"))
        start = time.monotonic()
        run = subprocess.run(["valgrind", "--leak-check=full", "--show-leak-kinds=definite", f"--log-file={log}",
                              stripped, "classify", "--format", "json",
                              "--model", os.path.join(project, "Models/plantvillage_int8.tflite"),
                              "--labels", os.path.join(project, "labels.txt")] + inputs,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment)
        lines = run.stdout.decode().splitlines()
        summary = [line.split("== ", 1)[-1].strip() for line in open(log) if "lost:" in line or "still reachable:" in line]
        print(f"leak-check: valgrind: {len(lines)} result lines in {time.monotonic() - start:.0f} s; " + "; ".join(summary))
        definitely = [line for line in summary if line.startswith("definitely lost:")]
        if not definitely or not definitely[0].startswith("definitely lost: 0 bytes") or len(lines) != len(inputs):
            print(f"leak-check: FAILED: valgrind found memory definitely lost (or no summary); see {log}", file=sys.stderr)
            failed = True
    sys.exit(1 if failed else 0)

if __name__ == "__main__":
    main()
