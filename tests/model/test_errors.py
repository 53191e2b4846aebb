"""One root of errors: every exception minecheck defines is a MinecheckError, and only BadInput is the user's."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import minecheck
from minecheck.model.errors import BadInput, MinecheckError

CONTROL_FLOW = {"CpuBudget", "OverBudget"}  # BaseExceptions on purpose: a solver's `except Exception` cannot eat them


def defined_exceptions() -> dict[str, type]:
    found = {}
    for info in pkgutil.walk_packages(minecheck.__path__, "minecheck."):
        if info.name.endswith("pytest_plugin"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == info.name:
                found[f"{info.name}.{name}"] = value
    return found


def test_every_exception_minecheck_defines_has_the_one_root():
    found = defined_exceptions()
    assert len(found) >= 20
    strays = [name for name, cls in found.items()
              if not issubclass(cls, MinecheckError) and name.rsplit(".", 1)[1] not in CONTROL_FLOW]
    assert strays == []


def test_the_engines_signals_are_not_the_users_fault():
    from minecheck.engine.constraints import Contradiction
    from minecheck.engine.enumeration import TooBig
    from minecheck.solvers.dpll_seed import NoLayout

    for cls in (Contradiction, TooBig, NoLayout):
        assert issubclass(cls, MinecheckError) and not issubclass(cls, BadInput)


def test_bad_input_is_a_value_error_so_callers_that_catch_those_still_do():
    assert issubclass(BadInput, ValueError) and issubclass(BadInput, MinecheckError)
    assert minecheck.BadInput is BadInput and minecheck.MinecheckError is MinecheckError
