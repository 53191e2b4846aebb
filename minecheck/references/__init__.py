"""Independent references the solvers are checked against: CBC (PuLP), MiniSat (PySAT) and the
plain enumeration.  May import: model, engine."""
