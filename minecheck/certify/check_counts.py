"""Check minecheck's count certificates without minecheck: Python's standard library and the board's rules only.

    python3 check_counts.py [FOLDER]        (each FOLDER/count-*.json; exit 0 when every one holds)

A digit d means exactly d mines among its covered and flagged neighbours; a flag is a mine; in the global mode
the total counts every mine.  A component is the covered cells digits touch, linked where one digit touches
two; a box is the cells of a component that the same digits touch.  For each certificate this reads the board,
and checks that the boxes split its components so; that each listed solution (mines per box) keeps every digit,
none twice; and that every clause of each component's CNF (NAME.cnf: variable i is the i-th covered or flagged
cell in row-major order) follows from one digit or flag of the component, or holds a box's cells in order, or
blocks one listed solution.  drat-trim's "s VERIFIED" on NAME.cnf and NAME.drat (README.md) then proves that no
other solution exists.  The count is recomputed: per component the sum over its solutions of the product of
C(box size, mines); in the local mode their product; in the global mode weighed by C(cells no digit touches,
mines left over); and each probability likewise.  It prints what it proves, and whether the claim is that.
"""

import json
import sys
from fractions import Fraction
from math import comb, prod
from pathlib import Path


def read_board(text):
    lines = [x.strip() for x in text.splitlines() if x.strip() and not x.startswith("#")]
    size = [int(n) for n in lines[0].lower().split("x")]
    width, height, total = size[0], size[1], size[2] if len(size) > 2 else None
    rows = lines[1:]
    if len(rows) != height or any(len(r) != width for r in rows):
        raise ValueError("the board's rows are not its header's size")
    cells = [int(ch) if ch.isdigit() else "F" if ch == "F" else "H" for r in rows for ch in r]
    return width, height, total, cells


def near(width, height, cell):
    row, col = divmod(cell, width)
    return [r * width + c for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
            if 0 <= r < height and 0 <= c < width and (r, c) != (row, col)]


def read_cnf(text, cells):
    clauses, now, declared = [], [], None
    for line in text.splitlines():
        words = line.split()
        if not words or words[0] == "c":
            continue
        if words[0] == "p":
            declared = (int(words[2]), int(words[3]))
            if declared[0] > len(text) or declared[1] > len(text):  # more than the file could hold
                raise ValueError(f"'{line}' declares more than the file holds")
            continue
        for lit in map(int, words):
            if lit == 0:
                clauses.append(tuple(now))
                now = []
            elif abs(lit) > cells:
                raise ValueError(f"variable {abs(lit)}: no such cell (a count's CNF has no helper variable)")
            else:
                now.append(lit)
    if declared is None or now or declared[1] != len(clauses):
        raise ValueError("no 'p cnf' line, a clause without its 0, or not the clauses declared")
    return clauses


