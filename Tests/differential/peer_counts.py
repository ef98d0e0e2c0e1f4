#!/usr/bin/env python3
"""The peers' generated stores give the peers' expected counts (Tests/differential/peers).

Generates the 1k and 10k stores with the peers' seeded generator, a copy of which is in this
repository (Tests/differential/peers/README.md), into a temporary folder,
converts them with bench/convert_store.py, and checks kept's answers to queries a, b and d
against the answers in expected-<N>.json. Query b is checked under the whole-day rule (a date-only task
due today is not overdue until the day ends), which is the expected file's
`b_alt_overdue_dateonly_from_next_day`; Taskwarrior's 15,852-style count treats such a task as
overdue from local midnight. Ends with `N passed, M failed`; a missing generator or answer file
fails the run (it is never skipped).
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
# The copy in this repository, or the peers' own folder (answers in its results/) with PEERS_DIR.
PEERS = os.environ.get("PEERS_DIR", os.path.join(HERE, "peers"))
ANSWERS = os.path.join(PEERS, "results") if "PEERS_DIR" in os.environ else PEERS
KEPT = os.environ.get("KEPT", os.path.join(ROOT, ".build", "debug", "kept"))
REGEX = "(review|fix) .*(budget|report)"
QUERIES = {
    # a: TW `project:Ruqua +haslest due.before:eow count` has no status filter, and eow is
    # Sunday 23:59:59, so a due on Sunday counts.
    "a_project_tag_due_before_eow": "count status:any +Ruqua #haslest due <= eow",
    "b_alt_overdue_dateonly_from_next_day": "count overdue",
    # d: TW's /re/ is case-insensitive over its description (kept's title) and annotations
    # (kept's description), with no status filter.
    "d_regex_title_or_description": f"count status:any (title ~ /{REGEX}/i or description ~ /{REGEX}/i)",
}


def main():
    gen = os.path.join(PEERS, "gen_tasks.py")
    missing = [p for p in [gen] + [os.path.join(ANSWERS, f"expected-{l}.json") for l in ("1k", "10k")] if not os.path.exists(p)]
    if missing:
        print(f"peer_counts.py: missing {', '.join(missing)} (Tests/differential/peers/README.md)")
        print("0 passed, 1 failed")
        return 1
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, gen, "-n", "1000", "-n", "10000", "--out", tmp], check=True, capture_output=True)
        for label in ("1k", "10k"):
            store = os.path.join(tmp, f"store-{label}.json")
            subprocess.run([sys.executable, os.path.join(ROOT, "bench", "convert_store.py"),
                            os.path.join(tmp, f"tasks-{label}.jsonl"), store, "--zone", "Europe/Berlin"],
                           check=True, capture_output=True)
            with open(os.path.join(ANSWERS, f"expected-{label}.json")) as f:
                expected = json.load(f)
            args = [KEPT, "run", "--store", store, "--now", "2026-06-15T09:00", "--zone", "Europe/Berlin", "--format", "json"]
            for q in QUERIES.values():
                args += ["-e", q]
            out = subprocess.run(args, capture_output=True, text=True)
            lines = out.stdout.splitlines()
            for (key, q), line in zip(QUERIES.items(), lines + [""] * len(QUERIES)):
                try:
                    got = json.loads(line)["count"]
                except (ValueError, KeyError):
                    got = f"no answer ({out.stderr.strip()[:200]})"
                if got == expected[key]:
                    passed += 1
                else:
                    failed += 1
                    print(f"FAIL {label} {key}: kept '{q}' gave {got}, expected {expected[key]}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
