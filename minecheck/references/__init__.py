"""Independent references the solvers are checked against: CBC (PuLP), MiniSat (PySAT), the plain
enumeration, and Ganak, a second counter over the certificates' own reading of the board.
May import: model, engine, certify."""