def check(path):
    """What the certificate proves, and what is wrong with it or with the claim (empty: nothing)."""
    data = json.loads(path.read_text())
    width, height, total, cells = read_board(data["board"])
    unknown = {c: i + 1 for i, c in enumerate(i for i, v in enumerate(cells) if v in ("H", "F"))}
    digits = {d: near(width, height, d) for d, v in enumerate(cells) if isinstance(v, int)}
    owed = {d: cells[d] - sum(cells[n] == "F" for n in ns) for d, ns in digits.items()}
    seen = {d: [n for n in ns if cells[n] == "H"] for d, ns in digits.items()}
    if any(not seen[d] and owed[d] for d in digits):
        return None, [], {}, ["a digit with no covered cell around it and not its number of flags"]
    parts = {c: {c} for ns in seen.values() for c in ns}
    for ns in seen.values():
        for c in ns[1:]:
            if parts[c] is not parts[ns[0]]:
                parts[ns[0]] |= parts[c]
                for x in parts[c]:
                    parts[x] = parts[ns[0]]
    wanted = {frozenset(p) for p in parts.values()}
    comps, problems = data["components"], []
    if sorted(sorted(c for b in x["boxes"] for c in b) for x in comps) != sorted(sorted(p) for p in wanted):
        return None, [], {}, ["its components are not the board's"]
    hists, mined = [], []
    for i, comp in enumerate(comps):
        boxes = [tuple(b) for b in comp["boxes"]]
        by = [sorted(d for d in digits if b[0] in seen[d]) for b in boxes]
        if any(sorted(d for d in digits if c in seen[d]) != ds for b, ds in zip(boxes, by) for c in b):
            problems.append(f"component {i}: a box holds cells that not the same digits touch")
        if comp.get("unlisted"):
            problems.append(f"component {i} is not listed: its count is not proved")
            continue
        sols = [tuple(s) for s in comp["solutions"]]
        if len(set(sols)) != len(sols):
            problems.append(f"component {i}: a solution is listed twice")
        for s in sols:
            if len(s) != len(boxes) or any(not 0 <= k <= len(b) for b, k in zip(boxes, s)) or any(
                    sum(k for k, ds in zip(s, by) if d in ds) != owed[d] for ds in by for d in ds):
                problems.append(f"component {i}: the solution {list(s)} breaks a digit or does not fit")
        var = unknown
        allowed = {frozenset((-var[b[j + 1]], var[b[j]])) for b in boxes for j in range(len(b) - 1)}
        for s in sols:
            allowed.add(frozenset([-var[b[k - 1]] for b, k in zip(boxes, s) if k]
                                  + [var[b[k]] for b, k in zip(boxes, s) if k < len(b)]))
        rules = [([var[n] for n in digits[d] if n in var], cells[d]) for d in {d for ds in by for d in ds}]
        rules += [([var[c]], 1) for c in var if cells[c] == "F"]
        for clause in read_cnf((path.parent / comp["cnf"]).read_text(), len(unknown)):
            lits = set(clause)
            if frozenset(lits) in allowed or any(-x in lits for x in lits):
                continue
            neg = sum(x < 0 for x in lits)
            if not any({abs(x) for x in lits} <= set(vs) and not neg <= k <= len(vs) - (len(lits) - neg)
                       for vs, k in rules):
                problems.append(f"component {i}: the clause {' '.join(map(str, clause))} 0 of {comp['cnf']} follows "
                                "from no rule, order or listed solution")
                break
        hist = [0] * (sum(len(b) for b in boxes) + 1)
        per_box = [[0] * len(hist) for _ in boxes]
        for s in sols:
            ways = prod(comb(len(b), k) for b, k in zip(boxes, s))
            hist[sum(s)] += ways
            for j, (b, k) in enumerate(zip(boxes, s)):
                per_box[j][sum(s)] += ways * k // len(b)
        hists.append(hist)
        mined.append([(b, m) for b, m in zip(boxes, per_box)])
    if problems:
        return None, [], {}, problems
    n, probs = count(data["mode"], total, cells, wanted, hists, mined)
    return n, sorted(sum(h) for h in hists), probs, []


def count(mode, total, cells, comps, hists, mined):
    """The board's layouts and each covered cell's probability, from the components' histograms."""
    if mode == "local":
        n = prod(sum(h) for h in hists)
        return n, {c: Fraction(sum(m), sum(h)) for h, ms in zip(hists, mined) for b, m in ms for c in b} if n else {}
    off = [c for c, v in enumerate(cells) if v == "H" and not any(c in p for p in comps)]
    left = total - cells.count("F")

    def weigh(hs):
        dist = [1]
        for h in hs:
            dist = [sum(dist[i] * h[s - i] for i in range(len(dist)) if 0 <= s - i < len(h))
                    for s in range(len(dist) + len(h) - 1)]
        ways = [n * comb(len(off), left - s) if 0 <= left - s <= len(off) else 0 for s, n in enumerate(dist)]
        return sum(ways), sum(w * (left - s) for s, w in enumerate(ways))

    n, off_mines = weigh(hists)
    if not n:
        return 0, {}
    probs = {c: Fraction(off_mines, n * len(off)) for c in off}
    for j, ms in enumerate(mined):
        for b, m in ms:
            probs.update((c, Fraction(weigh(hists[:j] + [m] + hists[j + 1:])[0], n)) for c in b)
    return n, probs


def main(folder):
    files = sorted(Path(folder).glob("count-*.json"))
    failed = 0
    for path in files:
        try:
            n, parts, probs, problems = check(path)
        except (ValueError, KeyError, IndexError, TypeError, OSError) as err:
            n, parts, probs, problems = None, [], {}, [f"cannot be read: {err!r}"]
        data = json.loads(path.read_text()) if not problems else {}
        claimed, theirs = data.get("claimed"), data.get("claimed_components")
        wrong = [f"the claim is {int(claimed):,}"] if claimed is not None and int(claimed) != n else []
        if theirs is not None and sorted(int(p) for p in theirs) != parts:
            wrong.append(f"its components have {parts} layouts, the claim {sorted(int(p) for p in theirs)}")
        bad = [c for c, p in data.get("probabilities", ()) if probs.get(c) != Fraction(p)]
        wrong += [f"{len(bad)} probabilities differ (cells {bad[:5]})"] if bad else []
        if problems:
            failed += 1
            print(f"FAILED {path.name}: " + "; ".join(problems))
        elif wrong:
            failed += 1
            print(f"WRONG {path.name}: it proves {n:,} layouts ({data['mode']}), and " + "; ".join(wrong))
        else:
            print(f"ok {path.name}: {n:,} layouts ({data['mode']}), as claimed")
    print(f"{len(files)} count certificates, {failed} failed or wrong; each needs drat-trim's VERIFIED on its "
          "components' CNF files too (README.md)")
    return 1 if failed or not files else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
