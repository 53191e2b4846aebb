"""Running untrusted solvers: the catalogue of shipped solvers, discovery that names and makes them, the
registry that runs them; the sandbox, the stops and budgets it enforces, the process tree and its reaping, the
watchdog, the work queue, a run's folder, the program protocol.  May import: model (solvers are found by
name, never imported here)."""
