"""Journal benchmark: a million camera readings, imported with `plantleaf journal import`
(release build), then `plantleaf serve --journal` asked for them, with the floors the project
promises, twice side by side: a sparse journal (a reading a minute for 694 days up to now) and a
dense week (the million within the last 7 days, a reading every 0.6 s, as a camera reading 1.6
times a second makes), where the counts per day add up a week of readings:

- the journal at most 300 bytes a reading (no pictures: an import has none);
- /api/history for the last week (its first page and the counts per day) at most 100 ms, and
  /api/events at most 100 ms (medians of 20 requests on one kept-alive connection);
- /history, the page (the events and a table of the last two weeks' and eight weeks' counts),
  at most 300 ms;
- the import's time a reading, which bounds what one reading's write costs (in batches of 1000).

Exits 1 when a floor is missed. Run by `make bench` through 60-journal.sh.
"""
import http.client
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLANTLEAF = os.environ.get("PLANTLEAF_BENCH_BINARY", os.path.join(ROOT, ".build", "release", "plantleaf"))
READINGS = 1_000_000
# The spacing of the readings, in milliseconds: a minute, and a week's million.
SPACINGS = {"sparse, a reading a minute": 60_000, "dense week, a reading every 0.6 s": 7 * 86_400_000 / READINGS}
missed = False


def verdict(name, value, floor, unit=""):
    global missed
    passed = value <= floor
    missed = missed or not passed
    print(f"  {'PASS' if passed else 'FAIL'}  {name}: {value:.2f}{unit} (floor <= {floor:.2f}{unit})")


def write_log(path, spacing):
    """A camera's --log, a reading every `spacing` ms up to now: healthy most of the time, a blight
    spell of two hours every day."""
    start = time.time() * 1000 - READINGS * spacing
    with open(path, "w") as log:
        for number in range(READINGS):
            milliseconds = int(start + number * spacing)
            moment = time.gmtime(milliseconds // 1000)
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S", moment) + f".{milliseconds % 1000:03d}+00:00"
            minute_of_day = milliseconds // 60_000 % 1440
            label, index = ("Tomato___Early_blight", 29) if 360 <= minute_of_day < 480 else ("Tomato___healthy", 37)
            log.write(f'{{"schema": 2, "frame": {number}, "time": "{stamp}", "verdict": "diagnosis", "top": '
                      f'[{{"index": {index}, "label": "{label}", "score": 0.953125}}, {{"index": 30, "label": "Tomato___Late_blight", '
                      f'"score": 0.03125}}, {{"index": 36, "label": "Tomato___Tomato_mosaic_virus", "score": 0.0078125}}], '
                      f'"leaf_likeness": 0.8125, "age_ms": 61.5, "timing_ms": {{"prepare": 1.25, "invoke": 9.5, "generalist": 4.75}}, '
                      f'"capture_fps": 30, "inference_fps": 0.02, "dropped": 0}}\n')


def median_request(connection, path):
    times = []
    for _ in range(20):
        begun = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        times.append((time.perf_counter() - begun) * 1000)
        if response.status != 200:
            sys.exit(f"bench: {path} answered {response.status}: {body[:300]!r}")
    return statistics.median(times)


def bench(name, spacing):
    """Imports a million readings `spacing` ms apart and asks serve for them; the pages' medians in ms."""
    print(f"{name}:")
    with tempfile.TemporaryDirectory() as folder:
        log, journal = os.path.join(folder, "camera.jsonl"), os.path.join(folder, "journal.sqlite")
        write_log(log, spacing)
        begun = time.perf_counter()
        subprocess.run([PLANTLEAF, "journal", "import", "--journal", journal, log], check=True, stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - begun
        os.remove(log)
        size = sum(os.path.getsize(journal + suffix) for suffix in ("", "-wal") if os.path.exists(journal + suffix))
        print(f"  journal: {READINGS} readings imported in {seconds:.1f} s, {size / 1e6:.1f} MB")
        verdict("import, a reading", seconds / READINGS * 1000, 1.0, " ms")
        verdict("journal size, a reading", size / READINGS, 300, " bytes")

        server_log = tempfile.TemporaryFile()
        server = subprocess.Popen([PLANTLEAF, "serve", "--listen", "127.0.0.1:0", "--jobs", "1", "--journal", journal],
                                  stdout=subprocess.DEVNULL, stderr=server_log)
        try:
            port = None
            for _ in range(600):
                server_log.seek(0)
                found = re.search(rb"listening on http://127\.0\.0\.1:(\d+)/", server_log.read())
                if found:
                    port = int(found.group(1))
                    break
                time.sleep(0.1)
            if port is None:
                sys.exit("bench: plantleaf serve did not start")
            connection = http.client.HTTPConnection("127.0.0.1", port)
            medians = {}
            for path, what, floor in [("/api/history", "the last week", 100), ("/api/events", "newest first", 100), ("/history", "the page", 300)]:
                medians[path] = median_request(connection, path)
                verdict(f"{path}, {what}", medians[path], floor, " ms")
            return medians
        finally:
            server.terminate()
            server.wait()


def main():
    results = {name: bench(name, spacing) for name, spacing in SPACINGS.items()}
    sparse, dense = results.values()
    print("dense week / sparse: " + ", ".join(f"{path} {dense[path] / sparse[path]:.2f}x" for path in sparse))
    sys.exit(1 if missed else 0)


main()
