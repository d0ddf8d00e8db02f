#!/usr/bin/env bash
# make bench, serve part: uploads and stream viewers of `plantleaf serve` against classify and
# bench in the same run (see serve.py for the floors; exits 1 when one is missed).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec python3 scripts/bench/serve.py
