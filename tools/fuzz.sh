#!/usr/bin/env bash
# tools/fuzz.sh [SECONDS] [TARGET...]: builds the libFuzzer targets of tests/fuzz with clang
# (ASan and UBSan on; build/fuzz) and runs each for SECONDS (default 20) from a copy of its
# seed corpus (tests/fuzz/corpus/<target>, left unchanged). Prints each target's executions;
# exits non-zero when a target finds a crash (the reproducer is left in build/fuzz/crashes).
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-20}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(uci position algebraic)
jobs="$(nproc 2>/dev/null || echo 2)"
cmake -S "$top" -B "$top/build/fuzz" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DKLINZHA_FUZZ=ON >&2
cmake --build "$top/build/fuzz" -j "$jobs" --target "${targets[@]/#/fuzz_}" >&2
mkdir -p "$top/build/fuzz/crashes"
export ASAN_OPTIONS="allocator_may_return_null=1:detect_leaks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
for t in "${targets[@]}"; do
  corpus="$(mktemp -d)"
  cp "$top/tests/fuzz/corpus/$t"/* "$corpus"/
  log="$top/build/fuzz/$t.log"
  if "$top/build/fuzz/tests/fuzz/fuzz_$t" "$corpus" -max_total_time="$seconds" -timeout=30 \
       -rss_limit_mb=4096 -artifact_prefix="$top/build/fuzz/crashes/$t-" > "$log" 2>&1; then
    runs="$(grep -Eo 'Done [0-9]+ runs' "$log" | tail -1)"
    echo "fuzz_$t: ${runs:-done} in ${seconds} s, no crash"
  else
    echo "fuzz_$t: FAILED (see $log and build/fuzz/crashes/)"
    tail -30 "$log"
    status=$((status + 1))
  fi
  rm -rf "$corpus"
done
failed=$status
echo "fuzz: $(( ${#targets[@]} - failed )) passed, ${failed} failed"
exit $status
