"""The layers written in docs/ARCHITECTURE.md hold in the code.

The document is the source: its numbered "Layers" list names every module of the package in
backquotes. These tests check that every module is named in exactly one layer, and that every
import that runs (at module level or at call time; not those under ``TYPE_CHECKING``) goes to
the same layer or one above it, except the one upward import the document names.
"""

from __future__ import annotations

import ast
import pkgutil
import re
from pathlib import Path

import ggn

ROOT = Path(__file__).parent.parent
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
PACKAGE = Path(ggn.__file__).parent

# (importer, imported): the upward import the document explains ("The one deliberate upward import").
DELIBERATE = {("ruleset", "compiled")}


def top_modules() -> set[str]:
    """The package's modules and subpackages, by their name under ``ggn`` (``__init__`` left out)."""
    names = {info.name for info in pkgutil.iter_modules([str(PACKAGE)])}
    return names - {"__main__"}


def layers() -> dict[str, int]:
    """Module name -> layer number, read from the document's numbered list under "## Layers"."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    items = re.split(r"\n(?=\d+\. )", "\n" + section)
    known = top_modules() | {"__main__"}
    found: dict[str, int] = {}
    for item in items:
        head = re.match(r"(\d+)\. ", item)
        if head is None:
            continue
        number = int(head.group(1))
        paragraph = item.split("\n\n", 1)[0]  # the item's own paragraph only
        for quoted in re.findall(r"`([A-Za-z_][A-Za-z_0-9.]*)`", paragraph):
            name = quoted.split(".")[0]
            if name in known:
                assert found.get(name, number) == number, f"`{name}` is named in two layers"
                found[name] = number
    return found


def module_file(name: str) -> Path:
    path = PACKAGE / f"{name}.py"
    return path if path.exists() else PACKAGE / name


def imported(path: Path) -> set[str]:
    """The ``ggn`` top modules one file imports at run time (module level or inside functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            parts = node.module.split(".")
            if parts[0] != "ggn":
                continue
            if len(parts) > 1:
                found.add(parts[1])
            else:  # from ggn import x, y: the names may be modules or re-exports
                found.update(alias.name for alias in node.names if alias.name in top_modules())
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "ggn" and len(parts) > 1:
                    found.add(parts[1])
    return found


def files_of(name: str) -> list[Path]:
    where = module_file(name)
    return sorted(where.rglob("*.py")) if where.is_dir() else [where]


def test_every_module_is_named_in_one_layer() -> None:
    named = layers()
    missing = sorted(top_modules() - set(named))
    assert not missing, f"modules not placed in a layer of docs/ARCHITECTURE.md: {missing}"


def test_imports_only_from_the_same_layer_or_above() -> None:
    named = layers()
    upward: list[str] = []
    for name, layer in sorted(named.items()):
        if name == "__main__":
            continue
        for path in files_of(name):
            upward.extend(
                f"{path.relative_to(ROOT)} (layer {layer}) imports ggn.{target} (layer {named[target]})"
                for target in sorted(imported(path) - {name})
                if target in named and named[target] > layer and (name, target) not in DELIBERATE
            )
    assert not upward, "imports that run up the layers:\n" + "\n".join(upward)


def test_the_deliberate_upward_import_is_still_there() -> None:
    # If it went away, or no longer ran up the layers, the document's section on it is stale.
    named = layers()
    for importer, target in DELIBERATE:
        assert target in imported(module_file(importer)), f"ggn.{importer} no longer imports ggn.{target}"
        assert named[target] > named[importer], f"ggn.{importer} -> ggn.{target} is not upward"
