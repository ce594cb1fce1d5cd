"""The documentation site (docs/, built by MkDocs): the tutorial runs as written, the pages
written at build time (the CLI reference) cover what they must, and every reference in the
package's docstrings names an object (``mkdocs build --strict`` in CI checks the rest: links,
the API pages).

The tutorial is run as a reader runs it, top to bottom in one empty directory: each file block
(a fence with a ``title="NAME"``) is saved under its name, each ``console`` command runs (in
process, through ``ggn.cli.run``) and must print exactly the lines shown under it, and the
``pycon`` blocks run as one Python session (the README's helpers, ``tests/test_docs.py``).
"""

from __future__ import annotations

import importlib.util
import io
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import griffe
import pytest

from ggn.cli import run
from test_docs import README, run_examples

DOCS = Path(__file__).parent.parent / "docs"
TUTORIAL = DOCS / "tutorial.md"
FENCE = re.compile(r"^```(?P<language>\w+)(?P<info>[^\n]*)\n(?P<body>.*?)^```", re.DOTALL | re.MULTILINE)
TITLE = re.compile(r'title="(?P<name>[^"]+)"')
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
# The one shell form the tutorial uses beyond a plain command: showing a failure's status.
STATUS = ["||", "echo", "exit status $?"]


@dataclass(frozen=True)
class Block:
    language: str
    title: str | None
    body: str
    line: int  # of the opening fence, for messages


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        title = TITLE.search(match["info"])
        line = text.count("\n", 0, match.start()) + 1
        found.append(Block(match["language"], title["name"] if title else None, match["body"], line))
    return found


def commands(body: str) -> list[tuple[str, list[str]]]:
    """Each ``$ command`` of a console block with the lines shown under it."""
    shown: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            shown.append((line[2:], []))
        else:
            assert shown, f"output before any command: {line!r}"
            shown[-1][1].append(line)
    return shown


