"""Compares two `plantleaf classify --format json` outputs of the same images, matched by the path
below the folder they were given as (the runs may name the folder differently). Prints how many
images got identical top-3 labels and scores; exits 1 unless every image did."""
import json
import sys


def results(path):
    by_image = {}
    with open(path) as lines:
        for line in lines:
            record = json.loads(line)
            key = record["path"].split("plantvillage/", 1)[-1]
            by_image[key] = record.get("top") or record.get("error")
    return by_image


expected, actual = results(sys.argv[1]), results(sys.argv[2])
same = sorted(key for key in expected if actual.get(key) == expected[key])
print(f"aarch64: parity with x86_64 ({sys.argv[2].rsplit('/', 1)[-1]}): {len(same)}/{len(expected)} images with identical top-3 labels and scores",
      file=sys.stderr)
for key in sorted(set(expected) | set(actual)):
    if expected.get(key) != actual.get(key):
        print(f"  {key}: x86_64 {expected.get(key)} / aarch64 {actual.get(key)}", file=sys.stderr)
if len(expected) == 0 or len(same) != len(expected) or len(actual) != len(expected):
    sys.exit(1)
