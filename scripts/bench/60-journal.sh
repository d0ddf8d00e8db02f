#!/usr/bin/env bash
# make bench, journal part: a million readings in the journal, sparse and a dense week, against its floors (see
# journal.py; exits 1 when one is missed).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec python3 scripts/bench/journal.py