def call(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(argv, out, err, io.BytesIO(b""))
    return status, out.getvalue(), err.getvalue()


def shell(command: str, where: str) -> list[str]:
    """The lines ``command`` shows in a terminal (standard output, then standard error), run in
    process. The forms read: ``ggn ARGS``, then ``> FILE``, ``| head -N``, ``| tail -N`` or
    ``|| echo "exit status $?"``; anything else fails the test, so that nothing in the tutorial
    goes unchecked."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars="|>")
    # Words split at white space and the operators only, as a shell splits them: a move such as
    # shogi's 8h2b+ or a mate's Qxf7# is one word ('#' starts no comment inside a command).
    lexer.whitespace_split, lexer.commenters = True, ""
    words = list(lexer)
    assert words[0] == "ggn", f"{where}: only ggn commands run here: {command!r}"
    argv, rest = words[1:], []
    for index, word in enumerate(words):
        if word in ("|", "||", ">"):
            argv, rest = words[1:index], words[index:]
            break
    status, out, err = call(argv)
    lines = out.splitlines()
    shows_status = rest[-3:] == STATUS
    if shows_status:
        rest = rest[:-3]
    while rest:
        operator, *arguments = rest[:3]
        rest = rest[3:] if operator == "|" else rest[2:]
        if operator == ">":
            (Path.cwd() / arguments[0]).write_text(out, encoding="utf-8")
            lines = []
        elif operator == "|" and arguments[0] in ("head", "tail") and re.fullmatch(r"-\d+", arguments[1]):
            count = int(arguments[1][1:])
            lines = lines[:count] if arguments[0] == "head" else lines[-count:]
        else:
            pytest.fail(f"{where}: a shell form the tutorial test does not read: {command!r}")
    lines += err.splitlines()
    if status != 0:
        assert shows_status, f"{where}: {command!r} exited with {status}: {err}"
        lines.append(f"exit status {status}")
    return lines


def install_command() -> str:
    """The README's first command, the install (which CI runs), without its closing ``ggn``."""
    text = README.read_text(encoding="utf-8")
    command = re.search(r"```sh\n(python3 -m venv .*?)\n```", text)
    assert command, "the README's install command is missing"
    return command[1].removesuffix(" && .venv/bin/ggn moves")


def test_the_tutorial_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    session: dict[str, object] = {}
    ran = {"files": 0, "commands": 0, "python": 0}
    for block in blocks(TUTORIAL):
        where = f"{TUTORIAL.name}:{block.line}"
        if block.title:
            (tmp_path / block.title).write_text(block.body, encoding="utf-8")
            ran["files"] += 1
        elif block.language == "console":
            for command, expected in commands(block.body):
                assert shell(command, where) == expected, f"{where}: {command}"
                ran["commands"] += 1
        elif block.language == "pycon":
            failures = run_examples(block.body, where, TUTORIAL, session, block.line)
            assert failures == 0, f"{where}: a tutorial example failed (see the captured output)"
            ran["python"] += 1
        elif block.language == "sh":
            # The install, the one command that cannot run here: the README's, which CI runs,
            # and the activation that puts `ggn` on the PATH.
            assert block.body.strip() == install_command() + " && . .venv/bin/activate", where
        else:
            pytest.fail(f"{where}: a {block.language} block the test does not run")
    assert ran["files"] >= 4 and ran["commands"] >= 10 and ran["python"] >= 3, ran
    # The pictures the page shows are files its commands wrote.
    pictures = IMAGE.findall(TUTORIAL.read_text(encoding="utf-8"))
    assert len(pictures) >= 2
    for name in pictures:
        assert (tmp_path / name).read_text(encoding="utf-8").startswith("<svg"), name


def test_the_tutorial_test_reads_shell_forms_strictly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert shell("ggn perft chess 2 --divide | tail -1", "t") == ["total: 400"]
    assert shell("ggn perft chess 2 --divide | head -1", "t") == ["Nc3: 20"]
    assert shell("ggn perft chess 1 > out.txt", "t") == []
    assert (tmp_path / "out.txt").read_text() == "20\n"
    assert shell("ggn perft nosuchgame 1 || echo \"exit status $?\"", "t")[-1] == "exit status 2"
    with pytest.raises(AssertionError, match="exited with 2"):
        shell("ggn perft nosuchgame 1", "t")
    with pytest.raises(pytest.fail.Exception, match="does not read"):
        shell("ggn perft chess 1 | wc -l", "t")
    with pytest.raises(AssertionError, match="only ggn commands"):
        shell("rm -rf out.txt", "t")


# --- The pages written at build time, and the docstrings as Markdown ----------------------------


def _docs_module(name: str) -> ModuleType:
    """A module of docs/ (the site's hooks and Griffe extension), loaded from its file."""
    spec = importlib.util.spec_from_file_location(f"_docs_{name}", DOCS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_cli_reference_has_every_command_with_its_usage_options_and_examples() -> None:
    hooks = _docs_module("hooks")
    parser = hooks.ggn_parser()
    page = hooks.cli_reference(parser)
    commands = hooks._subcommands(parser)
    assert len(commands) >= 15
    for name, summary, sub in commands:
        section = page.split(f"\n## `ggn {name}`\n", 1)[1].split("\n## ", 1)[0]
        assert summary and hooks._inline(summary[:1].upper() + summary[1:]) in section, name
        with hooks._columns(hooks.WIDTH):
            assert sub.format_usage().rstrip() in section, name
        for action in sub._actions:
            for option in action.option_strings:
                assert f"`{option}" in section or f", {option}" in section, (name, option)
        for line in (sub.epilog or "").splitlines():
            if line.startswith("  "):  # an example, kept as written
                assert line.strip() in section, (name, line)
        assert f"(#{hooks._slug(f'ggn {name}')})" in page, name  # the table of commands links it
    for title in ("Examples", "Exit status"):
        assert f"\n## {title}\n" in page


def test_the_cli_reference_escapes_markdown_and_keeps_prose_and_examples() -> None:
    hooks = _docs_module("hooks")
    assert hooks._inline("a *b* <c> [d] `e` x|y") == r"a \*b\* &lt;c&gt; \[d\] \`e\` x\|y"
    assert hooks._prose("one\ntwo\n  ggn moves\n  ggn legal chess\nthree") == [
        "one two", "", "```text", "  ggn moves", "  ggn legal chess", "```", "", "three", ""]
    assert hooks._epilog("examples:\n  ggn a\n    # b\nnotes:\n  text", 3) == [
        "### Examples", "", "```text", "ggn a\n  # b", "```", "",
        "### Notes", "", "```text", "text", "```", ""]


def test_the_tutorial_pictures_are_drawn_at_build_time_by_its_commands() -> None:
    hooks = _docs_module("hooks")
    here = Path.cwd()
    pictures = hooks.tutorial_pictures(TUTORIAL.read_text(encoding="utf-8"))
    assert Path.cwd() == here
    assert sorted(pictures) == sorted(IMAGE.findall(TUTORIAL.read_text(encoding="utf-8")))
    knight = pictures["knight.svg"].decode()
    assert knight.startswith("<svg") and 'data-square="g1" data-piece="C:N"' in knight
    shogi = pictures["shogi.svg"].decode()
    assert 'data-hand="first" data-piece="S:B" data-count="1"' in shogi
    assert 'data-hand="second" data-piece="s:b" data-count="1"' in shogi


def test_repository_files_linked_from_pages_are_published_and_the_links_repointed() -> None:
    hooks = _docs_module("hooks")
    for source, (page, language) in hooks.SOURCES.items():
        text = (DOCS.parent / source).read_text(encoding="utf-8")
        written = hooks.source_page(source, text, language)
        assert text.strip() in written and f"```{language}\n" in written, page
    assert hooks.source_page("x.md", "a ``` b", "md").count("````") == 2  # a fence longer than any run


def _markup() -> tuple[ModuleType, griffe.GriffeLoader, griffe.Object]:
    markup = _docs_module("griffe_markup")
    loader = griffe.GriffeLoader(search_paths=[str(DOCS.parent / "src")])
    package = loader.load("ggn")
    assert isinstance(package, griffe.Module)
    return markup, loader, package


def test_every_docstring_role_of_the_package_names_an_object() -> None:
    markup, loader, package = _markup()
    unknown: list[str] = []
    objects = [obj for obj in markup._objects(package) if obj.docstring is not None]
    for obj in objects:
        markup.markdown(obj.docstring.value, obj, loader, unknown)
    assert len(objects) > 300
    assert unknown == []


def test_docstring_roles_and_examples_become_markdown() -> None:
    markup, loader, package = _markup()
    rules = package["rules"]
    unknown: list[str] = []
    text = markup.markdown(
        "See :class:`~ggn.position.Position`, :func:`perft`, :mod:`ggn.variants.registry`,\n"
        ":class:`ValueError`, :func:`json.loads`, :meth:`the moves <ggn.ruleset.Ruleset.moves>`,\n"
        ":class:`Nothing`, :func:`json.nothing` and :class:`ggn.rules.Nothing`.\n"
        "A list:\n- one\n- two\n\n>>> perft('chess', 1)\n20\n\nAfter.",
        rules, loader, unknown)
    assert '<autoref identifier="ggn.position.Position" optional><code>Position</code></autoref>' in text
    assert '<autoref identifier="ggn.rules.perft" optional><code>perft()</code></autoref>' in text
    assert '<autoref identifier="ggn.variants.registry" optional>' in text
    assert "<code>ValueError</code>" in text and "autoref identifier=\"ValueError" not in text
    assert '<autoref identifier="ggn.ruleset.Ruleset.moves" optional><code>the moves</code>' in text
    assert "<code>loads()</code>" not in text and "<code>json.loads()</code>" in text
    assert [where.rsplit(": ", 1)[1] for where in unknown] == [
        ":class:`Nothing`", ":func:`json.nothing`", ":class:`ggn.rules.Nothing`"]
    assert "A list:\n\n- one\n- two\n" in text
    assert "\n```pycon\n>>> perft('chess', 1)\n20\n```\n\nAfter." in text
