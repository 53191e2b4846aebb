"""What crosses between minecheck and a solver's sandbox: data one way, never code the other.

A call goes down a pipe as a pickle: ``(method, args, budget)``, and to a jailed sandbox first the import path
and the object to serve.  That direction is trusted: minecheck makes those bytes, and the process that reads
them is the sandbox, whose code is the solver's anyway (it can do to itself whatever a pickle could).

What comes back is untrusted, from a forked sandbox as from a jailed one: an *outcome* (a value or an error, what
stopped the call, its CPU and wall seconds) whose value is a solver's result, a batch's outcomes, a solver's
description or the reason it could not be made, or plain JSON.  It crosses as JSON, checked by the definitions
of schema/answer-v1.json (the schema of a program's answer, whose verdict and reason it shares), and is then
made into minecheck's own values field by field.  Nothing in it names a class, a function or an attribute, so
an answer cannot set anything in the process that reads it (a pickle's BUILD on a class could: issue 48).
Counts and fractions of any length cross as decimal strings, read by GMP.  Each message is a length and its
bytes; a length past what the caller reads (its output budget) is refused before a byte is read, and a message
whose bytes stop coming is the call's idle stop.
"""

from __future__ import annotations

import json
import math
import os
import select
import struct
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from minecheck.model.answers import Answers, CellAnswer, Failure, FailureKind, Mode, SolverResult, Verdict
from minecheck.model.errors import MinecheckError
from minecheck.model.numbers import PYTHON_DIGITS, decimal, whole
from minecheck.running.protocol import answer_schema
from minecheck.running.stops import Outcome, Stop

HEADER = struct.Struct("<Q")  # a message's length, before its bytes
READ_SIZE = 1 << 20


@dataclass(frozen=True)
class Declared:
    """What a solver declares about itself, which the checking process needs without its code."""

    name: str
    answers: frozenset[Answers]
    modes: frozenset[Mode]
    flags: str = "mines"  # how it reads a flag: "mines", or "marks" (model.solver.reads_flags_as_marks)


@dataclass(frozen=True)
class Refused:
    """Making the solver was refused (an import that fails, a class lacking the protocol): the error to raise."""

    unknown: bool  # UnknownSolver (not the protocol) rather than Unavailable (cannot run here)
    message: str
    fix: str | None = None


class Unreadable(MinecheckError, ValueError):
    """A message that is not an outcome minecheck takes: not JSON, not of the schema, or too long."""


class Oversized(Unreadable):
    """A message longer than the caller reads; ``size`` is what its header says."""

    def __init__(self, size: int, limit: int):
        super().__init__(f"a message of {size} bytes, more than the {limit} minecheck reads")
        self.size, self.limit = size, limit


class Stalled(Unreadable):
    """A message whose bytes stopped coming (its header said more than came)."""


class Channel:
    """One end of a pair of pipes carrying messages, each its length (8 bytes) and its bytes.  (multiprocessing's
    connections would do, at the price of importing sockets and temporary files on every start.)"""

    def __init__(self, read_fd: int, write_fd: int):
        self.read_fd, self.write_fd = read_fd, write_fd

    def send(self, data: bytes) -> None:
        view = memoryview(HEADER.pack(len(data)) + data)
        while view:
            view = view[os.write(self.write_fd, view):]

    def recv(self, limit: int | None = None, patience: float | None = None) -> bytes:
        """The next message: EOFError when the other end closed, Oversized past ``limit`` bytes (nothing more
        read), Stalled when no byte came for ``patience`` seconds in the middle of one."""
        (size,) = HEADER.unpack(self._read(HEADER.size, patience))
        if limit is not None and size > limit:
            raise Oversized(size, limit)
        return self._read(size, patience)

    def _read(self, size: int, patience: float | None) -> bytes:
        chunks, left = [], size
        while left:
            if patience is not None and not self.poll(patience):
                raise Stalled(f"a message cut short: {size - left} of its {size} bytes came, then none for "
                              f"{patience:g} s")
            chunk = os.read(self.read_fd, min(left, READ_SIZE))
            if not chunk:
                raise EOFError("the other end closed the channel")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def poll(self, seconds: float) -> bool:
        return bool(select.select([self.read_fd], [], [], seconds)[0])

    def close(self) -> None:
        for fd in (self.read_fd, self.write_fd):
            try:
                os.close(fd)
            except OSError:
                pass


