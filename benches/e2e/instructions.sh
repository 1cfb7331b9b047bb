#!/usr/bin/env bash
# Two builds of `ticket-booking` compared by the instructions the server spends per round,
# counted by callgrind: a count that other work on the machine does not move, so that a
# change's cost shows on a shared machine. Each row runs under callgrind twice per build,
# with an 8 s and a 24 s measured window; the difference of the two counts divided by the
# rounds between them leaves out start-up and shutdown.
#
#   benches/e2e/instructions.sh OLD-BINARY [NEW-BINARY]    # NEW defaults to this tree's build
#
# Build the old one from its commit first, e.g.
#   git worktree add ../old <commit> && (cd ../old && cargo build --release -p elicit-examples --bin ticket-booking)
# and pass ../old/target/release/ticket-booking. Needs valgrind and, for the Redis row,
# redis-server. About 4 minutes per build.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OLD="${1:?usage: instructions.sh OLD-BINARY [NEW-BINARY]}"
NEW="${2:-$TARGET/release/ticket-booking}"
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
cargo build --release -q --manifest-path "$ROOT/Cargo.toml" -p elicit-e2e --bin elicit-e2e
if [ -z "${2:-}" ]; then
  cargo build --release -q --manifest-path "$ROOT/Cargo.toml" -p elicit-examples --bin ticket-booking
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
for which in old new; do
  binary="$OLD"
  [ "$which" = new ] && binary="$NEW"
  binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
  printf '#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file=%s/%s.%%p.out %s "$@"\n' \
    "$WORK" "$which" "$binary" >"$WORK/$which.sh"
  chmod +x "$WORK/$which.sh"
done

# One window of `row` under callgrind: "bookings instructions".
window() {
  local which=$1 row=$2 seconds=$3 extra=$4 out bookings
  rm -f "$WORK/$which".*.out
  out=$(timeout 300 "$TARGET/release/elicit-e2e" --elicit "$WORK/$which.sh" --no-memory $extra \
    --only "$row" --repeat 1 --warmup 0 --measure "$seconds" 2>&1)
  bookings=$(grep -oE '[0-9]+ bookings' <<<"$out" | head -1 | grep -oE '[0-9]+')
  sleep 1 # callgrind writes its file as the server exits
  echo "$bookings $(grep -hE '^(summary|totals):' "$WORK/$which".*.out | head -1 | awk '{print $2}')"
}

echo "| row | old instructions/round | new instructions/round | new ÷ old |"
echo "|---|---|---|---|"
for row in "elicit wizard, JSON" "elicit wizard, SSE" "JSON, Redis"; do
  extra=""
  [ "$row" = "JSON, Redis" ] && extra="--redis"
  per=()
  for which in old new; do
    read -r b8 i8 < <(window "$which" "$row" 8 "$extra")
    read -r b24 i24 < <(window "$which" "$row" 24 "$extra")
    # Five rounds a booking.
    per+=("$(( (i24 - i8) / ((b24 - b8) * 5) ))")
  done
  ratio=$(awk -v o="${per[0]}" -v n="${per[1]}" 'BEGIN {printf "%.3f", n / o}')
  echo "| $row | ${per[0]} | ${per[1]} | $ratio |"
done
