"""Fuzz campaigns and what is built on them: the campaign itself, publishing its report, the proof
of teeth, attribution of findings to named defects, baselines and saved regressions.
May import every layer below: model, engine, boards, solvers, references, running, check, report."""
