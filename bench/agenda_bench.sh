#!/usr/bin/env bash
# The agenda's speed (issue 36's goal: within 100 ms): `agenda` for 7 days as a whole process on
# the 100,000-task SQLite store with a connected calendar of 10,000 events, beside `plan limit 3`
# on the same store in the same run (hyperfine medians), then the same agenda with the calendar
# hidden (the tasks' share) and the file's read alone (`calendar list`, which reads and counts it).
# The calendar is generated (seeded): 10,000 VEVENTs over two years around the day, a quarter of
# them series (weekly with BYDAY and EXDATE, monthly, every other day), all-day and overnight ones,
# four zones; a dense week (about 3,100 occurrences). Then the same with a calendar of 10,000
# single events (no series: a week holds about 70), the shape of a long calendar history.
# Prints figures; never fails on time. RUNS=N (default 10).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PEERS="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
DATA="$ROOT/bench/data"
RES="$ROOT/bench/results"
RUNS="${RUNS:-10}"
PY="$(python3 -c 'import sys; print(sys.executable)')"
command -v hyperfine >/dev/null || { echo "skip: hyperfine is not installed"; exit 0; }
mkdir -p "$DATA" "$RES"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product kept >/dev/null 2>&1)
KEPT="${KEPT:-$ROOT/.build/release/kept}"
CLOCK=(--now 2026-06-15T09:00 --zone Europe/Berlin)

# The 100k store, as sqlite_bench.sh makes it.
if [ ! -f "$DATA/store-100k.db" ]; then
  [ -f "$DATA/tasks-100k.jsonl" ] || (cd "$PEERS" && "$PY" gen_tasks.py -n 100000 --out "$DATA" >/dev/null)
  [ -f "$DATA/store-100k.json" ] || "$PY" "$ROOT/bench/convert_store.py" "$DATA/tasks-100k.jsonl" "$DATA/store-100k.json" --zone Europe/Berlin >/dev/null
  "$KEPT" convert "$DATA/store-100k.json" "$DATA/store-100k.db" >/dev/null
fi

# 10,000 events, seeded.
ICS="$DATA/events-10k.ics"
SINGLES="$DATA/events-10k-single.ics"
for f in "$ICS" "$SINGLES"; do
[ -f "$f" ] || "$PY" - "$f" <<'EOF'
import datetime as dt, random, sys
singles = sys.argv[1].endswith("-single.ics")
r = random.Random(20260615)
zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC"]
out = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//kept//agenda bench//EN"]
base = dt.datetime(2026, 6, 15, 9, 0)
days = ["MO", "TU", "WE", "TH", "FR"]
for k in range(10000):
    uid = f"bench-{k}@kept.invalid"
    z = r.choice(zones)
    kind = r.random()
    start = base + dt.timedelta(days=r.randint(-700, 365), minutes=15 * r.randint(-30, 40))
    lines = ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20260101T000000Z", f"SUMMARY:Event {k} with a title of some length"]
    if kind < 0.1:
        lines += [f"DTSTART;VALUE=DATE:{start:%Y%m%d}", f"DTEND;VALUE=DATE:{start + dt.timedelta(days=r.randint(1, 3)):%Y%m%d}"]
    else:
        tz = "" if z == "UTC" else f";TZID={z}"
        stamp = f"{start:%Y%m%dT%H%M%S}" + ("Z" if z == "UTC" else "")
        lines += [f"DTSTART{tz}:{stamp}", f"DURATION:PT{r.choice([15, 30, 45, 60, 90, 600])}M"]
    if singles:
        pass
    elif kind > 0.8:
        lines.append("RRULE:FREQ=WEEKLY;BYDAY=" + ",".join(sorted(r.sample(days, 2), key=days.index)) + (";COUNT=40" if r.random() < 0.3 else ""))
        lines.append(f"EXDATE;VALUE=DATE:{(start + dt.timedelta(days=7 * r.randint(1, 20))):%Y%m%d}")
    elif kind > 0.75:
        lines.append("RRULE:FREQ=MONTHLY;BYDAY=1MO,3WE")
    elif kind > 0.72:
        lines.append("RRULE:FREQ=DAILY;INTERVAL=2")
    lines.append(f"LOCATION:Room {k % 40}")
    lines.append("END:VEVENT")
    out += lines
out.append("END:VCALENDAR")
open(sys.argv[1], "w", newline="").write("\r\n".join(out) + "\r\n")
EOF
done

WORK="$DATA/agenda-100k.db"
rm -f "$WORK" "$WORK-wal" "$WORK-shm"
cp "$DATA/store-100k.db" "$WORK"
"$KEPT" run --store "$WORK" "${CLOCK[@]}" --write -e "calendar connect Events $ICS" >/dev/null
ms() { "$PY" -c "import json;print(f\"{json.load(open('$1'))['results'][0]['median']*1000:.1f}\")"; }
time_one() { # NAME STATEMENT...
  local name="$1"; shift
  local args=""
  for s in "$@"; do args="$args -e '$s'"; done
  hyperfine -N --runs "$RUNS" --warmup 2 --style none --export-json "$RES/agenda-$name.json" \
    "$KEPT run --store $WORK ${CLOCK[*]} $args" >/dev/null 2>&1
  ms "$RES/agenda-$name.json"
}
EVENTS=$("$KEPT" run --store "$WORK" "${CLOCK[@]}" -e "calendar list" | awk '{print $(NF-1)}')
AGENDA=$(time_one agenda "agenda")
PLAN=$(time_one plan "plan limit 3")
LIST=$(time_one list "calendar list")
"$KEPT" run --store "$WORK" "${CLOCK[@]}" --write -e "calendar hide Events" >/dev/null
HIDDEN=$(time_one hidden "agenda")
"$KEPT" run --store "$WORK" "${CLOCK[@]}" --write -e "calendar disconnect Events" -e "calendar connect Singles $SINGLES" >/dev/null
SINGLE=$(time_one single "agenda")
SHOWN=$("$KEPT" run --store "$DATA/store-100k.db" "${CLOCK[@]}" --format json -e "agenda" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(sum(len(x.get("timed", [])) + len(x.get("dueThisDay", [])) for x in d["days"]))')
{
  echo "agenda, 100,000-task SQLite store, a connected calendar of $EVENTS events (medians of $RUNS runs, ms)"
  printf '  %-44s %8s\n' "agenda (7 days)" "$AGENDA"
  printf '  %-44s %8s\n' "plan limit 3 (same store, same run)" "$PLAN"
  printf '  %-44s %8s\n' "agenda, the calendar hidden (tasks only)" "$HIDDEN"
  printf '  %-44s %8s\n' "calendar list (reads and counts the file)" "$LIST"
  printf '  %-44s %8s\n' "agenda, 10,000 single events instead" "$SINGLE"
  echo "  goal: agenda within 100 ms; the days hold $SHOWN task entries"
} | tee "$RES/agenda-summary.txt"
