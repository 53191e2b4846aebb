"""A refutation's CNF judged by what it means, not by how minecheck writes it.

The checker reads the rules off the board on its own (the cells around a digit, a flag, the total) and
asks of the CNF, whatever the order of its clauses and the numbers of its helper variables:

* the claim clause is the claim ("one of these cells has this value"), and each blocked layout of a count
  certificate has its clause;
* every other clause without a helper variable is *implied* by a rule it names: no layout of that rule
  breaks it (for exactly k of n cells, a clause with p positive and q negative cell literals is broken by
  some layout iff q <= k <= n - p);
* helper variables tied together by clauses form a block, and each block belongs to one rule whose cells
  hold all the block's cells: helpers are never shared between rules;
* each rule, on its own clauses (the cell clauses it implies and its blocks), admits exactly its layouts:
  all 2^n assignments of its n <= ``EXHAUSTIVE`` cells tried (a digit, a flag, a small total), a block
  judged satisfiable by a SAT solver whose model is checked here; a larger total is compared clause for
  clause with the sequential counter (Sinz 2005) pysat writes for exactly k of those cells, its helpers
  matched in increasing order (tests/certify check that counter against every layout of up to 10 cells).

So a layout keeping the rules extends to a model of the CNF without the claim, and no model breaks a rule:
the CNF with the claim unsatisfiable proves the claim false.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import islice, product

from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from minecheck.model.answers import Mode
from minecheck.model.board import COVERED, FLAG, Board

EXHAUSTIVE = 12  # a rule over at most this many cells is checked against all its 2^n assignments
Clause = tuple[int, ...]


@dataclass(frozen=True)
class Dimacs:
    """A CNF as read from DIMACS text: the variables it declares and its clauses."""

    nvars: int
    clauses: tuple[Clause, ...]


def read_dimacs(text: str) -> Dimacs:
    """The CNF of a DIMACS text (comment lines anywhere); ValueError naming the line it cannot read, or whose
    declared sizes are past what the text could hold (``p cnf 2000000000 1`` would make a checker allocate them)."""
    nvars = declared = None
    clauses: list[Clause] = []
    current: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words or words[0] == "c":
            continue
        if words[0] == "p":
            if nvars is not None or len(words) != 4 or words[1] != "cnf":
                raise ValueError(f"line {number}: not one 'p cnf VARS CLAUSES' line")
            nvars, declared = int(words[2]), int(words[3])
            if not 0 <= nvars <= len(text) or not 0 <= declared <= len(text):  # sizes bounded by the file's
                raise ValueError(f"line {number}: 'p cnf {nvars} {declared}' declares more than the file's "
                                 f"{len(text):,} characters could hold")
            continue
        if nvars is None:
            raise ValueError(f"line {number}: a clause before the 'p cnf' line")
        for word in words:
            lit = int(word)
            if lit == 0:
                clauses.append(tuple(current))
                current = []
            elif abs(lit) > nvars:
                raise ValueError(f"line {number}: variable {abs(lit)} past the {nvars} declared")
            else:
                current.append(lit)
    if nvars is None or current or declared != len(clauses):
        raise ValueError("no 'p cnf' line, a clause without its 0, or not as many clauses as declared")
    return Dimacs(nvars, tuple(clauses))


@dataclass(frozen=True)
class OwnRule:
    """A rule as this module reads it: exactly ``mines`` of the variables ``vars`` are true."""

    name: str
    vars: tuple[int, ...]
    mines: int


def own_rules(board: Board, mode: Mode, keys) -> list[OwnRule]:
    """The rules named, read off the cells here (not through ``minecheck.certify.rules``): variable i + 1 is
    the i-th covered or flagged cell in row-major order."""
    unknown = [i for i, v in enumerate(board.cells) if v in (COVERED, FLAG)]
    var = {c: i + 1 for i, c in enumerate(unknown)}
    out = []
    for key in keys:
        kind = key[0]
        if kind == "total":
            if mode is not Mode.GLOBAL or board.total_mines is None:
                raise ValueError("a total in the local mode, or without the total mine count")
            out.append(OwnRule(f"the total of {board.total_mines} mines", tuple(var.values()), board.total_mines))
            continue
        cell = key[1]
        row, col = divmod(cell, board.width)
        if kind == "flag" and board.cells[cell] == FLAG:
            out.append(OwnRule(f"the flag at r{row}c{col}", (var[cell],), 1))
        elif kind == "digit" and board.cells[cell] >= 0:
            near = [r * board.width + c for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                    if 0 <= r < board.height and 0 <= c < board.width and (r, c) != (row, col)]
            out.append(OwnRule(f"the digit {board.cells[cell]} at r{row}c{col}",
                               tuple(var[n] for n in near if n in var), board.cells[cell]))
        else:
            raise ValueError(f"no rule {kind} at r{row}c{col} on the board")
    return out


def cell_var(board: Board) -> dict[int, int]:
    """Each covered or flagged cell's variable (its rank in row-major order, from 1)."""
    return {c: i + 1 for i, c in enumerate(i for i, v in enumerate(board.cells) if v in (COVERED, FLAG))}


