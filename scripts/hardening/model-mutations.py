#!/usr/bin/env python3
"""Feeds plantleaf truncated and bit-flipped copies of a .tflite model, each in its own process,
and tallies what happened: a clean refusal (exit 2 with one line), a classification, or a crash.

    model-mutations.py BINARY MODEL IMAGE [--flips N] [--seed S] [--keep DIR]

The mutations are made from MODEL at run time (never stored), deterministically from the seed.
Exits 1 if any run crashed or hung, so it can gate a build; crashing inputs are kept in DIR."""
import argparse, os, random, signal, subprocess, sys, tempfile

def mutations(model: bytes, flips: int, seed: int):
    size = len(model)
    for length in sorted({0, 4, 8, 12, 16, 24, 32, 64, 256, 4096, 65536, size // 4, size // 2, size - 4096, size - 1}):
        if 0 <= length < size:
            yield f"truncated-{length}", model[:length]
    rng = random.Random(seed)
    for index in range(flips):
        data = bytearray(model)
        # Half the flips land in the first 64 KiB and last 64 KiB, where the flatbuffer's tables,
        # vtables and offsets sit; the rest anywhere (mostly weights).
        region = rng.random()
        if region < 0.25:
            position = rng.randrange(min(size, 65536))
        elif region < 0.5:
            position = size - 1 - rng.randrange(min(size, 65536))
        else:
            position = rng.randrange(size)
        bits = rng.choice([1, 1, 1, 2, 8])
        for _ in range(bits):
            data[position] ^= 1 << rng.randrange(8)
        yield f"flip-{index}-at-{position}", bytes(data)

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary"); parser.add_argument("model"); parser.add_argument("image")
    parser.add_argument("--flips", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--keep", default=".fuzz/model-crashes")
    options = parser.parse_args()
    model = open(options.model, "rb").read()
    tally = {}
    bad = []
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "mutated.tflite")
        for name, data in mutations(model, options.flips, options.seed):
            with open(path, "wb") as out:
                out.write(data)
            try:
                run = subprocess.run([options.binary, "classify", "--model", path, "--format", "json", options.image],
                                     capture_output=True, timeout=60)
                code = run.returncode
                stderr = run.stderr.decode(errors="replace").strip().splitlines()
                ours = [line for line in stderr if line.startswith("plantleaf classify: ")]
                if code < 0:
                    outcome = f"crash ({signal.Signals(-code).name})"
                elif code == 0:
                    outcome = "classified"
                elif code in (1, 2) and ours:
                    # The runtime may print its own ERROR lines first; plantleaf's line says what failed.
                    stage = "refused" if code == 2 else "failed at inference"
                    outcome = f"{stage}: " + summarise(ours[0])
                else:
                    outcome = f"exit {code} without a plantleaf message"
            except subprocess.TimeoutExpired:
                outcome = "hang (60 s)"
            tally.setdefault(outcome, []).append(name)
            if outcome.startswith(("crash", "hang", "exit")):
                os.makedirs(options.keep, exist_ok=True)
                with open(os.path.join(options.keep, name + ".tflite"), "wb") as out:
                    out.write(data)
                bad.append(name)
    for outcome, names in sorted(tally.items(), key=lambda item: -len(item[1])):
        print(f"{len(names):5d}  {outcome}  (e.g. {', '.join(names[:3])})")
    kinds = {}
    for outcome, names in tally.items():
        kind = outcome.split(":")[0].split(" (")[0]
        kinds[kind] = kinds.get(kind, 0) + len(names)
    print("model-mutations: " + ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items(), key=lambda item: -item[1])))
    print(f"model-mutations: {sum(len(n) for n in tally.values())} mutated models, {len(bad)} crashed or hung"
          + (f", kept in {options.keep}" if bad else ""))
    sys.exit(1 if bad else 0)

def summarise(line: str) -> str:
    """plantleaf's message without the temporary path and numbers, so equal reasons tally together."""
    text = line.replace("plantleaf classify: ", "", 1)
    for marker in ("is not a TensorFlow Lite model: ", "is damaged: ", "failed for ", "is not supported: "):
        if marker in text:
            head, _, tail = text.partition(marker)
            if marker == "failed for ":
                tail = head.split()[-1] + " failed: " + tail.split(": ", 1)[-1]
            text = marker.strip(": ") + " " + tail
            break
    text = text.split(" (the file is truncated")[0]
    return "".join("N" if character.isdigit() else character for character in text)[:110]

if __name__ == "__main__":
    main()
