"""``ggn parse`` (a string notation's fields) and ``ggn schema`` (a shipped JSON Schema)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import IO, Any

from ggn._json import dumps
from ggn.cell import Cell, Hand
from ggn.cli._arguments import Commands, add_format
from ggn.cli._streams import Stream
from ggn.epin import Epin
from ggn.feen import Feen
from ggn.gan import Gan
from ggn.pin import Pin
from ggn.qpi import Qpi
from ggn.schemas import load_schema
from ggn.sin import Sin

_PARSERS: dict[str, Callable[[str], Any]] = {
    "cell": Cell.parse,
    "hand": Hand.parse,
    "sin": Sin.parse,
    "pin": Pin.parse,
    "epin": Epin.parse,
    "qpi": Qpi.parse,
    "gan": Gan.parse,
    "feen": Feen.parse,
}


def register(commands: Commands) -> None:
    parse = commands.add(
        "parse", _parse, summary="parse a string notation and print its fields as JSON",
        description="Parse TEXT as a KIND of string notation. Valid: exit 0 and one JSON object "
                    "of its fields on stdout. Invalid: exit 1 and what is wrong, and where, on "
                    "stderr. A TEXT that starts with '-' (-p, a diminished piece) is the text: "
                    "every argument that is not one of parse's options is.",
        epilog="examples:\n  ggn parse cell a1A\n  ggn parse pin +K^\n  ggn parse pin -p\n"
               "  ggn parse gan CHESS:KING\n"
               "  ggn parse feen 'lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s'",
        label=lambda args: f"parse {args.kind}",
        literal=True,
    )
    parse.add_argument("kind", choices=list(_PARSERS), metavar="KIND",
                       help="one of: " + ", ".join(_PARSERS))
    parse.add_argument("text", metavar="TEXT", help="the string to parse (quote it in the shell)")
    add_format(parse, "one object of the fields")

    schema = commands.add(
        "schema", _schema, summary="print a shipped JSON Schema",
        description="Print the JSON Schema (draft 2020-12) this package ships for GGN 1.0.0, "
                    "LCN or STN. Our validator checks more than a schema can say (ggn validate).",
        epilog="examples:\n  ggn schema ggn > ggn.schema.json\n"
               "  ggn schema stn | python3 -m json.tool --compact | head -c 80",
    )
    schema.add_argument("name", choices=["ggn", "lcn", "stn"], metavar="NAME",
                        help="one of: ggn, lcn, stn")
    add_format(schema, "the schema")


def _parse(args: argparse.Namespace, out: Stream, err: Stream, _: IO[bytes] | None) -> int:
    value = _PARSERS[args.kind](args.text)
    out.write(dumps(value.fields()) + "\n")  # dumps: a field may be an integer of any length
    return 0


def _schema(args: argparse.Namespace, out: Stream, err: Stream, _: IO[bytes] | None) -> int:
    out.write(json.dumps(load_schema(args.name), indent=2) + "\n")
    return 0