def meaning_problems(board: Board, mode: Mode, keys, required: tuple[Clause, ...], cnf: Dimacs) -> list[str]:
    """Why the CNF is not the rules ``keys`` plus the ``required`` clauses (the claim, blocked layouts): empty
    when it is exactly that, whatever its clause order and helper numbering."""
    try:
        rules = own_rules(board, mode, keys)
    except (ValueError, KeyError, IndexError) as err:
        return [f"it names a rule the board has not: {err}"]
    cells = len(cell_var(board))
    problems = []
    where: dict[frozenset, list[int]] = {}
    for i, clause in enumerate(cnf.clauses):
        where.setdefault(frozenset(clause), []).append(i)
    taken = set()
    for clause in required:
        found = where.get(frozenset(clause))
        if not found:
            problems.append(f"no clause says {_words(clause)}: the claim is not the one stated")
        else:
            taken.add(found.pop())  # the last such clause: a rule's own copy, if any, stays a rule's
    left = [c for i, c in enumerate(cnf.clauses) if i not in taken]
    blocks = _blocks([c for c in left if any(abs(x) > cells for x in c)], cells)
    fits = []
    for block in blocks:
        touched = {abs(x) for c in block for x in c if abs(x) <= cells}
        fits.append(sorted((i for i, r in enumerate(rules) if touched <= set(r.vars)),
                           key=lambda i: (len(rules[i].vars), i)))
        if not fits[-1]:
            problems.append(f"helper variables {_helpers(block, cells)} tie cells that no one rule holds")
    plain = [c for c in left if all(abs(x) <= cells for x in c)]
    pools: dict[int, list[Clause]] = {i: [] for i in range(len(rules))}
    for clause in plain:
        over = {abs(x) for x in clause}
        by = [i for i, r in enumerate(rules) if over <= set(r.vars) and _implied(r, clause)]
        for i in by:
            pools[i].append(clause)
        if not by:
            near = [r.name for r in rules if over <= set(r.vars)]
            problems.append(f"the clause {_words(clause)} is implied by no rule: it forbids layouts "
                            + (f"of {', '.join(near)}" if near else "that every rule keeps"))
    label = {v: f"r{c // board.width}c{c % board.width}" for c, v in cell_var(board).items()}
    wrongs: list = []
    for owner in _owners(fits):  # a block that fits several rules (same cells) is tried with each
        wrongs = []
        for i, rule in enumerate(rules):
            mine = tuple(tuple(b) for b, o in zip(blocks, owner) if o == i)
            wrong = _rule_problem(rule, tuple(pools[i]), mine, cells)
            if wrong:
                wrongs.append((rule.name, wrong))
        if not wrongs:
            break
    for name, wrong in wrongs:
        if isinstance(wrong, tuple):
            admitted, mines = wrong
            layout = ", ".join(label[v] for v in mines) + " mines" if mines else "no mine"
            wrong = (f"its clauses {'admit' if admitted else 'forbid'} a layout it "
                     f"{'forbids' if admitted else 'keeps'} ({layout} among its cells)")
        problems.append(f"{name}: {wrong}")
    return problems


OWNERS = 64  # ways of giving ambiguous helper blocks to rules tried at most


def _owners(fits: list[list[int]]):
    """Each way to give every helper block to one rule that holds its cells (the smallest first), at most
    ``OWNERS`` of them; a block no rule holds is given to none (and reported)."""
    choices = [f or [-1] for f in fits]
    yield from islice(product(*choices), OWNERS)


def _implied(rule: OwnRule, clause: Clause) -> bool:
    """Whether every layout with exactly rule.mines of rule.vars true satisfies the clause."""
    lits = set(clause)
    if any(-x in lits for x in lits):
        return True
    negative = sum(1 for x in lits if x < 0)
    positive = len(lits) - negative
    return not negative <= rule.mines <= len(rule.vars) - positive


