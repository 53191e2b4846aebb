"""Certificates behind every verdict, checked without trusting minecheck: a layout for "can be", a DRUP
proof for "cannot be", a minimal core for an impossible board, every solution of each component's box system
for a count, and the list of every layout of a small board.  The board's rules are read here on their own
(``rules``), not from the engine's constraint system, so that a fault there is not shared.
May import: model, engine (and pysat, dratify).

* ``rules``: what a board says, read off its cells;  ``cnf``: those rules as CNF, rebuilt by anyone;
* ``certificates``: the certificates as plain data, and their JSON;
* ``search``: layouts found by SAT;  ``refute``: refutations and cores from a proof-logging solver;
* ``certification``: ``certify(board, result)``, every claim of a reference's answer settled;
* ``verify``: ``check_certification``, every certificate checked again;  ``drup``: a refutation checked (its CNF
  by what it means, its proof replayed);  ``encoding``: a CNF judged by what it means, so that the checker shares
  no fault with ``cnf``;
* ``counting``: the proof of a count, every solution of each component's box system listed and refuted whole;
  ``countcheck``: that proof checked;  ``tally``: the count and probabilities recomputed from it;
* ``export``: refutations as plain DIMACS and DRAT files and count certificates as JSON, for drat-trim and
  ``check_counts`` (a standalone checker of counts, the standard library only, shipped in every export);
* ``enumeration``: every layout of a small board with its weight, the proof of its count.
"""
