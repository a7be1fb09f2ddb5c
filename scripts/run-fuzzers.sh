#!/usr/bin/env bash
# Runs each libFuzzer target for a set time over a working copy of its
# committed seed corpus, and prints executions and coverage per target.
#   scripts/run-fuzzers.sh BUILD_DIR SECONDS TARGET...
# Exits non-zero if any target finds a crash; the crashing input is kept in
# BUILD_DIR/fuzz-artifacts/ (turn it into a regression test named after it).
set -euo pipefail
build=$1
seconds=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
status=0
passed=0
failed=0
mkdir -p "$build/fuzz-artifacts"
for target in "$@"; do
  corpus="$build/fuzz-corpus/$target"
  mkdir -p "$corpus"
  cp -n "$root/fuzz/corpus/$target"/* "$corpus"/ 2>/dev/null || true
  log="$build/fuzz-artifacts/$target.log"
  echo "== $target: ${seconds}s"
  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
     "$build/bin/$target" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 \
       -rss_limit_mb=4096 -artifact_prefix="$build/fuzz-artifacts/$target-" "$corpus" \
       >"$log" 2>&1; then
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo '?')
    cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || echo 'cov: ?')
    echo "   ok: $runs executions, $cov, corpus $(ls "$corpus" | wc -l) inputs, 0 crashes"
    passed=$((passed + 1))
  else
    echo "   FAILED: see $log"
    tail -40 "$log"
    status=1
    failed=$((failed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
exit $status
