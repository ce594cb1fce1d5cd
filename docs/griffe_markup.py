"""A Griffe extension that reads the package's docstrings, written for ``help()`` and Sphinx-like
readers, as the Markdown mkdocstrings renders.

The docstrings use three reStructuredText forms that Markdown does not know:

- roles, ``:class:`Cell```, ``:meth:`~ggn.ruleset.Ruleset.moves```, ``:mod:`ggn.variants.pieces```,
  ``:func:`title <target>```: each becomes a cross-reference to the object's page when the object
  is documented on the site, and code otherwise. A role naming an object of ``ggn`` that does not
  exist is an error, so a renamed object cannot leave a dangling reference behind;
- doctest examples (``>>>`` lines and their output) become ``pycon`` code blocks, as they would
  otherwise read as nested quotes;
- a list right after a paragraph's last line (reStructuredText and ``help()`` need no blank line
  before it, Markdown does) gets the blank line.

``ggn``'s own docstrings are rewritten once the package is loaded (``on_package``); other
packages are left alone.
"""

from __future__ import annotations

import builtins
import html
import importlib
import logging
import re
from typing import Any

from griffe import Alias, AliasResolutionError, Extension, GriffeLoader, Module, NameResolutionError, Object

PACKAGE = "ggn"
ROLE = re.compile(r":(?P<role>class|meth|func|attr|data|mod|exc|obj|const):`(?P<body>[^`]+)`")
LABELLED = re.compile(r"(?P<title>.*?)\s*<(?P<target>[^<>]+)>$")
DOCTEST = re.compile(r"^(?P<indent>\s*)>>>( |$)")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s")
FENCE = re.compile(r"^\s*(```|~~~)")
LOG = logging.getLogger("mkdocs.plugins.griffe_markup")


class DocstringMarkup(Extension):
    """Rewrite the roles, doctest examples and lists of ``ggn``'s docstrings into Markdown."""

    def on_package(self, *, pkg: Module, loader: GriffeLoader, **kwargs: Any) -> None:
        if pkg.path != PACKAGE:
            return
        unknown: list[str] = []
        for obj in _objects(pkg):
            if obj.docstring is not None:
                obj.docstring.value = markdown(obj.docstring.value, obj, loader, unknown)
        for where in unknown:
            # A warning of MkDocs' own logger: `mkdocs build --strict` fails on it.
            LOG.warning("griffe_markup: a docstring role names no object of the package: %s", where)


def _objects(obj: Object) -> list[Object]:
    """The object and every member defined in it (aliases, documented where they are defined,
    are skipped), recursively."""
    found = [obj]
    for member in obj.members.values():
        if not isinstance(member, Alias):
            found.extend(_objects(member))
    return found


def markdown(text: str, obj: Object, loader: GriffeLoader, unknown: list[str]) -> str:
    """The docstring ``text`` of ``obj`` as Markdown (see the module's docstring)."""
    text = ROLE.sub(lambda match: _reference(match, obj, loader, unknown), text)
    return _blocks(text)


def _reference(match: re.Match[str], obj: Object, loader: GriffeLoader, unknown: list[str]) -> str:
    body = match["body"].strip()
    labelled = LABELLED.match(body)
    if labelled:
        title, target = labelled["title"], labelled["target"].strip()
    else:
        target = body
        short = target.startswith("~")
        target = target.lstrip("~.")
        title = target.rsplit(".", 1)[-1] if short else target
    if match["role"] in ("meth", "func") and not title.endswith(")") and not labelled:
        title += "()"
    path = _resolve(target.lstrip("~."), obj, loader)
    code = f"<code>{html.escape(title)}</code>"
    if path is None:
        return code  # outside the package: the standard library, another project
    if path == "":
        unknown.append(f"{obj.relative_filepath}:{obj.lineno} ({obj.path}): {match[0]}")
        return code
    # An optional reference: a link where the object is documented on the site, code where it is
    # not (a private module), never a dangling link.
    return f'<autoref identifier="{html.escape(path)}" optional>{code}</autoref>'


def _resolve(target: str, obj: Object, loader: GriffeLoader) -> str | None:
    """The canonical path of ``target`` seen from ``obj``; None when it lies outside the package,
    "" when it names nothing in it."""
    head, _, rest = target.partition(".")
    path: str | None = None
    scope: Object | None = obj
    while scope is not None and path is None:
        try:
            path = scope.resolve(head)
        except (NameResolutionError, AliasResolutionError):
            if scope.is_class and head in scope.all_members:  # inherited: Ruleset.loads
                path = f"{scope.path}.{head}"
            scope = scope.parent
    if path is None and _exists(f"{obj.module.path}.{head}"):
        path = f"{obj.module.path}.{head}"  # a module-level name Griffe cannot see
    if path is None:
        path = head  # an absolute path, such as ggn.variants.pieces, or a built-in
    if path.split(".", 1)[0] != PACKAGE:
        # Outside the package: a built-in (ValueError) or another module (json.loads), which
        # must exist all the same.
        outside = f"builtins.{target}" if hasattr(builtins, head) else f"{path}.{rest}" if rest else path
        return None if _exists(outside) else ""
    full = f"{path}.{rest}" if rest else path
    try:
        return str(loader.modules_collection[full].canonical_path)
    except (KeyError, AliasResolutionError):
        # Griffe reads the source without running it and misses some names (those bound by
        # unpacking a tuple): the name is real if Python finds it.
        return full if _exists(full) else ""


def _exists(path: str) -> bool:
    """Whether Python finds the object at the dotted ``path`` (a module, then attributes)."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(value, name):
                return False
            value = getattr(value, name)
        return True
    return False


def _blocks(text: str) -> str:
    """Doctest examples fenced as ``pycon``; a blank line before a list that follows a paragraph."""
    lines = text.split("\n")
    out: list[str] = []
    index = 0
    in_list = in_fence = False
    while index < len(lines):
        line = lines[index]
        if FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and (doctest := DOCTEST.match(line)):
            indent = doctest["indent"]
            end = index
            while end < len(lines) and lines[end].strip():
                end += 1
            if out and out[-1].strip():
                out.append("")
            out.append(f"{indent}```pycon")
            out.extend(lines[index:end])
            out.append(f"{indent}```")
            index = end
            in_list = False
            continue
        elif not in_fence:
            if not line.strip():
                in_list = False
            elif LIST_ITEM.match(line):
                if not in_list and out and out[-1].strip():
                    out.append("")
                in_list = True
        out.append(line)
        index += 1
    return "\n".join(out)
