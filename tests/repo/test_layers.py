"""The package's layers: each subpackage imports only those below it, no module takes part in an
import loop, and no import hides inside a function below the front door (but the one that loads
CBC and numpy, only where an LP is checked)."""

from __future__ import annotations

import ast
from pathlib import Path

import minecheck

PACKAGE = Path(minecheck.__file__).parent
RANK = {  # from the bottom up; a layer imports only lower ranks (and itself)
    "model": 0, "engine": 1, "running": 1, "boards": 2, "certify": 2, "solvers": 3, "references": 3, "check": 4,
    "report": 5, "play": 6, "campaigns": 6,
}
FRONT_DOOR = len(RANK) + 1  # the modules directly in minecheck/: cli, testing, strategies, the plugin
LAZY_ALLOWED = {"minecheck.check.lpcheck"}  # CBC and numpy: half a second, only where an LP is checked


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> tuple[int, str]:
    parts = module.split(".")
    if len(parts) > 2 or (len(parts) == 2 and parts[1] in RANK):
        return RANK[parts[1]], parts[1]
    return FRONT_DOOR, module


def imports(path: Path) -> list[tuple[str, bool]]:
    """(module imported, whether at the top level) for every minecheck import in a file."""
    tree = ast.parse(path.read_text())
    top = {id(node) for node in tree.body}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("minecheck"):
            names = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES else node.module
                     for a in node.names]
            out += [(n, id(node) in top) for n in dict.fromkeys(names)]
        elif isinstance(node, ast.Import):
            out += [(a.name, id(node) in top) for a in node.names if a.name.startswith("minecheck")]
    return out


FILES = sorted(PACKAGE.rglob("*.py"))
MODULES = {module_name(p) for p in FILES}
GRAPH = {module_name(p): imports(p) for p in FILES}


def test_every_import_goes_down_a_layer_or_stays_in_its_own():
    upward = []
    for module, found in GRAPH.items():
        rank, name = layer(module)
        for target, _ in found:
            target_rank, target_name = layer(target)
            same = target_name == name or rank == target_rank == FRONT_DOOR  # the front door's modules share a floor
            if not same and target_rank >= rank and target != "minecheck":
                upward.append(f"{module} -> {target}")
    assert upward == []


def test_no_module_takes_part_in_an_import_loop():
    edges = {m: {t for t, _ in found if t in MODULES and t != m} for m, found in GRAPH.items()}
    loops = []

    def visit(node, path, seen):
        for nxt in edges[node]:
            if nxt in path:
                loops.append(" -> ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in seen:
                seen.add(nxt)
                visit(nxt, path + [nxt], seen)

    for start in sorted(edges):
        visit(start, [start], {start})
    assert loops == []


def test_no_import_hides_inside_a_function_below_the_front_door():
    hidden = [f"{m} -> {t}" for m, found in GRAPH.items() for t, top in found
              if not top and layer(m)[0] != FRONT_DOOR and t not in LAZY_ALLOWED]
    assert hidden == []


def test_at_most_ten_modules_stand_directly_in_the_package():
    direct = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(direct) <= 10, direct


def test_every_subpackage_says_what_lives_there_and_what_it_may_import():
    for name in RANK:
        doc = ast.get_docstring(ast.parse((PACKAGE / name / "__init__.py").read_text()))
        assert doc, name
        assert "import" in doc.lower() or name == "model", name


def test_the_public_api_names_resolve():
    for name in minecheck.__all__:
        assert getattr(minecheck, name) is not None, name


def test_each_layers_docstring_names_every_layer_it_imports():
    """Its __init__ says "May import: ..."; what it imports is among those (so a reader can trust the list)."""
    import re

    wrong = {}
    for name in RANK:
        doc = (PACKAGE / name / "__init__.py").read_text()
        said = re.search(r"May import(?: every layer below)?: ([^.]*)", doc.replace("\n", " "))
        listed = set(re.findall(r"[a-z]+", said.group(1))) if said else set()
        used = {layer(t)[1] for m, found in GRAPH.items() if layer(m)[1] == name for t, _ in found
                if t.startswith("minecheck.") and layer(t)[1] != name}
        if not used <= listed:
            wrong[name] = sorted(used - listed)
    assert wrong == {}
