"""The solvers: the hand-written subjects under test (seed and fixed variants) and the exact counter."""
