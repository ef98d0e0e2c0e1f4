#!/usr/bin/env python3
"""The SQLite store's narrowed reads against the general path: one answer, line for line.

A SQLite store reads only the rows a filter may match (SQL narrows, the compiled filter
decides; docs/STORE.md, "A statement reads what it needs"). This script holds that to the
answer of the general path, which reads every task's columns: it writes the random stores of
filter_diff.py (its generator, its clocks: the DST nights of Berlin and New York, a 04:00 day
start, weeks starting on Sunday), copies each into a SQLite store with `kept convert`, and runs
the same script of random filters on three stores:

  * the JSON store;
  * the SQLite store (narrowed reads, sort and limit in SQL where the order has a column);
  * the SQLite store with KEPT_SQL_PUSHDOWN=0 (every read the general way).

For each filter the script runs `count F`, `list F` (half of them with an `order by` and a
`limit`), `plan F limit 3`, and, every few filters, a `where` bulk action (`complete where F`,
`set where (F) priority low`, then `undo`), `plan`, `plan limit N` (the candidates of a limited
plan, SQLiteStore+Plan), `plan by date`, `top3`, `top3 change`, `not today ID` and `why ID`, so
later statements read a store the session has changed. Every line of `--format json` output
must be the same on the three stores. Every second SQLite store is taken back to schema 3
before the run (the plan's columns and indexes dropped), so the run migrates it first.

Run: python3 Tests/differential/sqlite_diff.py [--filters N] [--seed S]. Stdlib only. Ends
with `N passed, M failed` (a failed statement is one whose line differs).

covers: R-STORE-1, R-FIL-4, R-VIEW-3, R-DAY-2, R-PLAN-1
"""
import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import filter_diff as fd  # noqa: E402

KEPT = fd.KEPT
ORDERS = ["", "order by due", "order by due desc", "order by priority desc", "order by created",
          "order by id desc", "order by title", "order by priority, due desc"]


def statements(filters, rng):
    """The script's statements, each with the filter it is about."""
    out = []
    for i, f in enumerate(filters):
        out.append((f, "count " + f))
        if i % 2 == 0:
            out.append((f, "list " + f))
        else:
            o = rng.choice(ORDERS)
            out.append((f, f"list {f} {o} limit {rng.choice([0, 1, 3, 10])}".replace("  ", " ")))
        out.append((f, f"plan {f} limit 3"))
        k = i % 10
        if i % 7 == 1:
            out.append((f, rng.choice(["list today", "list tomorrow", "list today limit 3", "list next 7 days", "list done today"])))
        elif i % 7 == 4:
            # A view with a limit reads each part's first rows (Engine+Views): every view, every
            # limit, in its own order and in another.
            view = rng.choice(["today", "tomorrow", "next 7 days", "all", "done today", "archived"])
            o = rng.choice(["", "", " order by priority desc", " order by created", " order by title", " order by due desc"])
            out.append((f, f"list {view}{o} limit {rng.choice([0, 1, 2, 3, 10, 40])}"))
        if k == 2:
            out.append((f, f"why {rng.randint(1, 95)}"))
        elif k == 3:
            out.append((f, "complete where " + f))
        elif k == 4:
            out.append((f, "plan limit 3"))
        elif k == 5:
            out.append((f, rng.choice(["plan by date limit 5", "plan", "top3"])))
        elif k == 6:
            out.append((f, f"set where ({f}) priority low"))
        elif k == 8:
            out.append((f, rng.choice(["plan limit 1", "plan limit 6", "top3 change", f"not today {rng.randint(1, 95)}", "plan limit 0"])))
        elif k == 7:
            out.append((f, "list " + f + rng.choice([" order by due limit 5", " limit 4 group by due", " group by due"])))
        elif k == 9:
            out.append((f, "undo"))
    return out


