"""``ggn completion bash|zsh``: the shell completion script of the command, written by shtab
(the ``[cli]`` extra) from the command's own parser, so that it never falls behind: commands,
options, choices, file names where a file is read, and the built-in games' names where a game
is named."""

from __future__ import annotations

import argparse
import io
import json
from typing import IO, Final

from ggn.cli._arguments import GAMES, GAMES_OR_FILES, Commands, add_format
from ggn.cli._streams import Exit, Stream

_SHELLS: Final = ("bash", "zsh")


def register(commands: Commands) -> None:
    completion = commands.add(
        "completion", _completion, summary="print the shell completion script (bash or zsh)",
        description="Print the completion script of ggn for SHELL: commands, options, their "
                    "choices, file names where a file is read and the built-in games' names where "
                    "a game is named. Load it in the shell's start-up file, or save it where the "
                    "shell looks for completions. Needs shtab, from the cli extra: "
                    "pip install 'ggn[cli]' (without it: exit 2, saying so).",
        epilog="examples:\n"
               "  source <(ggn completion bash)                 # in ~/.bashrc\n"
               "  ggn completion bash > ~/.local/share/bash-completion/completions/ggn\n"
               "  ggn completion zsh > ~/.zfunc/_ggn            # with fpath+=(~/.zfunc) before "
               "compinit in ~/.zshrc",
    )
    completion.add_argument("shell", choices=_SHELLS, metavar="SHELL", help="bash or zsh")
    add_format(completion, "the script", '{"shell": SHELL, "script": the script}')


def _preamble(shell: str) -> str:
    """The shell functions that complete a game's name (and a game's name or a file's)."""
    from ggn.variants.registry import names  # noqa: PLC0415  (only here: no variant read before)

    games = " ".join(names())
    if shell == "bash":
        return (f'{GAMES["bash"]}() {{\n  compgen -W "{games}" -- "$1"\n}}\n'
                f'{GAMES_OR_FILES["bash"]}() {{\n  compgen -W "{games}" -- "$1"\n'
                '  compgen -f -- "$1"\n}\n')
    return (f"{GAMES['zsh']}() {{\n  _values 'game' {games}\n}}\n"
            f"{GAMES_OR_FILES['zsh']}() {{\n  _alternative 'games:game:({games})' 'files:file:_files'\n}}\n")


def _completion(args: argparse.Namespace, out: Stream, err: Stream, _: IO[bytes] | None) -> int:
    try:
        import shtab  # noqa: PLC0415  (optional: the [cli] extra)
    except ImportError:
        raise Exit(2, "shell completion needs shtab, which the cli extra installs: "
                      "pip install 'ggn[cli]'") from None
    from ggn.cli import _build_parser  # noqa: PLC0415  (the whole command's parser, built now)

    parser = _build_parser(io.StringIO(), io.StringIO())
    script = shtab.complete(parser, shell=args.shell, preamble=_preamble(args.shell))
    if not script.endswith("\n"):
        script += "\n"
    out.write(json.dumps({"shell": args.shell, "script": script}) + "\n" if args.format == "json" else script)
    return 0
