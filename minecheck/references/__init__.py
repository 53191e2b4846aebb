"""Independent references the hand-written solvers are checked against: CBC, MiniSat, brute force."""
