"""Checking: findings, the comparison of answers, statistics for estimates, the cross-check of one
board against the references, the LP check, and shrinking a finding to a minimal board.
May import: model, engine, running, boards, solvers."""
