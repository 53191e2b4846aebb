"""Whole games: the rules, the players (the articles' and our own), the one guessing policy,
decisions judged by the exact counter, win rates, play runs and their report.
May import: model, engine, boards, running, check, report (and solvers for the articles' players)."""
