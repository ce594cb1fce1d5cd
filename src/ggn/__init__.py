"""General Gameplay Notation (GGN) and the notations around it.

String notations (frozen values with ``parse`` and a canonical ``str``):
:class:`Cell`, :data:`HAND`, :class:`Sin`, :class:`Pin`, :class:`Epin`,
:class:`Qpi`, :class:`Gan`, :class:`Feen`.

JSON documents (validated on construction, read-only, dumped back to canonical
JSON): :class:`Conditions` (LCN), :class:`Ruleset` (GGN 1.0.0),
:class:`Transition` (STN), :class:`LegacyRuleset` (the legacy GGN format).

Evaluation: :class:`Position` (from and to FEEN), ``Ruleset.moves(position)``
giving :class:`Move` values, and STN on positions in :mod:`ggn.transitions`.

>>> import ggn
>>> rules = ggn.Ruleset.loads('{"S:P": {"*": {"e5": [{"must": {"e5": "empty"}}]}}}')
>>> rules.select("S:P").source("*").destination("e5")[0].must
Conditions.of({'e5': 'empty'})
>>> ggn.Qpi.parse("C:+K^").terminal
True
"""

from ggn.cell import HAND, Cell, Hand, Location, parse_location
from ggn.epin import Epin
from ggn.errors import (
    ConversionError,
    DocumentError,
    EngineError,
    GGNError,
    IllegalMoveError,
    LabelError,
    LimitError,
    NotationError,
    NotationTypeError,
    NotFoundError,
    PositionError,
    RecordError,
    UnmappedPieceError,
    VariantError,
    Violation,
)
from ggn.feen import Feen
from ggn.gan import Gan, LegacyPiece
from ggn.lcn import Conditions, StateValue
from ggn.legacy import LegacyEntry, LegacyPieceRules, LegacyRuleset, LegacySourceRules
from ggn.linter import LintWarning, lint
from ggn.move import Move
from ggn.pin import Pin
from ggn.position import Position
from ggn.qpi import Qpi
from ggn.ruleset import PieceRules, Possibility, Ruleset, SourceRules
from ggn.schemas import load_schema
from ggn.sin import Sin
from ggn.stn import Transition

__all__ = [
    "HAND",
    "Cell",
    "Conditions",
    "ConversionError",
    "DocumentError",
    "EngineError",
    "Epin",
    "Feen",
    "GGNError",
    "Gan",
    "Hand",
    "IllegalMoveError",
    "LabelError",
    "LegacyEntry",
    "LegacyPiece",
    "LegacyPieceRules",
    "LegacyRuleset",
    "LegacySourceRules",
    "LimitError",
    "LintWarning",
    "Location",
    "Move",
    "NotFoundError",
    "NotationError",
    "NotationTypeError",
    "PieceRules",
    "Pin",
    "Position",
    "PositionError",
    "Possibility",
    "Qpi",
    "RecordError",
    "Ruleset",
    "Sin",
    "SourceRules",
    "StateValue",
    "Transition",
    "UnmappedPieceError",
    "VariantError",
    "Violation",
    "lint",
    "load_schema",
    "parse_location",
]

# The one place the version is written: pyproject.toml reads it from here ([tool.setuptools.dynamic]).
__version__ = "0.1.0"
