#!/usr/bin/env python3
"""Queries on the server against a synced store: docs/SYNC.md, "Queries on the server".

The random stores and filters of filter_diff.py (its clocks, its terms), each store linked to
an account of its own on a throwaway PostgreSQL cluster, and a second store linked to the same
account from nothing (its first pull). Every filter then runs twice with `kept run --format
json` at the store's clock: once on the synced store (`--store`) and once on the server
(`--account`), as `count F` and `list F` (open work: SQL narrows to it) and `list status:any
(F)` (every task). The two outputs must be equal, byte for byte, ids included.

The cluster is made here (initdb as the `postgres` user when run as root, trust logins, a
Unix socket only) and stopped on exit.

Run: python3 Tests/differential/account_diff.py [--filters N] [--seed S]. Ends with
`N passed, M failed` (a failed statement is one disagreement).

covers: R-SYNC-16
"""
import argparse
import glob
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import json
import re

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import filter_diff as fd  # noqa: E402

KEPT = fd.KEPT
# Terms that look at another task than the one they test.
RELATIONAL = re.compile(r"subtask|parent:|blocked|blocking")


def pg_bin():
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[4]), reverse=True):
        if all(os.access(os.path.join(d, x), os.X_OK) for x in ("initdb", "pg_ctl", "psql")):
            return d
    return None


def as_pg(args, **kw):
    if os.getuid() == 0:
        args = ["runuser", "-u", "postgres", "--"] + args
    return subprocess.run(args, capture_output=True, text=True, **kw)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self, root):
        self.bin = pg_bin()
        if not self.bin:
            raise RuntimeError("PostgreSQL is not under /usr/lib/postgresql/*/bin: run make deps")
        self.root = root
        self.data = os.path.join(root, "data")
        self.sock = os.path.join(root, "sock")
        os.makedirs(self.sock)
        if os.getuid() == 0:
            shutil.chown(root, "postgres", "postgres")
            shutil.chown(self.sock, "postgres", "postgres")
        self.port = free_port()
        r = as_pg([f"{self.bin}/initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"])
        if r.returncode != 0:
            raise RuntimeError("initdb: " + r.stderr)
        opts = f"-k {self.sock} -p {self.port} -c listen_addresses='' -c fsync=off"
        r = as_pg([f"{self.bin}/pg_ctl", "-D", self.data, "-o", opts, "-l", os.path.join(root, "log"), "-w", "start"])
        if r.returncode != 0:
            raise RuntimeError("pg_ctl start: " + r.stderr)
        self.running = True
        r = as_pg([f"{self.bin}/psql", "-X", "-q", "-h", self.sock, "-p", str(self.port), "-U", "postgres", "-d", "postgres",
                   "-c", "CREATE DATABASE kept"])
        if r.returncode != 0:
            raise RuntimeError("createdb: " + r.stderr)

    def conninfo(self, user):
        return f"host={self.sock} port={self.port} dbname=kept user={user}"

    def stop(self):
        if self.running:
            as_pg([f"{self.bin}/pg_ctl", "-D", self.data, "-m", "immediate", "stop"])
            self.running = False


def kept(args):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    return subprocess.run([KEPT] + args, capture_output=True, text=True, env=env)


def run_script(where, c, statements, tmp):
    path = os.path.join(tmp, "script.kept")
    with open(path, "w", encoding="utf-8") as f:
        for s in statements:
            f.write(s + "\n")
    out = kept(["run", "--keep-going"] + where + ["--now", c.now_text, "--format", "json", path])
    return out.stdout.splitlines(), out.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--filters", type=int, default=480, help="filters in all (spread over the clocks and stores)")
    ap.add_argument("--seed", type=int, default=20261204)
    ap.add_argument("--tasks", type=int, default=90)
    args = ap.parse_args()
    if not os.path.exists(KEPT):
        print(f"account_diff.py: no kept at {KEPT}")
        return 1
    rng = random.Random(args.seed)
    runs = [(c, s) for c in fd.CLOCKS for s in range(2)]
    per = -(-args.filters // len(runs))
    passed = failed = shown = 0
    tmp = tempfile.mkdtemp(prefix="kept-account-diff-")
    if os.getuid() == 0:
        os.chmod(tmp, 0o755)
    cluster = None
    try:
        cluster = Cluster(os.path.join(tmp, "pg"))
        admin = cluster.conninfo("postgres")
        r = kept(["account", "init", "--server", admin])
        if r.returncode != 0:
            print("FAIL account init: " + r.stderr.strip()[:400])
            return 1
        for n, ((label, zone, ds, ws, now), s) in enumerate(runs):
            c = fd.Clock(zone, ds, ws, now)
            store = fd.make_store(c, rng, args.tasks)
            st = fd.Store(store["tasks"])
            name = f"diff{n}"
            r = kept(["account", "create", name, "--server", admin])
            if r.returncode != 0:
                print(f"FAIL account create {name}: {r.stderr.strip()[:400]}")
                return 1
            conninfo = cluster.conninfo(name)
            first = os.path.join(tmp, f"{label}-{s}.json")
            with open(first, "w", encoding="utf-8") as f:
                json.dump(store, f, ensure_ascii=False)
            second = os.path.join(tmp, f"{label}-{s}-synced.json")
            for path in (first, second):
                r = kept(["account", "link", conninfo, "--store", path])
                if r.returncode != 0:
                    print(f"FAIL link {path}: {r.stdout.strip()[:200]} {r.stderr.strip()[:400]}")
                    return 1
            filters = [fd.expr(c, st, rng, rng.choice([0, 1, 2, 3])) for _ in range(per)]
            # Open work alone (no status, no relation to another task): the server is asked for
            # open work only. Everything, with `count` alone and status:any: for every task.
            open_work = [x.text for x in filters if not x.status and not RELATIONAL.search(x.text)]
            narrowed = ["list"] + [st for x in open_work for st in ("count " + x, "list " + x)]
            whole = ["count"] + [st for x in filters for st in ("count " + x.text, "list " + x.text, f"list status:any ({x.text})")]
            for statements in (narrowed, whole):
                here, err_here = run_script(["--store", second], c, statements, tmp)
                there, err_there = run_script(["--account", conninfo], c, statements, tmp)
                if len(here) != len(statements) or len(there) != len(statements):
                    print(f"FAIL {label} store {s}: {len(here)} and {len(there)} answers to {len(statements)} statements"
                          f"\n  store stderr: {err_here.strip()[:300]}\n  account stderr: {err_there.strip()[:300]}")
                    failed += len(statements)
                    continue
                for stmt, a, b in zip(statements, here, there):
                    if a == b:
                        passed += 1
                        continue
                    failed += 1
                    if shown < 20:
                        shown += 1
                        print(f"FAIL {label} store {s}: {stmt}\n  synced store: {a[:300]}\n  on the server: {b[:300]}")
    finally:
        if cluster:
            cluster.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
