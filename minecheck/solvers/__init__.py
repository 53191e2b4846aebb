"""The hand-written solvers under test, each as ``seed`` (the article's, defects and all) and
``fixed``, the named seed defects, the exact counter as a solver, and third-party adapters.
May import: model, engine."""
