#!/usr/bin/env bash
# make bench (and make verdicts), verdict part: the release build's verdicts on lab leaves, everyday
# and field photos, colour casts, green patterns and empty frames against their floors (scripts/verdicts/run.py);
# exits 1 when one is missed.
set -euo pipefail
cd "$(dirname "$0")/../.."

scripts/setup.sh photos
echo "== verdicts"
.venv/bin/python scripts/verdicts/run.py
