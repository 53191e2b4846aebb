"""The one budget value: what one solver call may use, passed as the only limit argument everywhere.

Every command that runs solvers takes the same options for it (``--timeout``, ``--memory``, ``--idle``,
``--output``) and the same defaults, below; a campaign stores it in its folder, so that its findings
are shrunk and replayed under the budget they were found with.  ``None`` for a whole budget (not a
field) means a call in this very process with no limits: only for trusted code (tests of the
references themselves), never for a solver under test.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

DEFAULT_CPU = 10.0  # CPU seconds per solver call
DEFAULT_MEMORY_MIB = 2048  # memory a call may add
DEFAULT_OUTPUT_MIB = 64  # bytes a program may write to its standard output per answer
IDLE_FLOOR = 5.0  # seconds: the shortest idle stop, whatever the CPU budget


@dataclass(frozen=True)
class Budget:
    """What one solver call may use; None in a field means no limit of that kind.

    The CPU budget is the call's process tree's CPU seconds, not wall-clock seconds, so that a busy
    machine and a quiet one stop the same solvers; the idle stop ends a solver that uses no CPU at all
    (blocked or asleep), which a busy machine cannot cause either.
    """

    cpu: float | None = DEFAULT_CPU  # CPU seconds of the call's process tree
    memory_mib: int | None = DEFAULT_MEMORY_MIB  # memory the call may add (address space; resident for programs)
    idle: float | None = None  # seconds without CPU progress before a stop; None: max(IDLE_FLOOR, cpu)
    output_mib: int | None = DEFAULT_OUTPUT_MIB  # standard output a program may write per answer

    @property
    def idle_after(self) -> float:
        """Seconds without CPU progress after which a call counts as blocked or asleep."""
        if self.idle is not None:
            return self.idle
        return max(IDLE_FLOOR, self.cpu or 0.0)

    @property
    def grace(self) -> float:
        """How far past the CPU budget the watchdog waits for the call to stop itself."""
        return 0.5 + 0.1 * (self.cpu or 0.0)

    @property
    def output_bytes(self) -> int | None:
        return None if self.output_mib is None else self.output_mib * 2**20

    def to_json(self) -> dict:
        return asdict(self)

    @staticmethod
    def from_json(data: dict) -> Budget:
        """A stored budget; fields an older minecheck did not store count as their defaults."""
        known = {f.name for f in fields(Budget)}
        return Budget(**{k: v for k, v in data.items() if k in known})


DEFAULT_BUDGET = Budget()  # the documented defaults, for a default argument
