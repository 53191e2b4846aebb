"""Running untrusted solvers: the sandbox and its budgets, the work queue, the external program
protocol, solver discovery by name and the registry that makes and runs them.
May import: model, engine (solvers are found by name, never imported here)."""
