#!/usr/bin/env bash
# `make fuzz`: libFuzzer targets over KeptCore (Tests/Fuzz/README.md). KeptCore is compiled once
# with libFuzzer's coverage and AddressSanitizer into a static library; each target links it
# with Common.swift and its own file, then runs for FUZZ_SECONDS (default 120) from the seed
# corpus in Tests/Fuzz/corpus/TARGET (read only; new inputs go to .build/fuzz/corpus/TARGET).
# A crash, a leak, a hang past 10 s or a violated property stops that target and is kept in
# .build/fuzz/crashes/. The last lines print executions per second and coverage per target.
set -uo pipefail
cd "$(dirname "$0")/../.."

SECONDS_EACH=${FUZZ_SECONDS:-120}
TARGETS=${FUZZ_TARGETS:-"statement capture repeat filter transcript store"}
OUT=.build/fuzz
SWIFTC=${SWIFTC:-swiftc}
FLAGS=(-sanitize=fuzzer,address -parse-as-library -O -g -I Sources/CPCRE2 -I Sources/CSQLite)
mkdir -p "$OUT/crashes"

# The library, rebuilt when a source of KeptCore is newer than it.
lib="$OUT/libKeptCore.a"
if [ ! -f "$lib" ] || [ -n "$(find Sources/KeptCore Sources/CPCRE2 Sources/CSQLite -newer "$lib" -print -quit)" ]; then
  echo "building KeptCore for fuzzing (libFuzzer coverage, AddressSanitizer)"
  if ! "$SWIFTC" "${FLAGS[@]}" -enable-testing -module-name KeptCore -emit-module -emit-module-path "$OUT/KeptCore.swiftmodule" \
    -emit-library -static -o "$lib" $(find Sources/KeptCore -name '*.swift' | sort) > "$OUT/build.log" 2>&1; then
    grep -E 'error' "$OUT/build.log" | head -20
    rm -f "$lib"
    exit 1
  fi
fi

# The words of the grammar (its quoted terminals) as libFuzzer's dictionary.
grep -o '"[^"\\]*"' Grammar/kept.ebnf | sort -u > "$OUT/kept.dict"

status=0
summary=()
for t in $TARGETS; do
  bin="$OUT/fuzz-$t"
  extra=()
  [ "$t" = transcript ] && extra=(Sources/KeptCLI/ExpectedOutput.swift)
  if [ ! -f "$bin" ] || [ "$lib" -nt "$bin" ] || [ -n "$(find Tests/Fuzz/Common.swift "Tests/Fuzz/targets/$t.swift" "${extra[@]}" -newer "$bin" -print -quit)" ]; then
    echo "linking $bin"
    if ! "$SWIFTC" "${FLAGS[@]}" -I "$OUT" -L "$OUT" -lKeptCore -lpcre2-8 -lsqlite3 Tests/Fuzz/Common.swift "Tests/Fuzz/targets/$t.swift" "${extra[@]}" \
      -o "$bin" > "$OUT/link-$t.log" 2>&1; then
      grep -E 'error' "$OUT/link-$t.log" | head -20
      rm -f "$bin"
      status=1
      continue
    fi
  fi
  mkdir -p "$OUT/corpus/$t"
  maxlen=4096
  [ "$t" = store ] && maxlen=65536
  [ "$t" = transcript ] && maxlen=16384
  echo "fuzzing $t for ${SECONDS_EACH}s"
  "$bin" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len="$maxlen" -dict="$OUT/kept.dict" \
    -artifact_prefix="$OUT/crashes/$t-" -print_final_stats=1 "$OUT/corpus/$t" "Tests/Fuzz/corpus/$t" > "$OUT/$t.log" 2>&1
  rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$OUT/$t.log" | grep -o '[0-9]*$' | tail -1)
  eps=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$OUT/$t.log" | grep -o '[0-9]*$' | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$OUT/$t.log" | tail -1 | grep -o '[0-9]*')
  ft=$(grep -o 'ft: [0-9]*' "$OUT/$t.log" | tail -1 | grep -o '[0-9]*')
  corp=$(grep -o 'corp: [0-9]*' "$OUT/$t.log" | tail -1 | grep -o '[0-9]*')
  if [ $rc -ne 0 ]; then
    status=1
    echo "  $t FAILED (exit $rc): see $OUT/$t.log and $OUT/crashes/"
    grep -E 'ERROR|violated|Test unit written' "$OUT/$t.log" | head -5 | sed 's/^/    /'
  fi
  summary+=("$(printf '%-11s %9s runs %7s exec/s  cov %6s  ft %7s  corpus %5s  %s' "$t" "${runs:-?}" "${eps:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$([ $rc -eq 0 ] && echo ok || echo FAIL)")")
done
echo
echo "target          executions     speed  coverage (edges, features), corpus; ${SECONDS_EACH}s each"
for l in "${summary[@]}"; do echo "$l"; done
exit $status
