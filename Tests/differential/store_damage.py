#!/usr/bin/env python3
"""Damage a SQLite store and a JSON store at random, many times, and hold Kept to what docs/STORE.md
("Damage") promises: a damaged store is reported, never read as less.

One store is made through Kept itself (tasks with projects, tags, repeats, subtasks, completed and
deleted ones, an undo history), as a JSON file and, by `kept convert`, as a SQLite file. The
reference is what `kept convert` reads of each undamaged store. Then, TRIES times for each kind, a
copy gets 1 to 16 random bytes written at a random offset, and:

  * `kept convert COPY OUT.json` either refuses with a coded error (E0xxx) that names the copy, or
    writes exactly the reference; for a JSON store a different answer is allowed only with the
    W0002 warning (the file's checksum says its bytes changed after Kept wrote them, which a hand
    edit also does). Never a crash, a hang, or a silently smaller or different store.
  * convert never writes its source: the copy's bytes are the same after it.
  * when convert refused, `kept run --store COPY --write -e 'list status:any' -e 'add z'` fails
    and leaves the copy byte-identical: nothing is written to a store reported unreadable.
  * `kept check COPY` ends with 0, 1 or 2 and never crashes.

Seeded (DAMAGE_SEED, default 28) so a failure can be replayed. Ends with `N passed, M failed`.
"""
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEPT = os.environ.get("KEPT", os.path.join(ROOT, ".build", "debug", "kept"))
TRIES = int(os.environ.get("DAMAGE_TRIES", "200"))
SEED = int(os.environ.get("DAMAGE_SEED", "28"))
CODE = re.compile(r"error\[E\d{4}\]")
NOW = ["--now", "2026-06-15T09:00", "--zone", "Europe/Berlin"]


def kept(*args, timeout=30):
    try:
        p = subprocess.run([KEPT, *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    return p


def digest(path):
    h = hashlib.sha256()
    for suffix in ("", "-wal"):
        if os.path.exists(path + suffix):
            with open(path + suffix, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def loaded(path):
    """A converted JSON store as data, without its checksum (which covers its own bytes)."""
    with open(path, encoding="utf-8") as f:
        d = json.load(f)
    d.pop("checksum", None)
    return d


def script():
    lines = ["project add Home", "project add Work"]
    rng = random.Random(SEED)
    words = ["call", "write", "pay", "fix", "plan", "read", "buy", "send", "clean", "book"]
    for k in range(1, 121):
        title = f"{rng.choice(words)} {rng.choice(words)} {k}"
        extra = rng.choice(["", " @tomorrow", " @fri 3pm", " +Home", " +Work #phone", " every monday", " !high", " @2026-07-01"])
        lines.append(f"add {title}{extra}")
    lines += ["subtask 3 check the list", "complete 5", "complete 7", "delete 9", "comment 4 a note with \"quotes\" and ü",
              "tag 6 #errand", "complete 1", "undo"]
    return "\n".join(lines) + "\n"


def main():
    if not os.access(KEPT, os.X_OK):
        print(f"store_damage: no kept binary at {KEPT}; run `swift build` first")
        print("0 passed, 1 failed")
        return 1
    passed = failed = 0
    counts = {}
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "make.kept")
        with open(src, "w") as f:
            f.write(script())
        base = {"json": os.path.join(tmp, "base.json"), "sqlite": os.path.join(tmp, "base.db")}
        p = kept("run", "--store", base["json"], "--write", *NOW, src)
        assert p is not None and p.returncode == 0, p and p.stderr
        p = kept("convert", base["json"], base["sqlite"])
        assert p is not None and p.returncode == 0, p and p.stderr
        ref = {}
        for kind, path in base.items():
            out = os.path.join(tmp, f"ref-{kind}.json")
            p = kept("convert", path, out)
            assert p is not None and p.returncode == 0, p and p.stderr
            ref[kind] = loaded(out)
        rng = random.Random(SEED)
        for kind, path in base.items():
            size = os.path.getsize(path)
            for t in range(TRIES):
                copy = os.path.join(tmp, f"t{t}{os.path.splitext(path)[1]}")
                shutil.copyfile(path, copy)
                at = rng.randrange(size)
                n = rng.randint(1, 16)
                with open(copy, "r+b") as f:
                    f.seek(at)
                    f.write(bytes(rng.randrange(256) for _ in range(n)))
                name = f"{kind} try {t} ({n} bytes at {at})"
                before = digest(copy)
                before_copy = copy + ".orig"
                shutil.copyfile(copy, before_copy)
                out = os.path.join(tmp, f"out{t}.json")
                problems = []
                p = kept("convert", copy, out)
                if p is None:
                    problems.append("convert hung")
                elif p.returncode < 0:
                    problems.append(f"convert died by signal {-p.returncode}")
                elif p.returncode == 0:
                    same = loaded(out) == ref[kind]
                    if same:
                        outcome = "correct"
                    elif kind == "json" and "warning[W0002]" in p.stderr:
                        outcome = "warned"
                    else:
                        outcome = "silently different"
                        problems.append("convert wrote a different store without a word")
                else:
                    outcome = "refused"
                    if not CODE.search(p.stderr) or os.path.basename(copy) not in p.stderr:
                        problems.append(f"convert failed without a coded error naming the store: {p.stderr.strip()[:300]}")
                if digest(copy) != before:
                    problems.append("convert changed its source")
                if p is not None and p.returncode > 0:
                    w = kept("run", "--store", copy, "--write", *NOW, "-e", "list status:any", "-e", "add z")
                    if w is None or w.returncode <= 0:
                        problems.append(f"a write to a store reported unreadable did not fail: {w and w.returncode}")
                    if digest(copy) != before:
                        problems.append("a store reported unreadable was written")
                c = kept("check", copy)
                if c is None or c.returncode not in (0, 1, 2):
                    problems.append(f"check ended with {c and c.returncode}")
                key = (kind, outcome if p is not None else "hung")
                counts[key] = counts.get(key, 0) + 1
                keep = os.environ.get("DAMAGE_KEEP")
                if problems and keep:
                    # DAMAGE_KEEP=DIR keeps what a failure needs to replay it.
                    os.makedirs(keep, exist_ok=True)
                    shutil.copyfile(path, os.path.join(keep, "base" + os.path.splitext(path)[1]))
                    with open(os.path.join(keep, f"{kind}-{t}.txt"), "w") as f:
                        f.write(f"{n} bytes at {at}\n")
                    shutil.copyfile(before_copy, os.path.join(keep, os.path.basename(copy)))
                    if os.path.exists(out):
                        shutil.copyfile(out, os.path.join(keep, os.path.basename(out)))
                for f in os.listdir(tmp):
                    if f.startswith(f"t{t}.") or f.startswith(f".t{t}.") or f.startswith(f"out{t}."):
                        os.remove(os.path.join(tmp, f))
                if problems:
                    failed += 1
                    print(f"FAIL {name}: " + "; ".join(problems))
                else:
                    passed += 1
    for (kind, outcome), n in sorted(counts.items()):
        print(f"store_damage: {kind}: {n} {outcome}")
    print(f"store_damage: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