def _blocks(clauses: list[Clause], cells: int) -> list[list[Clause]]:
    """The clauses with helper variables, grouped where helpers share a clause."""
    parent: dict[int, int] = {}

    def find(v: int) -> int:
        while parent.setdefault(v, v) != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for clause in clauses:
        helpers = [abs(x) for x in clause if abs(x) > cells]
        for h in helpers[1:]:
            parent[find(h)] = find(helpers[0])
    out: dict[int, list[Clause]] = {}
    for clause in clauses:
        out.setdefault(find(next(abs(x) for x in clause if abs(x) > cells)), []).append(clause)
    return list(out.values())


def _rule_problem(rule: OwnRule, pool: tuple[Clause, ...], blocks: tuple[tuple[Clause, ...], ...],
                  cells: int) -> str | tuple | None:
    """Why the rule's clauses do not admit exactly its layouts (None: they do; a tuple: the first assignment
    they judge wrongly, as (admitted, its true variables))."""
    n = len(rule.vars)
    if n <= EXHAUSTIVE:
        return _exhaustive(rule.vars, rule.mines, pool, blocks, cells)
    if not blocks:
        units = {c for c in pool if len(c) == 1}
        if rule.mines in (0, n) and units >= {((v if rule.mines else -v),) for v in rule.vars}:
            return None
        return f"its {len(pool)} clauses over {n} cells do not say exactly {rule.mines} of them"
    return _counter_problem(rule, pool, blocks, cells)


@lru_cache(maxsize=4096)
def _exhaustive(vars_: tuple[int, ...], mines: int, pool: tuple[Clause, ...],
                blocks: tuple[tuple[Clause, ...], ...], cells: int) -> tuple | None:
    """Every assignment of the rule's cells: admitted by its clauses exactly when it has ``mines`` of them."""
    bit = {v: 1 << i for i, v in enumerate(vars_)}
    masks = [(sum(bit[x] for x in c if x > 0), sum(bit[-x] for x in c if x < 0)) for c in pool]
    everything = (1 << len(vars_)) - 1
    for a in range(1 << len(vars_)):
        admitted = all((a & pos) or (~a & everything & neg) for pos, neg in masks)
        if admitted and blocks:
            assumed = [v if a & bit[v] else -v for v in vars_]
            admitted = all(_satisfiable(block, assumed, cells) for block in blocks)
        holds = bin(a).count("1") == mines
        if admitted != holds:
            return admitted, tuple(v for v in vars_ if a & bit[v])
    return None


def _satisfiable(block: tuple[Clause, ...], assumed: list[int], cells: int) -> bool:
    """Whether the helpers can satisfy the block with the cells as assumed; a model the SAT solver gives is
    checked here, so only its "no" is taken on trust (and a wrong "no" refuses a sound CNF, never the converse)."""
    with Solver(name="minisat22", bootstrap_with=[list(c) for c in block]) as sat:
        if not sat.solve(assumptions=assumed):
            return False
        model = set(sat.get_model() or ()) | set(assumed)
    return all(any(x in model for x in c) for c in block)


def _counter_problem(rule: OwnRule, pool: tuple[Clause, ...], blocks: tuple[tuple[Clause, ...], ...],
                     cells: int) -> str | None:
    """A large total against pysat's sequential counter for it, helpers matched in increasing order."""
    made = CardEnc.equals(lits=list(rule.vars), bound=rule.mines, top_id=cells, encoding=EncType.seqcounter)
    theirs = sorted({abs(x) for b in blocks for c in b for x in c if abs(x) > cells})
    ours = list(range(cells + 1, made.nv + 1))
    if len(theirs) != len(ours):
        return (f"{len(theirs)} helper variables, where the sequential counter for exactly {rule.mines} of "
                f"{len(rule.vars)} cells has {len(ours)}")
    rename = dict(zip(theirs, ours))
    given = {frozenset(x if abs(x) <= cells else (rename[abs(x)] if x > 0 else -rename[abs(x)]) for x in c)
             for b in blocks for c in b}
    wanted = {frozenset(c) for c in made.clauses}
    plain_wanted = {c for c in wanted if all(abs(x) <= cells for x in c)}
    if given | plain_wanted != wanted or not plain_wanted <= {frozenset(c) for c in pool}:
        return f"its clauses are not the sequential counter for exactly {rule.mines} of {len(rule.vars)} cells"
    return None


def _words(clause: Clause) -> str:
    return "(" + " ".join(map(str, clause)) + ")" if clause else "the empty clause"


def _helpers(block: list[Clause], cells: int) -> str:
    found = sorted({abs(x) for c in block for x in c if abs(x) > cells})
    return " ".join(map(str, found[:5])) + (" ..." if len(found) > 5 else "")
