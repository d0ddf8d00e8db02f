"""Serve benchmark: `plantleaf serve` beside `plantleaf classify` and `plantleaf bench` on the
same machine in one run (release build), with the floors the project promises:

- one upload of a 256x256 leaf, loopback, answered in at most classify's prepare + invoke + 2 ms
  (medians, uploads sent one after another on one kept-alive connection);
- 8 clients sending 400 uploads at once: at least 95 % of `classify --jobs 2`'s throughput on
  the same files, with serve's peak RSS at most 80 MB;
- 20 viewers of /stream.mjpg on a 640x480 motion-JPEG stream: serve's CPU at most 1.2x what it
  uses with one viewer (each frame is encoded once, whoever watches).

Exits 1 when a floor is missed. Run by `make bench` through 50-serve.sh.
"""
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLANTLEAF = os.path.join(ROOT, ".build", "release", "plantleaf")
SAMPLES = os.path.join(ROOT, "samples", "plantvillage")
LEAF = os.path.join(SAMPLES, "Apple___Apple_scab", "00075aa8-d81a-4184-8541-b692b78d398a___FREC_Scab 3335.JPG")
CLIENTS = 8
UPLOADS = 400
VIEWERS = 20
WATCH_SECONDS = 10
missed = False


def verdict(name, value, floor, unit=""):
    global missed
    passed = value <= floor
    missed = missed or not passed
    print(f"  {'PASS' if passed else 'FAIL'}  {name}: {value:.2f}{unit} (floor <= {floor:.2f}{unit})")


class Server:
    """plantleaf serve on a port the system picks, stopped with SIGTERM."""

    def __init__(self, arguments, stdin=subprocess.DEVNULL):
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen([PLANTLEAF, "serve", "--listen", "127.0.0.1:0"] + arguments,
                                        stdin=stdin, stdout=subprocess.DEVNULL, stderr=self.log)
        for _ in range(600):
            self.log.seek(0)
            found = re.search(rb"listening on http://127\.0\.0\.1:(\d+)/", self.log.read())
            if found:
                self.port = int(found.group(1))
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        self.log.seek(0)
        sys.exit(f"bench: plantleaf serve did not start: {self.log.read().decode(errors='replace')[:400]}")

    def cpu_seconds(self):
        """User + system CPU time the server has used so far."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


def upload(connection, body):
    connection.request("POST", "/api/classify", body=body, headers={"Content-Type": "image/jpeg"})
    response = connection.getresponse()
    answer = response.read()
    if response.status != 200:
        sys.exit(f"bench: upload answered {response.status}: {answer[:200]!r}")
    return answer


def upload_latency():
    print("== serve: one upload at a time, loopback, 256x256 leaf")
    report = tempfile.NamedTemporaryFile(suffix=".json")
    subprocess.run([PLANTLEAF, "bench", "--image", LEAF, "--runs", "200", "--json", report.name], check=True, capture_output=True)
    stages = json.load(open(report.name))["results"][0]["stages"]
    # Uploads run the default checks, the generalist's second model among them: its stage counts
    # as the leaf model's invoke does (absent when the check is skipped, as it is then in serve).
    floor = sum(stages[name]["median_ms"] for name in ("prepare", "invoke", "generalist") if stages.get(name))
    body = open(LEAF, "rb").read()
    server = Server(["--jobs", "1"])
    connection = http.client.HTTPConnection("127.0.0.1", server.port)
    for _ in range(20):
        upload(connection, body)
    times = []
    for _ in range(200):
        start = time.perf_counter()
        upload(connection, body)
        times.append((time.perf_counter() - start) * 1000)
    server.stop()
    median = statistics.median(times)
    print(f"  classify's prepare + invoke + generalist (plantleaf bench): {floor:.2f} ms; upload -> JSON: median {median:.2f} ms, "
          f"p90 {statistics.quantiles(times, n=10)[-1]:.2f} ms; difference {median - floor:.2f} ms")
    verdict("upload -> JSON minus (prepare + invoke + generalist)", median - floor, 2.0, " ms")


def throughput():
    print(f"== serve: {CLIENTS} clients, {UPLOADS} uploads, against classify --jobs 2 on the same files")
    files = sorted(os.path.join(folder, name) for folder, _, names in os.walk(SAMPLES) for name in names if name.endswith(".JPG"))
    chosen = [files[index % len(files)] for index in range(UPLOADS)]
    start = time.perf_counter()
    subprocess.run([PLANTLEAF, "classify", "--jobs", "2", "--format", "json"] + chosen, check=True, capture_output=True)
    classify_rate = UPLOADS / (time.perf_counter() - start)
    bodies = [open(path, "rb").read() for path in chosen]
    server = Server(["--jobs", "2"])
    # The model is loaded before the server listens: no warm-up is needed to be fair.
    next_index = iter(range(UPLOADS))
    lock = threading.Lock()

    def client():
        connection = http.client.HTTPConnection("127.0.0.1", server.port)
        while True:
            with lock:
                index = next(next_index, None)
            if index is None:
                return
            upload(connection, bodies[index])

    start = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    serve_rate = UPLOADS / (time.perf_counter() - start)
    rss = server.peak_rss_mb()
    server.stop()
    print(f"  classify --jobs 2: {classify_rate:.1f} images/s (process start and model load included); "
          f"serve --jobs 2: {serve_rate:.1f} uploads/s; ratio {serve_rate / classify_rate:.2f}; serve's peak RSS {rss:.1f} MB")
    verdict("classify's throughput / serve's", classify_rate / serve_rate, 1 / 0.95, "x")
    verdict("serve's peak RSS", rss, 80.0, " MB")


def viewers():
    print(f"== serve: CPU with 1 and {VIEWERS} viewers of /stream.mjpg, 640x480 motion-JPEG stream at 10 fps")
    stream = subprocess.Popen(["ffmpeg", "-loglevel", "error", "-re", "-loop", "1", "-i", LEAF, "-vf", "scale=640:480",
                               "-r", "10", "-f", "mjpeg", "-q:v", "5", "-"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    server = Server(["--jobs", "1", "--input", "-"], stdin=stream.stdout)
    stream.stdout.close()
    time.sleep(3)

    def cpu_with(count):
        stop = threading.Event()
        received = [0] * count

        def watch(slot):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            connection.request("GET", "/stream.mjpg")
            response = connection.getresponse()
            while not stop.is_set():
                chunk = response.read1(65536)
                if not chunk:
                    return
                received[slot] += len(chunk)
            connection.close()

        threads = [threading.Thread(target=watch, args=(slot,)) for slot in range(count)]
        for thread in threads:
            thread.start()
        time.sleep(1)
        before = server.cpu_seconds()
        time.sleep(WATCH_SECONDS)
        used = server.cpu_seconds() - before
        stop.set()
        for thread in threads:
            thread.join(timeout=10)
        print(f"  {count} viewer{'s' if count > 1 else ''}: serve used {used:.2f} s of CPU in {WATCH_SECONDS} s; "
              f"each viewer received {statistics.median(received) / 1024:.0f} KiB")
        return used

    one = cpu_with(1)
    many = cpu_with(VIEWERS)
    server.stop()
    stream.terminate()
    verdict(f"CPU with {VIEWERS} viewers / with 1", many / one, 1.2, "x")


if __name__ == "__main__":
    upload_latency()
    throughput()
    viewers()
    sys.exit(1 if missed else 0)
