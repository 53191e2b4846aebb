"""Running untrusted solvers: the catalogue of shipped solvers, discovery by name and the registry that makes
and runs them; the sandbox, the stops and budgets it enforces, the process tree and its reaping, the
watchdog, the work queue, a run's folder, the program protocol.  May import: model (solvers are found by
name, never imported here)."""
