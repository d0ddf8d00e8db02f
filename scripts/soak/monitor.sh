#!/usr/bin/env bash
# make soak: the greenhouse monitor left running, measured. Inside the camera fixture (a real
# vivid V4L2 device in a VM) it runs `plantleaf camera --every INTERVAL` publishing to a mosquitto
# broker started in the VM, for MINUTES minutes (default 10), sampling plantleaf's CPU time and
# resident memory every second, and reading every message back with its arrival time. Prints:
# CPU use over the run and in the seconds between readings, resident memory first/peak/last,
# and the latency from frame capture (the record's "time") to delivery by the broker.
#
#   scripts/soak/monitor.sh [MINUTES] [INTERVAL] [PLANTLEAF_BINARY]     (defaults: 10 5s)
#
# The VM emulates its CPU (TCG): a reading costs about a hundred times what it does on the
# host, so the CPU figures are the emulator's; the seconds between readings show whether
# plantleaf does anything while it waits.
set -euo pipefail
cd "$(dirname "$0")/../.."
minutes=${1:-10}
interval=${2:-5s}
binary=$(realpath "${3:-.build/release/plantleaf}")
[ -x "$binary" ] || { echo "soak: no plantleaf at $binary (make build)" >&2; exit 2; }
fixture=${PLANTLEAF_SHARED:-../shared}/tools/camera-fixture/camera-fixture.sh
leaf=$(realpath "$(find -L samples/plantvillage -name '*.JPG' | sort | head -1)")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/run.sh" <<EOF
# The VM boots with its loopback interface down; the broker listens on it.
/usr/sbin/ip link set lo up
port=18830
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nuser root\n' \$port > mosquitto.conf
/usr/sbin/mosquitto -c mosquitto.conf > mosquitto.log 2>&1 & broker=\$!
# The emulated machine is slow to start things: wait (60 s at most) until the broker answers,
# then until the reader is subscribed, before plantleaf starts publishing.
i=0; until mosquitto_pub -h 127.0.0.1 -p \$port -t soak/probe -m up 2>/dev/null || [ \$i -ge 120 ]; do sleep 0.5; i=\$((i+1)); done
mosquitto_sub -h 127.0.0.1 -p \$port -i soakreader -q 1 -t greenhouse/soak/result -F '%U %p' > received.txt & reader=\$!
i=0; until grep -q 'as soakreader' mosquitto.log || [ \$i -ge 120 ]; do sleep 0.5; i=\$((i+1)); done
"$binary" camera --size 640x480 --every $interval --format json --log soak.jsonl \
    --mqtt mqtt://127.0.0.1:\$port/greenhouse/soak > soak.out 2> soak.err & pid=\$!
end=\$(( \$(date +%s) + $minutes * 60 ))
ticks=\$(getconf CLK_TCK)
while [ \$(date +%s) -lt \$end ]; do
    echo "\$(date +%s.%N) \$ticks \$(cut -d' ' -f14,15 /proc/\$pid/stat) \$(awk '/VmRSS/ {print \$2}' /proc/\$pid/status)" >> samples.txt
    sleep 1
done
kill -TERM \$pid; wait \$pid; echo \$? > soak.rc
kill \$reader \$broker
EOF

echo "soak: $minutes minutes of camera --every $interval --mqtt in the camera fixture (VM boot first)" >&2
# The fixture shares only the folder it is started in read-write with the VM: start it in $work.
fixture=$(realpath "$fixture")
(cd "$work" && VIVID_TIMEOUT=$((minutes * 60 + 600)) "$fixture" -s 640x480 -i "$leaf" -- bash run.sh)
python3 - "$work" <<'EOF'
import datetime, json, statistics, sys
work = sys.argv[1]
rc = open(f"{work}/soak.rc").read().strip()
samples = []
for line in open(f"{work}/samples.txt"):
    parts = line.split()
    if len(parts) == 5:
        samples.append((float(parts[0]), (int(parts[2]) + int(parts[3])) / int(parts[1]), int(parts[4])))
records = [json.loads(l) for l in open(f"{work}/soak.jsonl")]
captures = [datetime.datetime.fromisoformat(r["time"]).timestamp() for r in records]
latencies = []
for line in open(f"{work}/received.txt"):
    arrived, payload = line.split(" ", 1)
    sent = json.loads(payload)
    latencies.append((float(arrived) - datetime.datetime.fromisoformat(sent["time"]).timestamp()) * 1000)
wall = samples[-1][0] - samples[0][0]
cpu = samples[-1][1] - samples[0][1]
# A second is "between readings" when it lies outside every reading's busy span: from 2 s before
# the frame's capture (opening the device, settling frames) to 1 s after its scores were ready.
busy = [(c - 2, c + r["age_ms"] / 1000 + 1) for c, r in zip(captures, records)]
idle = [(b[1] - a[1]) for a, b in zip(samples, samples[1:]) if not any(start <= b[0] and a[0] <= end for start, end in busy)]
rss = [s[2] for s in samples]
print(f"soak: exit {rc}; {len(records)} results logged, {len(latencies)} delivered by the broker over {wall / 60:.1f} min")
print(f"soak: CPU {cpu:.2f} s in {wall:.0f} s = {100 * cpu / wall:.2f} % of one core; {cpu / max(len(records), 1) * 1000:.0f} ms a reading")
print(f"soak: between readings: {len(idle)} one-second samples, CPU {sum(idle):.2f} s in all, at most {max(idle, default=0) * 1000:.0f} ms in one")
print(f"soak: resident memory first {rss[0] / 1024:.1f} MiB, peak {max(rss) / 1024:.1f} MiB, last {rss[-1] / 1024:.1f} MiB")
if latencies:
    ordered = sorted(latencies)
    print(f"soak: capture -> broker delivery median {statistics.median(ordered):.0f} ms, p99 {ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]:.0f} ms, max {ordered[-1]:.0f} ms")
EOF