def channel_pair() -> tuple[Channel, Channel]:
    """The caller's end and the sandbox's end of a new pair of pipes."""
    down_read, down_write = os.pipe()
    up_read, up_write = os.pipe()
    return Channel(up_read, down_write), Channel(down_read, up_write)


# -- an outcome as JSON -------------------------------------------------------------------------------------

def encode_outcome(outcome: Outcome) -> bytes:
    """The outcome as the JSON the caller reads (ValueError or TypeError when its value holds what JSON cannot:
    the answer is then the sandbox's error, ``serving``)."""
    return json.dumps(_outcome(outcome), separators=(",", ":"), ensure_ascii=False).encode()


def _outcome(o: Outcome) -> dict:
    return {"value": _value(o.value), "error": o.error, "stop": None if o.stop is None else o.stop.value,
            "cpu": float(o.cpu), "wall": float(o.wall), "how": o.how, "stderr": o.stderr}


def _value(value: Any) -> dict | None:
    if value is None:
        return None
    if isinstance(value, SolverResult):
        return {"result": result_message(value)}
    if isinstance(value, Declared):
        return {"declared": {"name": value.name, "answers": sorted(str(a) for a in value.answers),
                             "modes": sorted(str(m) for m in value.modes), "flags": value.flags}}
    if isinstance(value, Refused):
        return {"refused": {"unknown": value.unknown, "message": value.message, "fix": value.fix}}
    if isinstance(value, list) and value and all(isinstance(v, Outcome) for v in value):
        return {"outcomes": [_outcome(v) for v in value]}
    return {"data": _plain(value)}


def _plain(value: Any) -> Any:
    """Plain JSON data (tuples as lists), refused (TypeError) where it holds anything else."""
    if value is None or type(value) in (bool, int, float, str):
        return value
    if type(value) in (list, tuple):
        return [_plain(v) for v in value]
    if type(value) is dict and all(type(k) is str for k in value):
        return {k: _plain(v) for k, v in value.items()}
    raise TypeError(f"{type(value).__name__} is not data minecheck takes back from a sandbox")


def result_message(r: SolverResult) -> dict:
    """A result as the outcome's JSON holds it: every field, exact (counts and fractions as decimal strings)."""
    failure = r.failure
    return {
        "solver": r.solver, "mode": str(r.mode), "consistent": r.consistent, "reason": r.reason,
        "cells": [[a.cell, None if a.verdict is None else str(a.verdict), _probability(a.probability), a.stderr]
                  for a in r.cells],
        "layouts": _count(r.layouts),
        "component_layouts": None if r.component_layouts is None else [_count(n) for n in r.component_layouts],
        "lp_values": None if r.lp_values is None else [[c, v] for c, v in r.lp_values],
        "seconds": r.seconds, "cpu": r.cpu,
        "failure": None if failure is None else [str(failure.kind), failure.message, failure.budget, failure.stderr],
        "declined": r.declined, "samples": r.samples,
        "claims": None if r.claims is None else sorted(str(a) for a in r.claims),
        "partial": r.partial, "tolerance": r.tolerance, "extra": [[k, v] for k, v in r.extra],
    }


def _count(n: int | None) -> str | None:
    if n is None:
        return None
    if type(n) is not int:  # a bool, a float, numpy's ints: said as what they are, not guessed at
        raise TypeError(f"a count of {type(n).__name__} {n!r}, not an int")
    return decimal(n)


def _probability(p: Any) -> Any:
    if isinstance(p, Fraction):
        return f"{decimal(p.numerator)}/{decimal(p.denominator)}"
    return p


# -- JSON back to an outcome --------------------------------------------------------------------------------

