#!/usr/bin/env bash
# Classify path against the reference pipeline (see classify.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec .venv/bin/python scripts/bench/classify.py
