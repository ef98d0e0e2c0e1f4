#!/usr/bin/env python3
"""A seeded generator of tasks in the neutral JSON Lines shape (one task object per line).

    python3 Tests/differential/sample_tasks.py -n 10000 --out DIR     # writes DIR/tasks-10k.jsonl

The shape is the one bench/convert_store.py reads: id, title, project, tags, priority
(none/low/medium/high/urgent), due (a date, or a date-time with the Europe/Berlin offset of
that day), dueHasTime, repeat ({"text", "rrule"} or null), status (pending/completed),
completedAt, estimateMinutes, description, createdAt (UTC with Z). The differential tests use
it when the peers' benchmark folder is not beside the checkout, so their checks against the
real peers still run in a clean clone. Stdlib only; the same seed gives the same file.

The query vocabulary: the project QUERY_PROJECT and the tag QUERY_TAG occur often enough
for a project+tag+due count to be a few dozen at 10,000 tasks, and a description or title
matches "(review|fix) .*(budget|report)" now and then.
"""
import argparse
import datetime as dt
import json
import os
import random
from zoneinfo import ZoneInfo

ZONE = ZoneInfo("Europe/Berlin")
QUERY_PROJECT = "Garden"
QUERY_TAG = "errand"
PROJECTS = [QUERY_PROJECT, "House", "Work", "Taxes", "Trip", "Car", "Health", "Books", "Music", "Kids",
            "Office", "Garage", "Bikes", "Kitchen", "Friends", "Learning"]
TAGS = [QUERY_TAG, "phone", "deep", "quick", "waiting", "email", "outside", "shop", "read", "call",
        "laptop", "town", "weekend", "evening", "morning", "low-energy"]
VERBS = ["Review", "Fix", "Call", "Buy", "Write", "Plan", "Clean", "Book", "Send", "Read", "Sort", "Pay",
         "Check", "Order", "Draft", "Water"]
NOUNS = ["budget", "report", "invoice", "tickets", "plants", "car", "letter", "slides", "garden", "bike",
         "tax form", "dentist", "groceries", "notes", "shelf", "backup"]
FILLER = ["for", "with", "before", "the", "new", "old", "weekly", "quarterly", "big", "small", "shared"]
# (rrule, Kept's words), weighted by how often a planner's users have them.
REPEATS = [
    ("FREQ=DAILY", "every day", 20),
    ("FREQ=DAILY;INTERVAL=2", "every 2 days", 3),
    ("FREQ=DAILY;INTERVAL=10", "every 10 days", 1),
    ("FREQ=WEEKLY;BYDAY=MO", "every monday", 10),
    ("FREQ=WEEKLY;BYDAY=MO,WE,FR", "every monday, wednesday and friday", 4),
    ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "every weekday", 4),
    ("FREQ=WEEKLY;BYDAY=SA,SU", "every weekend", 3),
    ("FREQ=WEEKLY;INTERVAL=2", "every 2 weeks", 3),
    ("FREQ=MONTHLY;BYMONTHDAY=1", "every month on the 1st", 3),
    ("FREQ=MONTHLY;BYMONTHDAY=15", "every month on the 15th", 2),
    ("FREQ=MONTHLY;BYMONTHDAY=-1", "every month on the last day", 2),
    ("FREQ=MONTHLY;BYMONTHDAY=1,15", "every month on the 1st and 15th", 1),
    ("FREQ=MONTHLY;BYDAY=2TU", "every month on the 2nd tuesday", 1),
    ("FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1", "every 3 months on the 1st", 1),
    ("FREQ=YEARLY", "every year", 5),
]


def berlin_offset(day, hour, minute):
    local = dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=ZONE)
    return local.isoformat(timespec="seconds")


def title(rng):
    words = [rng.choice(VERBS)] + rng.sample(FILLER, rng.randint(0, 2)) + [rng.choice(NOUNS)]
    return " ".join(words)


def task(rng, i):
    today = dt.date(2026, 6, 15)
    done = rng.random() < 0.2
    due = None
    timed = False
    if rng.random() < 0.7:
        day = today + dt.timedelta(days=rng.randint(-45, 75))
        if rng.random() < 0.25:
            timed = True
            due = berlin_offset(day, rng.choice([8, 9, 12, 15, 18]), rng.choice([0, 30]))
        else:
            due = day.isoformat()
    repeat = None
    if due and rng.random() < 0.14:
        rrule, text, _ = rng.choices(REPEATS, weights=[w for _, _, w in REPEATS])[0]
        repeat = {"text": text, "rrule": rrule}
    tags = rng.sample(TAGS, rng.choices([0, 1, 2, 3], weights=[4, 4, 2, 1])[0])
    if rng.random() < 0.15 and QUERY_TAG not in tags:
        tags.append(QUERY_TAG)
    created = dt.datetime(2025, 6, 1, tzinfo=dt.timezone.utc) + dt.timedelta(seconds=rng.randint(0, 360 * 86400))
    completed = None
    if done:
        completed = (created + dt.timedelta(days=rng.randint(1, 20), minutes=rng.randint(0, 1440)))
        completed = min(completed, dt.datetime(2026, 6, 14, 20, 0, tzinfo=dt.timezone.utc))
    description = None
    if rng.random() < 0.15:
        description = f"{rng.choice(VERBS).lower()} the {rng.choice(NOUNS)} {rng.choice(FILLER)} {rng.choice(NOUNS)}"
    return {
        "id": i,
        "title": title(rng),
        "project": rng.choice(PROJECTS) if rng.random() < 0.9 else None,
        "tags": tags,
        "priority": rng.choices(["none", "low", "medium", "high", "urgent"], weights=[50, 15, 20, 10, 5])[0],
        "due": due,
        "dueHasTime": timed,
        "repeat": repeat,
        "status": "completed" if done else "pending",
        "completedAt": completed.strftime("%Y-%m-%dT%H:%M:%SZ") if completed else None,
        "estimateMinutes": rng.choice([5, 15, 30, 60, 90]) if rng.random() < 0.3 else None,
        "description": description,
        "createdAt": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=10000)
    p.add_argument("--out", default=".")
    p.add_argument("--seed", type=int, default=20261202)
    a = p.parse_args()
    rng = random.Random(a.seed)
    label = f"{a.n // 1000}k" if a.n % 1000 == 0 else str(a.n)
    path = os.path.join(a.out, f"tasks-{label}.jsonl")
    with open(path + ".tmp", "w") as f:
        for i in range(1, a.n + 1):
            f.write(json.dumps(task(rng, i), ensure_ascii=False, separators=(",", ":")) + "\n")
    os.replace(path + ".tmp", path)
    print(path)


if __name__ == "__main__":
    main()