def decode_outcome(data: bytes) -> Outcome:
    """The outcome a sandbox sent: Unreadable, saying why, unless it is JSON of the schema's ``outcome``."""
    try:
        message = json.loads(data, parse_constant=float, parse_int=_plain_int)
    except RecursionError:
        raise Unreadable("a message nested deeper than a JSON reader follows") from None
    except ValueError as err:  # not UTF-8, not JSON, an integer past Python's digits
        raise Unreadable(f"not JSON ({str(err)[:120]})") from None
    check_message(message)
    try:
        return _read_outcome(message)
    except (ValueError, ZeroDivisionError) as err:  # a count or fraction the schema's pattern let by, still not one
        raise Unreadable(f"a number that is not one ({str(err)[:120]})") from None


def _plain_int(text: str) -> int:
    """A JSON integer of a message: counts cross as decimal strings, so one past Python's digits is refused (read,
    it would cost the reader time growing with its square)."""
    if len(text) > PYTHON_DIGITS:
        raise ValueError(f"an integer of {len(text)} digits (counts cross as decimal strings)")
    return int(text)


def check_message(message: Any) -> None:
    """Unreadable, naming the field, unless ``message`` follows the schema's ``outcome``."""
    import fastjsonschema

    try:
        _validator()(message)
    except fastjsonschema.JsonSchemaValueException as err:
        raise Unreadable(f"{err.name.replace('data', 'the message', 1)}: {err.message[:160]}") from None
    except RecursionError:  # data nested past the validator's reach
        raise Unreadable("a message nested deeper than minecheck reads") from None


@cache
def _validator():
    """The schema's ``outcome``, compiled (fastjsonschema), with the program answer's definitions it shares."""
    import fastjsonschema

    return fastjsonschema.compile({**answer_schema(), "$ref": "#/definitions/outcome"})


def _read_outcome(m: dict) -> Outcome:
    return Outcome(value=_read_value(m["value"]), error=m["error"], stop=None if m["stop"] is None else Stop(m["stop"]),
                   cpu=_seconds(m["cpu"]), wall=_seconds(m["wall"]), how=m["how"], stderr=m.get("stderr", ""))


def _seconds(value: float) -> float:
    return float(value) if math.isfinite(value) else 0.0


def _read_value(v: dict | None) -> Any:
    if v is None:
        return None
    if "result" in v:
        return read_result(v["result"])
    if "outcomes" in v:
        return [_read_outcome(o) for o in v["outcomes"]]
    if "declared" in v:
        d = v["declared"]
        return Declared(d["name"], frozenset(Answers(a) for a in d["answers"]), frozenset(Mode(m) for m in d["modes"]),
                        d["flags"])
    if "refused" in v:
        r = v["refused"]
        return Refused(r["unknown"], r["message"], r["fix"])
    return v["data"]


def read_result(d: dict) -> SolverResult:
    """The result ``result_message`` wrote (checked by the schema first)."""
    failure = d["failure"]
    return SolverResult(
        d["solver"], Mode(d["mode"]), d["consistent"], d["reason"],
        tuple(CellAnswer(c, None if v is None else Verdict(v), _read_probability(p), e) for c, v, p, e in d["cells"]),
        None if d["layouts"] is None else whole(d["layouts"]),
        None if d["component_layouts"] is None else tuple(whole(n) for n in d["component_layouts"]),
        None if d["lp_values"] is None else tuple((c, v) for c, v in d["lp_values"]),
        d["seconds"], d["cpu"],
        None if failure is None else Failure(FailureKind(failure[0]), failure[1], failure[2], failure[3]),
        d["declined"], d["samples"],
        None if d["claims"] is None else frozenset(Answers(a) for a in d["claims"]),
        d["partial"], d["tolerance"], tuple((k, v) for k, v in d["extra"]))


def _read_probability(p: Any) -> Any:
    if isinstance(p, str):
        numerator, _, denominator = p.partition("/")
        return Fraction(whole(numerator), whole(denominator))
    return p