def back_to_three(db):
    """Takes a schema-4 store back to schema 3: without the plan's columns and indexes."""
    con = sqlite3.connect(db)
    for name in ["tasks_plan", "tasks_quick", "tasks_goal", "tasks_held"]:
        con.execute(f"DROP INDEX {name}")
    for name in ["tasks_kind_insert", "tasks_kind_delete", "tasks_kind_update"]:
        con.execute(f"DROP TRIGGER {name}")
    con.execute("DROP TABLE task_kinds")
    con.execute("ALTER TABLE tasks DROP COLUMN goal")
    con.execute("ALTER TABLE tasks DROP COLUMN user_estimate")
    con.execute("PRAGMA user_version = 3")
    con.commit()
    con.close()


def run(store, clock, script, pushdown):
    env = dict(os.environ)
    if not pushdown:
        env["KEPT_SQL_PUSHDOWN"] = "0"
    return subprocess.Popen([KEPT, "run", "--keep-going", "--store", store, "--now", clock.now_text, "--format", "json", script],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--filters", type=int, default=2000, help="filters in all (spread over the clocks and stores)")
    ap.add_argument("--seed", type=int, default=20261205)
    ap.add_argument("--tasks", type=int, default=90)
    args = ap.parse_args()
    if not os.path.exists(KEPT):
        print(f"sqlite_diff.py: no kept at {KEPT}")
        return 1
    rng = random.Random(args.seed)
    runs = [(c, s) for c in fd.CLOCKS for s in range(2)]
    per = -(-args.filters // len(runs))
    passed = failed = 0
    shown = 0
    with tempfile.TemporaryDirectory() as tmp:
        for (label, zone, ds, ws, now), s in runs:
            c = fd.Clock(zone, ds, ws, now)
            store = fd.make_store(c, rng, args.tasks)
            # What urgency reads beyond filter_diff's stores: goals, suggested estimates, and a
            # title that holds the words the plan's columns look for.
            for t in store["tasks"]:
                if rng.random() < 0.15:
                    t["goal"] = rng.choice(["ship it", "", "goal"])
                if "estimate" in t and rng.random() < 0.4:
                    t["estimate"]["source"] = "suggested"
                if rng.random() < 0.05:
                    t["title"] += rng.choice([' "goal"', " suggested"])
            st = fd.Store(store["tasks"])
            base = os.path.join(tmp, f"{label}-{s}")
            with open(base + ".json", "w", encoding="utf-8") as f:
                json.dump(store, f, ensure_ascii=False)
            conv = subprocess.run([KEPT, "convert", base + ".json", base + ".db"], capture_output=True, text=True)
            if conv.returncode != 0:
                print(f"FAIL {label}: convert: {conv.stderr.strip()[:300]}")
                failed += 1
                continue
            if s == 1:
                back_to_three(base + ".db")
            # A copy for the run without push-down: two dry runs that write would queue on one file's lock.
            shutil.copyfile(base + ".db", base + "-off.db")
            filters = [fd.expr(c, st, rng, rng.choice([0, 1, 2, 3])).text for _ in range(per)]
            stmts = statements(filters, rng)
            script = base + ".kept"
            with open(script, "w", encoding="utf-8") as f:
                for _, x in stmts:
                    f.write(x + "\n")
            procs = [run(base + ".json", c, script, True), run(base + ".db", c, script, True), run(base + "-off.db", c, script, False)]
            outs = [p.communicate() for p in procs]
            lines = [o[0].splitlines() for o in outs]
            names = ["json", "sqlite", "sqlite, push-down off"]
            if any(len(ls) != len(stmts) for ls in lines):
                print(f"FAIL {label} store {s}: {[len(ls) for ls in lines]} lines for {len(stmts)} statements;"
                      f" stderr: {[o[1].strip()[:200] for o in outs]}")
                failed += len(stmts)
                continue
            for k, (f, x) in enumerate(stmts):
                got = [ls[k] for ls in lines]
                if got[0] == got[1] == got[2]:
                    passed += 1
                    continue
                failed += 1
                if shown < 20:
                    shown += 1
                    print(f"FAIL {label} store {s}: {x}")
                    for n, g in zip(names, got):
                        print(f"  {n}: {g[:400]}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
