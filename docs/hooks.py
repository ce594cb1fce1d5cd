"""MkDocs hooks of the documentation site (``mkdocs.yml``: ``hooks``).

- The command-line reference, ``cli.md``, is written at build time from the ``ggn`` command's own
  argparse parser: every command with its summary, usage, description, arguments and epilog
  (examples and notes), so that the page cannot drift from ``ggn COMMAND --help``.
- The pictures the tutorial shows are drawn at build time by the very commands the tutorial
  gives (``ggn show ... -o NAME.svg``), so a picture is always what its command writes.
- Files of the repository that pages link to (``../src/ggn/variants/builtin.ini``) are published
  as pages of their own, and the links to them are pointed there: the pages read the same in
  the repository and on the site.
"""

from __future__ import annotations

import argparse
import html
import io
import itertools
import logging
import os
import posixpath
import re
import shlex
import tempfile
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parent.parent
CLI_PAGE = "cli.md"
WIDTH = 100  # the terminal width the usage lines are written for
# Files of the repository published as pages: path (from the repository's root) -> page, language.
SOURCES = {"src/ggn/variants/builtin.ini": ("builtin-ini.md", "ini")}
TUTORIAL = "tutorial.md"
FENCE = re.compile(r"^```(?P<language>\w+)(?P<info>[^\n]*)\n(?P<body>.*?)^```", re.DOTALL | re.MULTILINE)
TITLE = re.compile(r'title="(?P<name>[^"]+)"')
LOG = logging.getLogger("mkdocs.hooks.ggn")
LINK = re.compile(r"\]\((?P<target>[^)\s#]+)(?P<anchor>#[^)\s]*)?\)")


# --- MkDocs events --------------------------------------------------------------------------


def on_files(files: Files, config: MkDocsConfig, **kwargs: Any) -> Files:
    files.append(File.generated(config, CLI_PAGE, content=cli_reference(ggn_parser())))
    tutorial = Path(config.docs_dir) / TUTORIAL
    for name, picture in tutorial_pictures(tutorial.read_text(encoding="utf-8")).items():
        files.append(File.generated(config, name, content=picture))
    for source, (page, language) in SOURCES.items():
        text = (ROOT / source).read_text(encoding="utf-8")
        files.append(File.generated(config, page, content=source_page(source, text, language)))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files, **kwargs: Any) -> str:
    """Point the links to published repository files at their pages."""
    docs = Path(config.docs_dir).resolve()
    here = posixpath.dirname(page.file.src_uri)

    def repoint(match: re.Match[str]) -> str:
        target = match["target"]
        if "://" in target:
            return match[0]
        path = (docs / here / target).resolve()
        try:
            source = path.relative_to(ROOT).as_posix()
        except ValueError:
            return match[0]
        if source not in SOURCES:
            return match[0]
        page_uri = SOURCES[source][0]
        return f"]({posixpath.relpath(page_uri, here or '.')}{match['anchor'] or ''})"

    return LINK.sub(repoint, markdown)


# --- The command-line reference -------------------------------------------------------------


def ggn_parser() -> argparse.ArgumentParser:
    """The parser of the ``ggn`` command, as ``ggn.cli`` builds it for a run."""
    from ggn import cli  # noqa: PLC0415  (the package is imported once the build starts)

    with _columns(WIDTH):
        return cli._build_parser(io.StringIO(), io.StringIO())


@contextmanager
def _columns(width: int) -> Iterator[None]:
    """argparse wraps help to ``$COLUMNS``: the page is written for a fixed width."""
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        yield
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


def cli_reference(parser: argparse.ArgumentParser) -> str:
    """The Markdown of the command-line reference page for ``parser`` and its subcommands."""
    with _columns(WIDTH):
        commands = _subcommands(parser)
        lines = [
            "# Command line",
            "",
            "This page is written from the `ggn` command's own parser each time the site is built: it",
            "says what `ggn --help` and `ggn COMMAND --help` say. For a guided tour, see the",
            "[tutorial](tutorial.md).",
            "",
            "```text",
            parser.format_usage().rstrip(),
            "```",
            "",
            *_prose(parser.description),
            "| command | what it does |",
            "|---|---|",
            *(f"| [`{name}`](#{_slug(sub.prog)}) | {_inline(summary)} |" for name, summary, sub in commands),
            "",
            *_epilog(parser.epilog, level=2),
        ]
        for _, summary, sub in commands:
            lines += [f"## `{sub.prog}`", "", f"{_inline(summary[:1].upper() + summary[1:])}.", ""]
            lines += ["```text", sub.format_usage().rstrip(), "```", ""]
            lines += _prose(sub.description)
            lines += _arguments(sub)
            lines += _epilog(sub.epilog, level=3)
    return "\n".join(lines).rstrip() + "\n"


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            summaries = {choice.dest: choice.help or "" for choice in action._choices_actions}
            return [(name, summaries.get(name, ""), sub) for name, sub in action.choices.items()]
    return []


