#!/usr/bin/env bash
# `make fuzz`: libFuzzer targets over the engine (Tests/Fuzz/README.md). Each layer is compiled
# once with libFuzzer's coverage and AddressSanitizer into a static library; each target links them
# with Common.swift and its own file, then runs for FUZZ_SECONDS (default 120) from the seed
# corpus in Tests/Fuzz/corpus/TARGET (read only; new inputs go to .build/fuzz/corpus/TARGET).
# A crash, a leak, a hang past 10 s or a violated property stops that target and is kept in
# .build/fuzz/crashes/. The last lines print executions per second and coverage per target.
set -uo pipefail
cd "$(dirname "$0")/../.."

SECONDS_EACH=${FUZZ_SECONDS:-120}
TARGETS=${FUZZ_TARGETS:-"statement capture repeat filter transcript store lspreader"}
OUT=.build/fuzz
SWIFTC=${SWIFTC:-swiftc}
FLAGS=(-sanitize=fuzzer,address -parse-as-library -O -g -I Sources/CPCRE2 -I Sources/CSQLite)
mkdir -p "$OUT/crashes"

# The layers (docs/ARCHITECTURE.md), in the order they depend on each other, each a static
# library rebuilt when one of its sources, or a layer below it, is newer than it.
LAYERS="KeptRules KeptFiles KeptDomain KeptStore KeptInterop KeptSyntax KeptInterpreter"
FLAGS+=(-package-name Kept -I "$OUT")
LIBS=()
newest=""
for m in $LAYERS; do
  lib="$OUT/lib$m.a"
  LIBS=("-l$m" "${LIBS[@]}")  # a static library before the ones it uses
  if [ ! -f "$lib" ] || [ -n "$(find "Sources/$m" Sources/CPCRE2 Sources/CSQLite $newest -newer "$lib" -print -quit)" ]; then
    echo "building $m for fuzzing (libFuzzer coverage, AddressSanitizer)"
    if ! "$SWIFTC" "${FLAGS[@]}" -enable-testing -module-name "$m" -emit-module -emit-module-path "$OUT/$m.swiftmodule" \
      -emit-library -static -o "$lib" $(find "Sources/$m" -name '*.swift' | sort) > "$OUT/build-$m.log" 2>&1; then
      grep -E 'error' "$OUT/build-$m.log" | head -20
      rm -f "$lib"
      exit 1
    fi
  fi
  newest="$newest $lib"
done
lib="$OUT/libKeptInterpreter.a"

# The words of the grammar (its quoted terminals) as libFuzzer's dictionary.
# (An empty `""` is no word, and libFuzzer refuses a dictionary that holds one.)
grep -o '"[^"\\]*"' Grammar/kept.ebnf | grep -v '^""$' | sort -u > "$OUT/kept.dict"

status=0
summary=()
for t in $TARGETS; do
  bin="$OUT/fuzz-$t"
  extra=()
  [ "$t" = transcript ] && extra=(Sources/KeptCLI/ExpectedOutput.swift Sources/KeptCLI/ExpectedJSON.swift)
  [ "$t" = lspreader ] && extra=(Sources/KeptCLI/LSP/LSPMessageReader.swift)
  if [ ! -f "$bin" ] || [ "$lib" -nt "$bin" ] || [ -n "$(find Tests/Fuzz/Common.swift "Tests/Fuzz/targets/$t.swift" "${extra[@]}" -newer "$bin" -print -quit)" ]; then
    echo "linking $bin"
    if ! "$SWIFTC" "${FLAGS[@]}" -L "$OUT" "${LIBS[@]}" -lpcre2-8 -lsqlite3 Tests/Fuzz/Common.swift "Tests/Fuzz/targets/$t.swift" "${extra[@]}" \
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
