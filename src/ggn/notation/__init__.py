"""Move notations for players: every notation a move of a game is written in, both ways.

A rule system's plays are GGN's (``C:N g1-f3``). Players write them otherwise, and this package
writes and reads each of their notations, by name (:data:`NAMES`):

- ``san``: the game's own algebraic notation, exactly as Fairy-Stockfish writes it by default
  (pyffish's ``get_san`` without a notation): ``Nf3``, ``exd5``, ``O-O``, ``e8=Q+`` in chess
  and its variants, ``Cb2`` in xiangqi, and shogi's ``P-76`` in the games of Fairy-Stockfish's
  shogi template (:func:`default` names it);
- Fairy-Stockfish's other notations (:mod:`ggn.notation.san`): ``lan`` (``Ng1-f3``),
  ``shogi-hosking`` (``P76``), ``shogi-hodges`` (``P-7f``), ``shogi-hodges-number``
  (``P-76``), ``janggi`` (``H02-83``), ``wxf`` (xiangqi's ``C2=5``), ``thai-san`` and
  ``thai-lan`` (makruk's, in Thai letters). Fairy-Stockfish writes each of them for any game,
  and so does :func:`write`;
- ``uci``: Fairy-Stockfish's UCI move strings (``e2e4``, ``e7e8q``, ``P@e4``;
  :mod:`ggn.variants.uci`);
- ``usi``: shogi's USI (``7g7f``, ``P*5e``, ``8h2b+``; :mod:`ggn.notation.usi`);
- ``ggn``: GGN's own move text, ``str()`` of a :class:`~ggn.rules.Play`.

:func:`parse` recognises a move in any of them without being told which (``notation=None``):
the game's algebraic notations (its SAN, LAN and the named notations of its family), UCI, USI
(shogi-family games) and GGN. Reading is tolerant the way python-chess's ``parse_san`` is
(check marks, ``0-0``, ``e8Q``, ``Ng1f3``); a text that names no legal move, or several, is an
:class:`~ggn.errors.IllegalMoveError` that quotes it and names the candidates.

A rule system without a Fairy-Stockfish variant (a GGN document's) has GGN's notation only.

>>> from ggn.variants import registry
>>> rules = registry.rules("chess")
>>> start = rules.position()
>>> play = parse(rules, start, "Nf3")
>>> str(play)
'C:N g1-f3'
>>> [write(rules, start, play, name) for name in ("san", "lan", "uci", "ggn")]
['Nf3', 'Ng1-f3', 'g1f3', 'C:N g1-f3']
>>> parse(rules, start, "g1f3") == parse(rules, start, "C:N g1-f3") == play
True
>>> default(registry.rules("shogi")), default(registry.rules("xiangqi"))
('shogi-hodges-number', 'san')
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Final

from ggn._json import quote
from ggn._types import expect
from ggn.errors import GGNError, IllegalMoveError
from ggn.notation import san as _san
from ggn.position import Position
from ggn.rules import Play, RuleSystem
from ggn.variants.description import Variant
from ggn.variants.fen import from_feen

__all__ = ["NAMES", "default", "moves", "notations", "parse", "write"]

NAMES: Final[tuple[str, ...]] = (
    "san", "lan", "shogi-hosking", "shogi-hodges", "shogi-hodges-number", "janggi", "wxf", "thai-san",
    "thai-lan", "uci", "usi", "ggn")
"""Every notation by name (see the module's doc)."""

_SHOWN: Final = 12  # candidates named in an error
_MAX_TEXT: Final = 200  # no move of any notation is longer: refused before it is read


def _variant(rules: RuleSystem) -> Variant | None:
    variant = getattr(rules, "variant", None)
    return variant if isinstance(variant, Variant) else None


def _rules(rules: object) -> RuleSystem:
    return expect(rules, RuleSystem, "rules", "a RuleSystem")  # type: ignore[no-any-return]


def _name(notation: object) -> str:
    if notation not in NAMES:
        expect(notation, str, "notation", "a str")
        raise GGNError(f"{quote(str(notation))} is not a notation; expected one of {', '.join(NAMES)}")
    return notation


def default(rules: RuleSystem) -> str:
    """The game's default notation: Fairy-Stockfish's (``shogi-hodges-number`` for the games of
    its shogi template, ``san`` for every other), and ``ggn`` for a rule system without a
    Fairy-Stockfish variant."""
    variant = _variant(_rules(rules))
    return "ggn" if variant is None else _san.default(variant)


def notations(rules: RuleSystem) -> tuple[str, ...]:
    """The notations :func:`parse` recognises for the game without being told (``san`` and
    ``lan``, the named notations of the game's family, ``uci``, ``usi`` for shogi-family games,
    ``ggn``); a rule system without a Fairy-Stockfish variant has ``ggn`` only."""
    variant = _variant(_rules(rules))
    if variant is None:
        return ("ggn",)
    return (*_family(variant), "uci", *(("usi",) if variant.template == "shogi" else ()), "ggn")


def _family(variant: Variant) -> tuple[_san.Notation, ...]:
    """The algebraic notations of a game: its default, SAN and LAN, and the named notations of
    its family (shogi's for the shogi template, WXF and janggi's for xiangqi-like games, the
    Thai ones for makruk-like games)."""
    found: list[_san.Notation] = [_san.default(variant), "san", "lan"]
    names = {piece.name for piece in variant.pieces}
    if variant.template == "shogi":
        found += ["shogi-hosking", "shogi-hodges", "shogi-hodges-number"]
    if {"soldier", "cannon"} & names or variant.flying_general:
        found += ["wxf", "janggi"]
    if {"khon", "silver"} & names and {"met", "fers"} & names:
        found += ["thai-san", "thai-lan"]
    return tuple(dict.fromkeys(found))


def _usi() -> ModuleType | None:
    """:mod:`ggn.notation.usi`, where it is installed."""
    try:
        return importlib.import_module("ggn.notation.usi")
    except ModuleNotFoundError as error:
        if error.name != "ggn.notation.usi":
            raise
        return None


def _need(rules: RuleSystem, notation: str) -> Variant:
    variant = _variant(rules)
    if variant is None:
        raise GGNError(f"{notation} is a notation of Fairy-Stockfish's games; the {rules.name} rule system "
                       "has none, only GGN's move notation ('ggn')")
    return variant


def write(rules: RuleSystem, position: Position | str, play: Play, notation: str = "san") -> str:
    """A legal play of ``position`` written in ``notation`` (a name of :data:`NAMES`; ``san``,
    the default: the game's own, as Fairy-Stockfish writes it by default).

    ``position`` is a :class:`~ggn.position.Position` or FEEN. The algebraic notations, UCI
    and USI need a rule system with a Fairy-Stockfish variant (every built-in game and
    ``--ini`` variant).

    >>> from ggn.variants import registry
    >>> rules = registry.rules("xiangqi")
    >>> play = parse(rules, rules.position(), "h3e3")
    >>> write(rules, rules.position(), play), write(rules, rules.position(), play, "wxf")
    ('Che3', 'C2=5')
    """
    name = _name(notation)
    checked = _rules(rules)
    current = checked._position(position, "position")
    expect(play, Play, "play", "a Play")
    if name == "ggn":
        return str(play)
    variant = _need(checked, name)
    if name == "uci":
        from ggn.variants import uci  # noqa: PLC0415

        return uci.write(variant, play, position=current)
    if name == "usi":
        module = _usi()
        if module is None:
            raise GGNError("USI is not available in this installation")
        writer: Callable[[RuleSystem, Position, Play], str] = module.write
        return writer(checked, current, play)
    chosen = _san.default(variant) if name == "san" else name
    return _san.write(checked, current, play, chosen)  # type: ignore[arg-type]


def moves(rules: RuleSystem, position: Position | str, notation: str = "san") -> dict[str, Play]:
    """Every legal play of ``position`` by its text in ``notation`` (see :func:`write`), in
    the order of the rule system's legal moves.

    >>> from ggn.variants import registry
    >>> rules = registry.rules("chess")
    >>> sorted(moves(rules, rules.position()))[:4]
    ['Na3', 'Nc3', 'Nf3', 'Nh3']
    """
    name = _name(notation)
    checked = _rules(rules)
    current = checked._position(position, "position")
    if name == "ggn":
        return {str(play): play for play in checked.legal_moves(current)}
    variant = _need(checked, name)
    if name == "uci":
        from ggn.variants import uci  # noqa: PLC0415

        return dict(uci.moves(checked, current, variant=variant))
    if name == "usi":
        return {write(checked, current, play, "usi"): play for play in checked.legal_moves(current)}
    chosen = _san.default(variant) if name == "san" else name
    return _san.moves(checked, current, chosen)  # type: ignore[arg-type]


def parse(rules: RuleSystem, position: Position | str, text: str, notation: str | None = None) -> Play:
    """The legal play of ``position`` that ``text`` names.

    ``notation`` None (the default): any of the notations the game has (:func:`notations`),
    recognised from the text. A name of :data:`NAMES`: that notation only (``san``: the game's
    algebraic notations, its default first). The algebraic notations are read tolerantly (see
    :func:`ggn.notation.san.parse`). A text that names no legal play, or several, is an
    :class:`~ggn.errors.IllegalMoveError` quoting it and naming the candidates.

    >>> from ggn.variants import registry
    >>> rules = registry.rules("shogi")
    >>> start = rules.position()
    >>> parse(rules, start, "P-76") == parse(rules, start, "P-7f") == parse(rules, start, "c3c4")
    True
    """
    checked = _rules(rules)
    expect(text, str, "text", "a str")
    current = checked._position(position, "position")
    variant = _variant(checked)
    if notation is None:
        chosen = notations(checked)
    else:
        name = _name(notation)
        if name != "ggn":
            _need(checked, name)
        chosen = (name,) if name != "san" or variant is None else _family(variant)
    found: list[Play] = []
    if len(text) <= _MAX_TEXT:
        # The algebraic notations are read together (a text one writes exactly is not read
        # tolerantly in another), then each of the others.
        algebraic = tuple(name for name in chosen if name in _san.NOTATIONS)
        groups: list[tuple[str, ...]] = [algebraic] if algebraic else []
        groups += [(name,) for name in chosen if name not in _san.NOTATIONS]
        for group in groups:
            for play in _candidates(checked, current, text, group, variant):
                if play not in found:
                    found.append(play)
    if len(found) == 1:
        return found[0]
    raise _refused(checked, current, text, found, variant)


def _candidates(rules: RuleSystem, position: Position, text: str, group: tuple[str, ...],
                variant: Variant | None) -> list[Play]:
    name = group[0]
    if name in _san.NOTATIONS:
        return _san._candidates(rules, position, text, group)  # type: ignore[arg-type]
    if name == "ggn":
        wanted = text.strip()
        return [play for play in rules.legal_moves(position) if str(play) == wanted]
    assert variant is not None
    if name == "uci":
        from ggn.variants import uci  # noqa: PLC0415

        found = uci.moves(rules, position, variant=variant).get(text.strip())
        return [] if found is None else [found]
    if name == "usi":
        module = _usi()
        if module is None:
            return []
        try:
            return [module.parse(rules, position, text.strip())]
        except GGNError:
            return []
    raise AssertionError(name)


def _refused(rules: RuleSystem, position: Position, text: str, found: list[Play],
             variant: Variant | None) -> IllegalMoveError:
    name = default(rules)
    if variant is not None:
        where = f"{variant.name} in {from_feen(variant, position)!r}"
    else:
        where = f"{position.to_feen()!r}"
    if found:
        named = ", ".join(sorted(write(rules, position, play, name) for play in found)[:_SHOWN])
        return IllegalMoveError(f"{quote(text)} is ambiguous in {where}: it could be {named}")
    listed = sorted(moves(rules, position, name))
    shown = ", ".join(listed[:_SHOWN]) + (", ..." if len(listed) > _SHOWN else "")
    return IllegalMoveError(f"{quote(text)} is not a legal move of {where}; legal moves: {shown or 'none'}")