def _slug(text: str) -> str:
    """The anchor MkDocs gives a heading (Python-Markdown's ``toc`` slugify)."""
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", text).strip().lower())


def _inline(text: str | None) -> str:
    """Plain text as Markdown: HTML and Markdown's own characters escaped."""
    escaped = html.escape(text or "", quote=False)
    return re.sub(r"([\\`*_\[\]|#])", r"\\\1", escaped)


def _prose(text: str | None) -> list[str]:
    """A description as ggn's help formatter reads it: lines that start in the first column are
    prose, joined into paragraphs; indented lines (examples, tables) are kept as written."""
    lines: list[str] = []
    for prose, group in itertools.groupby((text or "").splitlines(), lambda line: line[:1].strip() != ""):
        block = list(group)
        if prose:
            lines += [_inline(" ".join(block)), ""]
        elif any(line.strip() for line in block):
            lines += ["```text", *(line.rstrip() for line in block), "```", ""]
    return lines


def _arguments(parser: argparse.ArgumentParser) -> list[str]:
    formatter = parser._get_formatter()
    rows = []
    # As --help lists them: the positional arguments, then the options.
    actions = sorted(parser._actions, key=lambda action: bool(action.option_strings))
    for action in actions:
        if action.help == argparse.SUPPRESS or isinstance(action, argparse._SubParsersAction):
            continue
        if action.option_strings:
            metavar = formatter._format_args(action, action.dest.upper()) if action.nargs != 0 else ""
            names = ", ".join(f"{option} {metavar}".strip() for option in action.option_strings)
        else:
            names = formatter._format_args(action, action.dest)
        help_text = formatter._expand_help(action) if action.help else ""
        rows.append(f"| `{names}` | {_inline(help_text)} |")
    if not rows:
        return []
    return ["| argument | meaning |", "|---|---|", *rows, ""]


def _epilog(text: str | None, level: int) -> list[str]:
    """An epilog is made of sections, each a title line ending in ':' and its indented lines
    (examples, a table of exit statuses): each becomes a heading and its lines as written."""
    sections: list[tuple[str, list[str]]] = []
    for line in (text or "").splitlines():
        if line and not line[0].isspace() and line.endswith(":"):
            sections.append((line[:-1], []))
        else:
            if not sections:
                sections.append(("", []))
            sections[-1][1].append(line.rstrip())
    lines: list[str] = []
    for title, body in sections:
        if title:
            lines += [f"{'#' * level} {_inline(title[:1].upper() + title[1:])}", ""]
        block = textwrap.dedent("\n".join(body)).strip("\n")
        if block:
            lines += ["```text", block, "```", ""]
    return lines


# --- The tutorial's pictures ----------------------------------------------------------------


def tutorial_pictures(markdown: str) -> dict[str, bytes]:
    """The pictures the tutorial's ``ggn ... -o NAME.svg`` commands write, by name: its files
    (the blocks with a ``title``) are saved in an empty directory, and the commands run there, in
    process, as a reader runs them."""
    from ggn.cli import run  # noqa: PLC0415

    pictures: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as directory, _inside(Path(directory)):
        for block in FENCE.finditer(markdown):
            if title := TITLE.search(block["info"]):
                Path(title["name"]).write_text(block["body"], encoding="utf-8")
            if block["language"] != "console":
                continue
            for line in block["body"].splitlines():
                words = shlex.split(line[2:]) if line.startswith("$ ggn ") else []
                names = [name for option, name in itertools.pairwise(words)
                         if option in ("-o", "--output") and name.endswith(".svg")]
                if not names:
                    continue
                err = io.StringIO()
                if run(words[1:], io.StringIO(), err, io.BytesIO(b"")) != 0:
                    # A warning of MkDocs' logger: the strict build fails, and so would the page's
                    # link to the picture.
                    LOG.warning("the tutorial's command %r failed: %s", line[2:], err.getvalue().strip())
                    continue
                pictures[names[0]] = Path(names[0]).read_bytes()
    return pictures


@contextmanager
def _inside(directory: Path) -> Iterator[None]:
    old = Path.cwd()
    os.chdir(directory)
    try:
        yield
    finally:
        os.chdir(old)


# --- Repository files as pages --------------------------------------------------------------


def source_page(source: str, text: str, language: str) -> str:
    """A page that shows the repository file ``source`` whole."""
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", text)), default=0))
    name = posixpath.basename(source)
    return (f"# {name}\n\nThe file `{source}` of the repository, as this site was built from it.\n\n"
            f"{fence}{language}\n{text.rstrip()}\n{fence}\n")
