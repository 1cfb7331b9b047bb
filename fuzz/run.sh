#!/usr/bin/env bash
# Runs every fuzz target for a bounded time, starting from the committed seeds, and
# prints per target the runs (execs), exec/s, corpus size and crashes. Exits 1 when a
# target crashed (the input is in fuzz/artifacts/<target>/), 2 when a build failed.
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]     (default: 60 s, every target)
#
# FUZZ_SANITIZER=address|none picks the sanitizer (default: address, falling back to
# none when an AddressSanitizer build fails). FUZZ_OPTIMIZED=1 builds optimized
# (cargo fuzz -O; overflow checks stay on). FUZZ_RSS_MB (2048) and FUZZ_TIMEOUT (10 s
# per input) are passed to libFuzzer as -rss_limit_mb and -timeout.
set -uo pipefail
cd "$(dirname "$0")"

secs=${1:-60}
[ $# -gt 0 ] && shift
rss=${FUZZ_RSS_MB:-2048}
timeout=${FUZZ_TIMEOUT:-10}
sanitizer=${FUZZ_SANITIZER:-address}

# cargo-fuzz passes nightly-only flags (-Zsanitizer, sancov passes); on a stable
# toolchain RUSTC_BOOTSTRAP lets rustc take them.
export RUSTC_BOOTSTRAP=1

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install cargo-fuzz --locked || exit 2
fi

if [ $# -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo fuzz list)
fi

opt=()
if [ "${FUZZ_OPTIMIZED:-0}" = 1 ]; then
    opt=(-O)
    export RUSTFLAGS="${RUSTFLAGS:-} -Coverflow-checks=on"
fi

echo "== building ${targets[*]} (sanitizer: $sanitizer${opt:+, no debug assertions})"
build() {
    local t
    for t in "${targets[@]}"; do
        cargo fuzz build "${opt[@]}" -s "$1" "$t" || return 1
    done
}
if ! build "$sanitizer"; then
    if [ "$sanitizer" = none ]; then
        exit 2
    fi
    echo "== the $sanitizer build failed: falling back to -s none"
    sanitizer=none
    build none || exit 2
fi

mkdir -p logs
crashed=0
summary=()
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    before=$(find "artifacts/$t" -type f | wc -l)
    echo "== fuzzing $t for ${secs}s"
    cargo fuzz run "${opt[@]}" -s "$sanitizer" "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$secs" -rss_limit_mb="$rss" -timeout="$timeout" \
        -print_final_stats=1 >"logs/$t.log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "logs/$t.log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "logs/$t.log" | tail -1)
    corpus=$(find "corpus/$t" -type f | wc -l)
    after=$(find "artifacts/$t" -type f | wc -l)
    crashes=$((after - before))
    if [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ]; then
        crashes=1 # a failure that left no artifact: see the log
    fi
    [ "$crashes" -gt 0 ] && crashed=1
    line=$(printf '%-14s runs %10s  exec/s %6s  corpus %5s  crashes %s' \
        "$t" "${runs:-?}" "${speed:-?}" "$corpus" "$crashes")
    summary+=("$line")
    echo "$line"
    if [ "$crashes" -gt 0 ]; then
        grep -m1 -A3 "panicked at" "logs/$t.log" || tail -20 "logs/$t.log"
        ls -t "artifacts/$t" | head -n "$crashes" | sed "s|^|  fuzz/artifacts/$t/|"
    fi
done

echo "== summary (${secs}s per target, sanitizer: $sanitizer, logs in fuzz/logs/)"
printf '%s\n' "${summary[@]}"
exit "$crashed"
