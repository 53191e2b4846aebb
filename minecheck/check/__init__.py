"""Checking: findings, the comparison of answers, statistics for estimates, the cross-check of one
board against the references, the LP check, shrinking a finding to a minimal board, and the certificates
of a reference's answers behind a finding.
May import: model, engine, running, boards, certify, solvers."""
