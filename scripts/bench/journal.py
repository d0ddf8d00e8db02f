"""Journal benchmark: a million camera readings, a reading a minute for 694 days up to now,
imported with `plantleaf journal import` (release build), then `plantleaf serve --journal` asked
for them, with the floors the project promises:

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
PLANTLEAF = os.path.join(ROOT, ".build", "release", "plantleaf")
READINGS = 1_000_000
missed = False


def verdict(name, value, floor, unit=""):
    global missed
    passed = value <= floor
    missed = missed or not passed
    print(f"  {'PASS' if passed else 'FAIL'}  {name}: {value:.2f}{unit} (floor <= {floor:.2f}{unit})")


def write_log(path):
    """A camera's --log: healthy most of the time, a blight spell of two hours every day."""
    start = int(time.time()) - READINGS * 60
    with open(path, "w") as log:
        for minute in range(READINGS):
            moment = time.gmtime(start + minute * 60)
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S", moment) + ".000+00:00"
            label, index = ("Tomato___Early_blight", 29) if 360 <= minute % 1440 < 480 else ("Tomato___healthy", 37)
            log.write(f'{{"schema": 2, "frame": {minute}, "time": "{stamp}", "verdict": "diagnosis", "top": '
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


def main():
    with tempfile.TemporaryDirectory() as folder:
        log, journal = os.path.join(folder, "camera.jsonl"), os.path.join(folder, "journal.sqlite")
        write_log(log)
        begun = time.perf_counter()
        subprocess.run([PLANTLEAF, "journal", "import", "--journal", journal, log], check=True, stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - begun
        os.remove(log)
        size = sum(os.path.getsize(journal + suffix) for suffix in ("", "-wal") if os.path.exists(journal + suffix))
        print(f"journal: {READINGS} readings imported in {seconds:.1f} s, {size / 1e6:.1f} MB")
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
            verdict("/api/history, the last week", median_request(connection, "/api/history"), 100, " ms")
            verdict("/api/events, newest first", median_request(connection, "/api/events"), 100, " ms")
            verdict("/history, the page", median_request(connection, "/history"), 300, " ms")
        finally:
            server.terminate()
            server.wait()
    sys.exit(1 if missed else 0)


main()
