"""Tries to get out of its sandbox in one way (``--how``), then answers like the others (claims nothing), or, if
the attempt got anywhere, exits with status 42, a crash finding that the test would see.

    escape.py --how HOW [--run-folder DIR] [--victim FILE] [--port N] [--marker WORD] [--persistent]

HOW is one of the attacks that once broke a campaign (issue 38), each aimed only at this program's own
ancestors - its guardian, the worker, the coordinator - never at any other process of the machine:

* blank: find the run folder through an ancestor's open files (/proc/ANCESTOR/fd, its lock file) or the
  folder named, and overwrite findings.jsonl (and the run's other files there) with spaces;
* stop, kill: SIGSTOP or SIGKILL every ancestor;
* plant: put ``NAME.tmp`` links to the victim file in the run folder, for minecheck to write through;
* overwrite: write over the victim file (a user's file, outside /tmp) directly;
* network: connect to 127.0.0.1:PORT, where the test listens;
* proc: read /proc of the ancestors past its sandbox's init (their command lines, environment, open files);
* none: nothing (the run to compare with).
``--marker`` only puts a word on the command line, by which the test finds its processes from outside.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import time

from _hostile import EMPTY

ANCESTORS = 3  # the guardian, the worker, the coordinator: no process above them is ever touched
OWN = ("findings.jsonl", "boards.jsonl", "campaign.json")


def ancestors() -> list[int]:
    """The ids of this process's ancestors, nearest first, as far as its /proc shows them (at most ANCESTORS)."""
    found, pid = [], os.getpid()
    while len(found) < ANCESTORS:
        try:
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
        if pid <= 0:
            break
        found.append(pid)
    return found


def run_folders(named: str | None) -> set[str]:
    """The run folders within reach: the one named, and those of the files the ancestors hold open."""
    folders = {named} if named else set()
    for pid in ancestors():
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            for folder in (target, os.path.dirname(target)):
                if os.path.isfile(os.path.join(folder, "findings.jsonl")):
                    folders.add(folder)
    return {f for f in folders if any(os.path.exists(os.path.join(f, name)) for name in OWN)}


def blank(args) -> bool:
    done = False
    for path in [os.path.join(folder, name) for folder in run_folders(args.run_folder) for name in OWN]:
        try:
            with open(path, "r+b") as f:
                data = f.read()
                f.seek(0)
                f.write(bytes(b if b == 0x0A else 0x20 for b in data))
            done = True
        except OSError:
            pass
    return done


def signal_ancestors(sig: int) -> bool:
    """Whether a SIGSTOP or SIGKILL to an ancestor took (in a sandbox the first is its init, which drops both)."""
    done = False
    for pid in ancestors():
        try:
            os.kill(pid, sig)
        except OSError:
            continue
        done = stopped_or_gone(pid) or done
    return done


def stopped_or_gone(pid: int) -> bool:
    """Whether the process is stopped or ended (a SIGSTOP or SIGKILL that took)."""
    time.sleep(0.1)
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("T", "t", "Z", "X")
    except OSError:
        return True


def plant(args) -> bool:
    done = False
    for folder in run_folders(args.run_folder) | ({args.run_folder} if args.run_folder else set()):
        for name in OWN:
            try:
                os.symlink(args.victim, os.path.join(folder, name + ".tmp"))
                done = True
            except OSError:
                pass
    return done


def overwrite(args) -> bool:
    try:
        with open(args.victim, "w") as f:
            f.write("overwritten by the solver\n")
        return True
    except OSError:
        return False


def network(args) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", args.port), timeout=2) as s:
            s.sendall(b"escaped\n")
        return True
    except OSError:
        return False


def proc() -> bool:
    """Whether it read anything of a process outside its sandbox (past its init, which is its parent there)."""
    beyond = ancestors()[1:] if os.getppid() == 1 else ancestors()
    for pid in beyond:
        for what in ("cmdline", "environ", "fd"):
            try:
                if what == "fd":
                    os.listdir(f"/proc/{pid}/fd")
                else:
                    with open(f"/proc/{pid}/{what}", "rb") as f:
                        f.read()
                return True
            except OSError:
                pass
    return False


def attack(args) -> bool:
    """Whether the attack got anywhere."""
    if args.how == "blank":
        return blank(args)
    if args.how in ("stop", "kill"):
        return signal_ancestors(signal.SIGSTOP if args.how == "stop" else signal.SIGKILL)
    if args.how == "plant":
        return plant(args)
    if args.how == "overwrite":
        return overwrite(args)
    if args.how == "network":
        return network(args)
    if args.how == "proc":
        return proc()
    return False


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--how", required=True)
    parser.add_argument("--run-folder", default=None)
    parser.add_argument("--victim", default=None)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--marker", default=None)
    parser.add_argument("--persistent", action="store_true")
    args = parser.parse_args()
    requests = sys.stdin if args.persistent else [sys.stdin.read()]
    for _ in requests:
        if attack(args):
            sys.exit(42)
        print(EMPTY, flush=True)


if __name__ == "__main__":
    main()
