"""How far a campaign shrinks: the numbers alone, so that the command line can show them as its defaults
without importing the shrinking itself (``campaigns.shrinking`` pulls in the certifier and the cross-check,
a quarter of ``minecheck solvers``' time).  ``campaigns.shrinking``'s docstring says how they are used."""

SHRINK_PATIENCE = 4.0  # a shrink goes on while a smaller board comes within this many times the last one's check
SHRINK_CALLS = 500  # checks a shrink makes at most
SHRINK_CAP = 120.0  # CPU seconds a shrink may take at most, unless --shrink-time says otherwise
PER_SIGNATURE = 1  # findings shrunk and drawn in full per bug: the first (a slow engine pays per shrink)
