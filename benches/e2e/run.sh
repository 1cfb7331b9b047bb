#!/usr/bin/env bash
# The end-to-end benchmark: builds `ticket-booking` and the load generator (release),
# makes the Python reference's venv (mcp==2.3.0 from PyPI) when missing, and runs the
# load generator against both. It starts every server itself on 127.0.0.1, pinned to
# core 0 (`taskset`), runs on core 1, stops what it started, and prints one markdown
# report. About 7 minutes after the build (each throughput row runs 3 times, in
# rotation; `--repeat 1` for one run); the run is cut at 720 s.
#
#   benches/e2e/run.sh [ELICIT-E2E OPTIONS]      # e.g. --clients 16, --no-memory
#
# CARGO_TARGET_DIR and CARGO_BUILD_JOBS are honoured as cargo honours them;
# PYTHON picks the interpreter that makes the venv (default python3).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
VENV="$ROOT/benches/e2e/python/.venv"
MCP_VERSION="2.3.0"

echo "== building ticket-booking and elicit-e2e (release)" >&2
cargo build --release -p elicit-examples --bin ticket-booking -p elicit-e2e --bin elicit-e2e >&2

if ! "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$MCP_VERSION')" 2>/dev/null; then
  echo "== making the Python venv (mcp==$MCP_VERSION)" >&2
  "${PYTHON:-python3}" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "mcp==$MCP_VERSION" >&2
fi

echo "== running (servers on core 0, load generator on core 1)" >&2
exec timeout --signal=INT --kill-after=10 720 \
  "$TARGET/release/elicit-e2e" \
  --elicit "$TARGET/release/ticket-booking" \
  --python "$VENV/bin/python" \
  --python-server "$ROOT/benches/e2e/python/ticket_server.py" \
  "$@"
