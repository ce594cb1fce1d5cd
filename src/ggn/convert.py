"""Legacy GGN documents rewritten as GGN 1.0.0, with their effects as STN on the side.

:func:`convert` takes a :class:`~ggn.legacy.LegacyRuleset` and a mapping from legacy pieces
(GAN) to QPI (a game's, from :func:`ggn.variants.registry.legacy_mapping` for chess, shogi,
xiangqi and makruk; :func:`load_mapping` for a JSON file; or a plain dict), and gives a
:class:`Conversion`:

- ``ruleset``: the GGN 1.0.0 :class:`~ggn.ruleset.Ruleset`;
- ``effects``: what each possibility does, which GGN 1.0.0 no longer holds: a JSON-ready
  object keyed like the ruleset (piece, source, destination), each destination holding one
  STN transition (:meth:`~ggn.stn.Transition.to_value`) per possibility, in the same order,
  or ``None`` where the effect could not be carried over;
- ``notes``: ``(path, message)`` pairs for everything not carried over or changed, each path
  a JSON Pointer into the *legacy* document.

>>> from ggn.legacy import LegacyRuleset
>>> legacy = LegacyRuleset.loads('''{"CHESS:PAWN": {"e2": {"e4": [{
...     "board_check": {"e3": "empty", "e4": "empty"},
...     "board_patch": {"e2": null, "e4": "CHESS:-PAWN"}}]}}}''')
>>> conversion = convert(legacy, {"CHESS:PAWN": "C:P"})
>>> conversion.ruleset.dumps(indent=None)
'{"C:P": {"e2": {"e4": [{"must": {"e3": "empty", "e4": "empty"}}]}}}'
>>> conversion.effects
{'C:P': {'e2': {'e4': [{'board_diff': {'e2': None, 'e4': 'C:-P'}, 'toggle': True}]}}}
>>> conversion.notes
[]

How the occupation states become LCN conditions (GGN evaluates a possibility as: every
``must`` holds and no ``deny`` holds, "enemy" from the Active Player's side):

- ``empty``, ``enemy`` and an exact piece become ``must`` conditions;
- ``occupied`` at X becomes ``deny: {X: "empty"}``: not empty is exactly occupied;
- ``ally`` at X has no exact form: "not empty and not enemy" needs two ``deny`` conditions on
  X, and an object holds a key once. Through the pieces the document knows (every piece it
  names anywhere, mapped) it becomes one possibility per piece P of the mover's side, each
  with ``must: {X: P}``; several ``ally`` squares take every combination. This is exact on
  positions that hold only pieces the document knows, and a note says so. Past ``ally_limit``
  possibilities for one entry it becomes ``deny: {X: "enemy"}``, which also lets an empty X
  through, and a note says that.

The output is bounded: ``ally_limit`` bounds what one entry becomes, and ``output_limit`` the
whole output, counted in conditions of the ruleset plus squares and hand pieces of the effects
(each possibility at least one). By default that is four times the legacy document's own count
(its checks, patches and hand fields, each entry at least one), and never less than 250,000, so
that only ``ally`` expansions can reach it. An entry that would take the output past it is left
out, with a note saying so; the rest converts.

These are exact where the legacy format reads a position: as squares, an absent one empty.
On a :class:`~ggn.position.Position`, GGN lets a ``deny`` on a square off the board never fire,
so an ``occupied`` check on such a square would hold there.

The mover's side is the Active Player's (a player moves their own pieces): ``ally`` and a
``board_check`` on the source square are read so, and the effects use that player's hand.
GGN 1.0.0 forbids the source square in conditions: the moving piece stands there, so a check
there that always holds (``occupied``, ``ally``, the piece itself) is left out, and an entry
whose check there never holds is dropped, each with a note. Labels that are not CELL
coordinates, and pieces the mapping does not name, leave out what holds them, with a note.
Two legacy pieces of one QPI have their moves merged, with a note.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from itertools import product
from typing import IO, Any, ClassVar, Final, Generic, Literal, NamedTuple, TypeAlias, TypeVar

from ggn._decimal import shown
from ggn._types import Side, expect
from ggn.cell import HAND, Cell, Hand, _parse_cell
from ggn.errors import GGNError, NotationError, UnmappedPieceError, extend, pointer
from ggn.gan import LegacyPiece
from ggn.legacy import LegacyEntry, LegacyRuleset, _quoted
from ggn.legacy_eval import GanMapping, _effect, _intermediate
from ggn.legacy_gem import GemEntry, GemRuleset
from ggn.qpi import Qpi
from ggn.ruleset import Ruleset

__all__ = [
    "Conversion",
    "GanMapping",
    "Labels",
    "Lost",
    "LostKind",
    "Note",
    "convert",
    "convert_gem",
    "entries",
    "load_mapping",
    "shogi_labels",
]

def load_mapping(file: str | os.PathLike[str] | IO[bytes] | IO[str]) -> GanMapping:
    """A mapping from a JSON file: an object of legacy pieces (GAN) to QPI strings.

    Raise :class:`~ggn.errors.DocumentError` with every fault and its path otherwise.
    """
    return GanMapping.load(file)


# --- conversion -----------------------------------------------------------------------------

class Note(NamedTuple):
    """Something not carried over, or changed: a JSON Pointer into the legacy document, and why."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path or '(document)'}: {self.message}"


LostKind = Literal["move", "possibility", "effect"]
"""What a :class:`Lost` record says is lost: a whole ``move`` (no possibility of the legacy
piece from that source to that destination is in the new document), one ``possibility`` of a
move whose other possibilities are carried over, or one possibility's ``effect`` (the move is
carried over; its effect is None in the effects)."""


class Lost(NamedTuple):
    """A move of the legacy document, or part of one, not carried over: the legacy ``piece``,
    ``source`` and ``destination`` as the document writes them, the ``entry`` (its index in the
    destination's array; None when the whole move is lost), the ``kind`` of loss, ``why``, and
    the ``path`` (a JSON Pointer into the legacy document) of the note that says so."""

    piece: str
    source: str
    destination: str
    entry: int | None
    kind: LostKind
    why: str
    path: str

    def __str__(self) -> str:
        part = {"move": "", "possibility": f", possibility {self.entry}",
                "effect": f", the effect of possibility {self.entry}"}[self.kind]
        return (f"{_quoted(self.piece)} {_quoted(self.source)} -> {_quoted(self.destination)}{part}: "
                f"{self.why}")


@dataclass(frozen=True, slots=True)
class Conversion:
    """A legacy document converted: the GGN 1.0.0 ``ruleset``, its ``effects`` (JSON-ready STN
    keyed like the ruleset, one per possibility, None where not carried over), ``notes``, and
    ``lost``: every move, possibility or effect of the legacy document not carried over, as
    :class:`Lost` records in document order (empty when nothing was lost); and ``unmapped``:
    the legacy pieces the mapping has no QPI for, as the document writes them, in the order
    met (their moves, possibilities or effects are among ``lost``)."""

    ruleset: Ruleset
    effects: dict[str, Any]
    notes: list[Note]
    lost: list[Lost] = field(default_factory=list)
    unmapped: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Whether every move of the legacy document, with all its possibilities, is in the
        ruleset (effects aside: see :attr:`effects_complete`)."""
        return not any(record.kind != "effect" for record in self.lost)

    @property
    def effects_complete(self) -> bool:
        """Whether every possibility carried over has its effect (no None in ``effects``)."""
        return not any(record.kind == "effect" for record in self.lost)

    @property
    def lost_moves(self) -> list[Lost]:
        """The records of moves and possibilities not carried over (effects aside)."""
        return [record for record in self.lost if record.kind != "effect"]


_Possibility = dict[str, dict[str, str]]
_E = TypeVar("_E")
_Move = tuple[LegacyPiece, str, str]
"""A move of the legacy document: its piece, and its source and destination as written."""


class _Loss(NamedTuple):
    """Why an entry is not carried over, and the path of the note that says so."""

    why: str
    path: str


_Converted = list[_Possibility] | _Loss
"""An entry converted: its possibilities ([] when it can never hold), or why it is lost."""


class _Converter(Generic[_E]):
    """The walk shared by the dialects: pieces, sources, destinations, entries. A dialect says
    what one entry becomes (:meth:`_possibilities`), which pieces it names, its size and the
    legacy entry its effect is read from."""

    _effect_fields: ClassVar[dict[str, str]] = {}  # the legacy effect's field -> this dialect's

    def __init__(
        self,
        document: Mapping[LegacyPiece, Mapping[str, Mapping[str, Sequence[_E]]]],
        mapping: GanMapping,
        *,
        ally_limit: int,
        output_limit: int | None,
        progress: Callable[[int], object] | None,
        labels: Callable[[str], str | None] | None,
    ) -> None:
        self.document = document
        self.progress = progress
        self.labels = labels
        self.mapping = mapping
        self.ally_limit = ally_limit
        self.notes: list[Note] = []
        self.lost: list[Lost] = []
        self.unmapped: dict[str, None] = {}  # ordered, each once
        self.known, size = self._known_pieces()
        self.output_limit = (
            max(_OUTPUT_FLOOR, _OUTPUT_GROWTH * size) if output_limit is None else output_limit
        )
        self.output_used = 0

    def note(self, path: str, message: str) -> None:
        self.notes.append(Note(path, message))

    def lose(self, move: _Move, entry: int | None, kind: LostKind, why: str, path: str) -> None:
        piece, source, destination = move
        self.lost.append(Lost(str(piece), source, destination, entry, kind, why, path))

    # --- what a dialect says ----------------------------------------------------------------

    def _entry_pieces(self, entry: _E) -> Iterable[LegacyPiece]:
        raise NotImplementedError

    def _entry_size(self, entry: _E) -> int:
        raise NotImplementedError

    def _effect_entry(self, entry: _E) -> tuple[LegacyEntry, dict[str, str]]:
        """The legacy entry an entry's effect is read from, its squares relabelled, and the
        paths that give back the labels as written."""
        raise NotImplementedError

    def _possibilities(self, piece: LegacyPiece, source: Cell | Hand, entry: _E, path: str) -> _Converted:
        raise NotImplementedError

    # --- the walk ---------------------------------------------------------------------------

    def _known_pieces(self) -> tuple[dict[Side, tuple[str, ...]], int]:
        """The QPI of every piece the document names, by side, in a stable order; and the
        document's size in the units of ``output_limit``."""
        seen: set[LegacyPiece] = set()
        size = 0
        for piece, sources in self.document.items():
            seen.add(piece)
            for destinations in sources.values():
                for entries in destinations.values():
                    for entry in entries:
                        seen.update(self._entry_pieces(entry))
                        size += self._entry_size(entry)
        qpis = {q for q in map(self.mapping.get, seen) if q is not None}
        known: dict[Side, tuple[str, ...]] = {
            side: tuple(sorted(str(q) for q in qpis if q.side == side)) for side in ("first", "second")
        }
        return known, size

    def run(self) -> tuple[dict[str, Any], dict[str, Any]]:
        document: dict[str, dict[str, dict[str, list[_Possibility]]]] = {}
        effects: dict[str, dict[str, dict[str, list[Any]]]] = {}
        first_of: dict[Qpi, LegacyPiece] = {}
        for piece, sources in self.document.items():
            path = pointer(str(piece))
            qpi = self.mapping.get(piece)
            if qpi is None:
                count = sum(len(e) for d in sources.values() for e in d.values())
                why = self._no_qpi(piece)
                self.note(path, f"{why}: none of its moves is carried over "
                                f"({_plural(count, 'entry', 'entries')})")
                for source_label, destinations in sources.items():
                    for destination_label in destinations:
                        self.lose((piece, source_label, destination_label), None, "move", why, path)
                self._advance(count)
                continue
            if qpi in first_of:
                self.note(path, f"{_quoted(piece)} maps to {_quoted(qpi)}, as {_quoted(first_of[qpi])} does: "
                                f"their moves are merged under {_quoted(qpi)}")
            else:
                first_of[qpi] = piece
            for source_label, destinations in sources.items():
                source_path = extend(path, source_label)
                source: Cell | Hand
                if source_label == "*":
                    source = HAND
                else:
                    try:
                        source = self._cell(source_label)
                    except NotationError as error:
                        why = f"source {_quoted(source_label)} is not a CELL coordinate ({error.reason})"
                        self.note(source_path, f"{why}: its moves are not carried over")
                        for destination_label in destinations:
                            move = (piece, source_label, destination_label)
                            self.lose(move, None, "move", why, source_path)
                        self._advance(sum(len(entries) for entries in destinations.values()))
                        continue
                for destination_label, entries in destinations.items():
                    self._advance(len(entries))
                    destination_path = extend(source_path, destination_label)
                    try:
                        destination = self._cell(destination_label)
                    except NotationError as error:
                        why = (f"destination {_quoted(destination_label)} is not a CELL coordinate "
                               f"({error.reason})")
                        self.note(destination_path, f"{why}: this move is not carried over")
                        move = (piece, source_label, destination_label)
                        self.lose(move, None, "move", why, destination_path)
                        continue
                    move = (piece, source_label, destination_label)
                    carried = self._destination(move, source, entries, destination_path)
                    if carried is None:
                        continue
                    possibilities, transitions = carried
                    key = (str(qpi), str(source), str(destination))
                    document.setdefault(key[0], {}).setdefault(key[1], {}).setdefault(
                        key[2], []).extend(possibilities)
                    effects.setdefault(key[0], {}).setdefault(key[1], {}).setdefault(
                        key[2], []).extend(transitions)
        return document, effects

    def _label(self, label: str) -> str:
        """A label of the document as GGN 1.0.0 reads it: rewritten by ``labels``, if any."""
        if self.labels is None or label == "*":
            return label
        found = self.labels(label)
        return label if found is None else found

    def _cell(self, label: str) -> Cell:
        """The CELL a label of the document names (NotationError when none)."""
        return _parse_cell(self._label(label))

    def _on_source(self, squares: Mapping[str, Any], source: Cell) -> tuple[str, Any]:
        """The label (as written) and state of the square of ``squares`` that is ``source``."""
        if self.labels is None:
            label = str(source)
            return label, squares.get(label)
        for label, state in squares.items():
            with suppress(NotationError):
                if self._cell(label) == source:
                    return label, state
        return "", None

    def _patch(self, patch: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """An effect's squares relabelled, and the paths to give back the labels as written; as
        written when two of them would name one square (the effect is then lost, with a note)."""
        if self.labels is None:
            return dict(patch), {}
        relabelled = {self._label(label): piece for label, piece in patch.items()}
        if len(relabelled) < len(patch):
            return dict(patch), {}
        back = {extend("/board_patch", self._label(label)): extend("/board_patch", label) for label in patch}
        return relabelled, back

    def _advance(self, entries: int) -> None:
        if self.progress is not None and entries:
            self.progress(entries)

    def _no_qpi(self, piece: LegacyPiece) -> str:
        self.unmapped[str(piece)] = None
        if _intermediate(piece):
            return (f"no QPI for {_quoted(piece)} in the mapping (in a one-letter name, ' marks an "
                    "intermediate state, whose meaning only the mapping can give)")
        return f"no QPI for {_quoted(piece)} in the mapping"

    def _destination(
        self, move: _Move, source: Cell | Hand, entries: Sequence[_E], path: str
    ) -> tuple[list[_Possibility], list[Any]] | None:
        """The possibilities and effects of one destination; None when nothing could be carried
        over and something was lost (an empty list then would wrongly say "no way")."""
        piece = move[0]
        possibilities: list[_Possibility] = []
        transitions: list[Any] = []
        losses: list[tuple[int, _Loss]] = []
        for index, entry in enumerate(entries):
            entry_path = f"{path}/{index}"
            converted = self._possibilities(piece, source, entry, entry_path)
            if isinstance(converted, _Loss):
                losses.append((index, converted))
                continue
            if not converted:
                continue
            effect_entry, back = self._effect_entry(entry)
            transition, faults = _effect(effect_entry, piece.side, self.mapping.qpi)
            for fault in faults:
                fault.where = back.get(fault.where, fault.where)
                if isinstance(fault, UnmappedPieceError):
                    self.unmapped[str(fault.piece)] = None
                self.note(entry_path + self._field(fault.where),
                          "the effect of this entry is not carried over (null in the effects): "
                          f"{self._message(str(fault))}")
            if faults:
                self.lose(move, index, "effect",
                          self._message(str(faults[0])), entry_path + self._field(faults[0].where))
            effect = None if transition is None else transition.to_value()
            possibilities.extend(converted)
            transitions.extend([effect] * len(converted))
        if losses and not possibilities:
            reasons = list(dict.fromkeys(loss.why for _, loss in losses))
            why = reasons[0] if len(reasons) == 1 else "; ".join(reasons[:3]) + (
                f"; and {len(reasons) - 3:,} more" if len(reasons) > 3 else "")
            self.lose(move, None, "move", why, path)
            return None
        for index, loss in losses:
            self.lose(move, index, "possibility", loss.why, loss.path)
        return possibilities, transitions

    def _field(self, where: str) -> str:
        """A path within a legacy entry written in this dialect's field names."""
        for legacy, own in self._effect_fields.items():
            if where == legacy or where.startswith(legacy + "/"):
                return own + where[len(legacy):]
        return where

    def _message(self, message: str) -> str:
        for legacy, own in self._effect_fields.items():
            message = message.replace(legacy.lstrip("/"), own.lstrip("/"))
        return message

    def _over_limit(self, count: int, size: int, path: str) -> _Loss | None:
        """A loss when ``size`` more would take the output past ``output_limit`` (noted), else
        None, the size counted."""
        if self.output_used + size > self.output_limit:
            made = f"{_plural(count, 'possibility', 'possibilities')}, " if count > 1 else ""
            self.note(path, f"this entry is left out: it would add {made}{size:,} conditions and "
                            f"effect squares to the {self.output_used:,} converted so far, past the "
                            f"output limit of {self.output_limit:,}")
            return _Loss(f"past the output limit of {self.output_limit:,} conditions and effect squares",
                         path)
        self.output_used += size
        return None


class _LegacyConverter(_Converter[LegacyEntry]):
    """The legacy format (``board_check``, ``board_patch``, ``in_hand_add``, ``in_hand_del``)."""

    def _entry_pieces(self, entry: LegacyEntry) -> Iterable[LegacyPiece]:
        yield from (s for s in entry.board_check.values() if isinstance(s, LegacyPiece))
        yield from (p for p in entry.board_patch.values() if p is not None)
        yield from (LegacyPiece(g) for g in (entry.in_hand_add, entry.in_hand_del) if g)

    def _entry_size(self, entry: LegacyEntry) -> int:
        return max(1, len(entry.board_check) + _effect_size(entry))

    def _effect_entry(self, entry: LegacyEntry) -> tuple[LegacyEntry, dict[str, str]]:
        if self.labels is None:
            return entry, {}
        patch, back = self._patch(entry.board_patch)
        return LegacyEntry._trusted(({}, patch, entry.in_hand_add, entry.in_hand_del)), back

    def _possibilities(
        self, piece: LegacyPiece, source: Cell | Hand, entry: LegacyEntry, path: str
    ) -> _Converted:
        """The GGN possibilities of one entry: [] when it can never hold, a loss when lost."""
        check_path = path + "/board_check"
        # (square, "must" | "deny" | "ally", state, the label as written)
        conditions: list[tuple[str, str, str, str]] = []
        if isinstance(source, Cell):
            label, state = self._on_source(entry.board_check, source)
            if state is not None:
                shown = str(state)
                if state in ("occupied", "ally") or state == piece:
                    self.note(extend(check_path, label),
                              f"the source square is checked for {_quoted(shown)}, which always holds as the "
                              "moving piece stands there: the check is left out (GGN 1.0.0 forbids "
                              "the source in conditions)")
                else:
                    self.note(extend(check_path, label),
                              f"the source square is checked for {_quoted(shown)}, which never holds as the "
                              "moving piece stands there: the entry is left out")
                    return []
        loss: _Loss | None = None
        for label, state in entry.board_check.items():
            square_path = extend(check_path, label)
            try:
                cell = self._cell(label)
            except NotationError as error:
                why = f"board_check square {_quoted(label)} is not a CELL coordinate ({error.reason})"
                loss = loss or _Loss(why, square_path)
                self.note(square_path, f"square {_quoted(label)} is not a CELL coordinate ({error.reason}): "
                                       "this entry is not carried over")
                continue
            if cell == source:
                continue
            key = str(cell)
            if any(taken == key for taken, *_ in conditions):
                why = f"board_check squares {_quoted(label)} and another name the same CELL {_quoted(key)}"
                loss = loss or _Loss(why, square_path)
                self.note(square_path, f"{why}: this entry is not carried over")
                continue
            if state in ("empty", "enemy"):
                conditions.append((key, "must", state, label))
            elif state == "occupied":
                conditions.append((key, "deny", "empty", label))
            elif state == "ally":
                conditions.append((key, "ally", "", label))
            else:
                assert isinstance(state, LegacyPiece)
                qpi = self.mapping.get(state)
                if qpi is None:
                    loss = loss or _Loss(f"{self._no_qpi(state)} (board_check)", square_path)
                    self.note(square_path, f"{self._no_qpi(state)}: this entry is not carried over")
                else:
                    conditions.append((key, "must", str(qpi), label))
        if loss is not None:
            return loss
        return self._expand(conditions, piece.side, entry, path)

    def _expand(
        self, conditions: list[tuple[str, str, str, str]], mover: Side, entry: LegacyEntry, path: str
    ) -> _Converted:
        """The possibilities of one entry's conditions, ``ally`` expanded; a loss when the entry
        would take the output past ``output_limit`` (it is left out, with a note)."""
        check_path = path + "/board_check"
        allies = self.known[mover]
        squares = [key for key, kind, _, _ in conditions if kind == "ally"]
        written = {key: label for key, _, _, label in conditions}
        count = _power(len(allies), len(squares), self.ally_limit)
        over = count is None
        if over:
            count = 1
            conditions = [(key, "deny", "enemy", lbl) if kind == "ally" else (key, kind, st, lbl)
                          for key, kind, st, lbl in conditions]
        assert count is not None
        size = count * (max(1, len(conditions)) + _effect_size(entry))
        loss = self._over_limit(count, size, path)
        if loss is not None:
            return loss
        if over:
            small = len(squares) * len(allies).bit_length() <= 60  # not thousands of digits
            shown = f"{len(allies) ** len(squares):,}" if small else f"{len(allies)}^{len(squares)}"
            for key in squares:
                self.note(extend(check_path, written[key]),
                          f"'ally' has no LCN condition, and one possibility per piece of the {mover} "
                          f"player the document knows would make {shown} for this entry, over the "
                          f"limit of {self.ally_limit}: written as deny 'enemy', which also lets an "
                          "empty square through")
            squares = []
        else:
            for key in squares:
                self.note(extend(check_path, written[key]),
                          f"'ally' has no LCN condition: written as one possibility per piece of the "
                          f"{mover} player the document knows ({', '.join(allies)}); a piece the "
                          "document does not name would not count as an ally")
        result: list[_Possibility] = []
        for combination in product(allies, repeat=len(squares)):
            chosen = dict(zip(squares, combination, strict=True))
            must: dict[str, str] = {}
            deny: dict[str, str] = {}
            for label, kind, state, _ in conditions:
                if kind == "deny":
                    deny[label] = state
                else:
                    must[label] = chosen[label] if kind == "ally" else state
            possibility: _Possibility = {}
            if must:
                possibility["must"] = must
            if deny:
                possibility["deny"] = deny
            result.append(possibility)
        return result


def _plural(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def _power(base: int, exponent: int, limit: int) -> int | None:
    """``base ** exponent``, or None when it is over ``limit`` (found without computing a
    number of thousands of digits for an entry of thousands of ``ally`` squares)."""
    if base <= 1 or exponent == 0:
        return 1 if base == 1 or exponent == 0 else 0
    result = 1
    for _ in range(exponent):
        result *= base
        if result > limit:
            return None
    return result


def _effect_size(entry: LegacyEntry) -> int:
    """The squares and hand pieces of an entry's effect."""
    return len(entry.board_patch) + (entry.in_hand_add is not None) + (entry.in_hand_del is not None)


_OUTPUT_FLOOR: Final = 250_000
_OUTPUT_GROWTH: Final = 4


Labels: TypeAlias = Mapping[str, str] | Callable[[str], str | None]
"""How a document's square labels become CELL coordinates: a mapping (a label it does not name
is kept as written) or a function (None: kept as written)."""


def _labels(labels: object) -> Callable[[str], str | None] | None:
    if labels is None:
        return None
    if isinstance(labels, Mapping):
        table: Mapping[str, str] = labels
        return table.get
    if not callable(labels):
        raise TypeError(f"labels is a mapping of labels, a function of a label or None, not "
                        f"{type(labels).__name__}")
    function: Callable[[str], str | None] = labels

    def checked(label: str) -> str | None:
        found = function(label)
        if found is not None and not isinstance(found, str):
            raise TypeError(f"labels gave {type(found).__name__} for {_quoted(label)}, not a str or None")
        return found

    return checked


def shogi_labels(label: str, *, files: int = 9, ranks: int = 9) -> str | None:
    """A shogi square written the Japanese way, as the Ruby gems' shogi documents write them (a
    file digit counted from the first player's right, then a rank letter from the top: ``5e``),
    as a CELL coordinate of a ``files`` x ``ranks`` board as this library's games lay it out
    (the first player's left file is ``a``, the bottom rank ``1``); None for any other label.

    >>> [shogi_labels(square) for square in ("5e", "1a", "9i", "2h", "e5", "0a", "5j")]
    ['e5', 'i9', 'a1', 'h2', None, None, None]
    >>> shogi_labels("3c", files=5, ranks=5)
    'c3'
    """
    if len(label) != 2 or not label[0].isdigit() or not "a" <= label[1] <= "z":
        return None
    file, rank = int(label[0]), ord(label[1]) - ord("a")
    if not 1 <= file <= min(files, 9) or rank >= ranks:
        return None
    return f"{chr(ord('a') + files - file)}{ranks - rank}"


def _check_progress(progress: object) -> None:
    if progress is not None and not callable(progress):
        raise TypeError("progress is a function of a count of entries or None, not "
                        f"{type(progress).__name__}")


def entries(document: LegacyRuleset | GemRuleset) -> int:
    """The count of entries of a document (the units ``progress`` counts), found without
    converting it.

    >>> from ggn.legacy import LegacyRuleset
    >>> entries(LegacyRuleset.from_value({"CHESS:ROOK": {"a1": {"a2": [
    ...     {"board_check": {}, "board_patch": {}}, {"board_check": {}, "board_patch": {}}]}}}))
    2
    """
    if not isinstance(document, (LegacyRuleset, GemRuleset)):
        raise TypeError(f"entries takes a LegacyRuleset or a GemRuleset, not {type(document).__name__}")
    return sum(len(listed) for sources in document.values() for destinations in sources.values()
               for listed in destinations.values())


def _check_limit(limit: object, name: str, what: str) -> None:
    value: int = expect(limit, int, name, what)
    if value < 1:
        raise GGNError(f"{name} is a positive integer, not {shown(value)}")


def convert(
    legacy: LegacyRuleset,
    mapping: GanMapping | Mapping[str, str],
    *,
    ally_limit: int = 64,
    output_limit: int | None = None,
    progress: Callable[[int], object] | None = None,
    labels: Labels | None = None,
) -> Conversion:
    """Rewrite a legacy document as GGN 1.0.0 (see the module's text for how).

    ``mapping`` names the legacy pieces in QPI: a :class:`GanMapping` or a plain mapping of
    strings. ``ally_limit`` bounds the possibilities one entry's ``ally`` checks may become,
    ``output_limit`` the whole output (None: four times the document's size, at least 250,000).
    ``progress``, when given, is called with a number of entries each time that many more have
    been converted (the calls add up to the document's count of entries). ``labels`` rewrites
    the document's square labels before they are read as CELL coordinates: a mapping, or a
    function giving None for a label it keeps as written (:func:`shogi_labels` reads the
    squares of the shogi documents of the Ruby gems, ``5e``); the notes' paths keep the labels
    as the document writes them.

    >>> from ggn.legacy import LegacyRuleset
    >>> legacy = LegacyRuleset.from_value({"SHOGI:SILVER": {"c3": {"c4": [{
    ...     "board_check": {"c4": "ally", "c3": "occupied"}, "board_patch": {}}]}}})
    >>> conversion = convert(legacy, {"SHOGI:SILVER": "S:S"})
    >>> [p.to_value() for p in conversion.ruleset["S:S"]["c3"]["c4"]]
    [{'must': {'c4': 'S:S'}}]
    >>> for path, message in conversion.notes:
    ...     print(path, "|", message[:59])
    /SHOGI:SILVER/c3/c4/0/board_check/c3 | the source square is checked for 'occupied', which always h
    /SHOGI:SILVER/c3/c4/0/board_check/c4 | 'ally' has no LCN condition: written as one possibility per
    """
    if not isinstance(legacy, LegacyRuleset):
        raise TypeError(f"convert takes a LegacyRuleset, not {type(legacy).__name__}")
    _check_limit(ally_limit, "ally_limit", "a positive int")
    if output_limit is not None:
        _check_limit(output_limit, "output_limit", "a positive int or None")
    expect(mapping, (GanMapping, Mapping), "mapping", "a GanMapping or a mapping of strings")
    resolved = mapping if isinstance(mapping, GanMapping) else GanMapping.of(mapping)
    _check_progress(progress)
    converter = _LegacyConverter(legacy, resolved, ally_limit=ally_limit, output_limit=output_limit,
                                 progress=progress, labels=_labels(labels))
    document, effects = converter.run()
    return Conversion(Ruleset.from_value(document), effects, converter.notes, converter.lost,
                      list(converter.unmapped))


# --- the pre-1.0 Ruby gem's dialect ---------------------------------------------------------

class _GemConverter(_Converter[GemEntry]):
    """The dialect of sashite-ggn 0.3.0 to 0.7.0: ``require`` is ``must``, ``prevent`` is
    ``deny`` (the same logic as GGN 1.0.0's), ``perform``, ``gain`` and ``drop`` the effect."""

    _effect_fields: ClassVar[dict[str, str]] = {
        "/board_patch": "/perform", "/in_hand_add": "/gain", "/in_hand_del": "/drop",
    }

    def _entry_pieces(self, entry: GemEntry) -> Iterable[LegacyPiece]:
        for states in (entry.require, entry.prevent):
            yield from (s for s in states.values() if isinstance(s, LegacyPiece))
        yield from (p for p in entry.perform.values() if p is not None)
        yield from (LegacyPiece(g) for g in (entry.gain, entry.drop) if g)

    def _entry_size(self, entry: GemEntry) -> int:
        return max(1, len(entry.require) + len(entry.prevent)) + _gem_effect_size(entry)

    def _effect_entry(self, entry: GemEntry) -> tuple[LegacyEntry, dict[str, str]]:
        patch, back = self._patch(entry.perform)
        return LegacyEntry._trusted(({}, patch, entry.gain, entry.drop)), back

    def _possibilities(
        self, piece: LegacyPiece, source: Cell | Hand, entry: GemEntry, path: str
    ) -> _Converted:
        must: dict[str, str] = {}
        deny: dict[str, str] = {}
        loss: _Loss | None = None
        for name, target in (("require", must), ("prevent", deny)):
            states: Mapping[str, str | LegacyPiece] = getattr(entry, name)
            for label, state in states.items():
                square_path = extend(f"{path}/{name}", label)
                try:
                    cell = self._cell(label)
                except NotationError as error:
                    loss = loss or _Loss(f"{name} square {_quoted(label)} is not a CELL coordinate "
                                         f"({error.reason})", square_path)
                    self.note(square_path, f"square {_quoted(label)} is not a CELL coordinate "
                                           f"({error.reason}): this entry is not carried over")
                    continue
                if cell == source:
                    # The moving piece stands on its source: a state there holds exactly when it
                    # is that piece. GGN 1.0.0 forbids the source in conditions.
                    verb = "required" if name == "require" else "forbidden"
                    passes = (state == piece) == (name == "require")
                    said = f"the source square is {verb} to hold {_quoted(str(state))}, and the moving piece "
                    if passes:
                        self.note(square_path, f"{said}stands there, so this always lets the move through: "
                                               "the condition is left out (GGN 1.0.0 forbids the source "
                                               "in conditions)")
                        continue
                    self.note(square_path, f"{said}stands there, so this never lets the move through: "
                                           "the entry is left out")
                    return []
                if str(cell) in target:
                    why = (f"{name} squares {_quoted(label)} and another name the same CELL "
                           f"{_quoted(str(cell))}")
                    loss = loss or _Loss(why, square_path)
                    self.note(square_path, f"{why}: this entry is not carried over")
                    continue
                if isinstance(state, LegacyPiece):
                    qpi = self.mapping.get(state)
                    if qpi is None:
                        loss = loss or _Loss(f"{self._no_qpi(state)} ({name})", square_path)
                        self.note(square_path, f"{self._no_qpi(state)}: this entry is not carried over")
                        continue
                    target[str(cell)] = str(qpi)
                else:
                    target[str(cell)] = state
        if loss is not None:
            return loss
        size = max(1, len(must) + len(deny)) + _gem_effect_size(entry)
        over = self._over_limit(1, size, path)
        if over is not None:
            return over
        possibility: _Possibility = {}
        if must:
            possibility["must"] = must
        if deny:
            possibility["deny"] = deny
        return [possibility]


def _gem_effect_size(entry: GemEntry) -> int:
    return len(entry.perform) + (entry.gain is not None) + (entry.drop is not None)


def convert_gem(
    gem: GemRuleset,
    mapping: GanMapping | Mapping[str, str],
    *,
    output_limit: int | None = None,
    progress: Callable[[int], object] | None = None,
    labels: Labels | None = None,
) -> Conversion:
    """Rewrite a document of the pre-1.0 Ruby gem's dialect (:mod:`ggn.legacy_gem`) as GGN 1.0.0.

    ``require`` becomes ``must`` and ``prevent`` becomes ``deny``, each piece named through
    ``mapping`` as :func:`convert` names them; ``perform``, ``gain`` and ``drop`` become the
    effects (STN: ``board_diff``, and one more or one fewer of the piece in the Active Player's
    hand). A condition on the source square, which GGN 1.0.0 forbids, is left out when it
    always lets the move through and drops its entry when it never does, with a note. What
    cannot be carried over is in ``notes`` and ``lost``, and ``progress`` is called, as for
    :func:`convert`.

    >>> from ggn.legacy_gem import GemRuleset
    >>> gem = GemRuleset.from_value({"CHESS:R": {"a1": {"a3": [{"require": {"a2": "empty"},
    ...     "prevent": {"a3": "enemy"}, "perform": {"a1": None, "a3": "CHESS:R"}}]}}})
    >>> conversion = convert_gem(gem, {"CHESS:R": "C:R"})
    >>> conversion.ruleset.dumps(indent=None)
    '{"C:R": {"a1": {"a3": [{"must": {"a2": "empty"}, "deny": {"a3": "enemy"}}]}}}'
    >>> conversion.effects
    {'C:R': {'a1': {'a3': [{'board_diff': {'a1': None, 'a3': 'C:R'}, 'toggle': True}]}}}
    >>> conversion.complete, conversion.notes
    (True, [])
    """
    if not isinstance(gem, GemRuleset):
        raise TypeError(f"convert_gem takes a GemRuleset, not {type(gem).__name__}")
    if output_limit is not None:
        _check_limit(output_limit, "output_limit", "a positive int or None")
    expect(mapping, (GanMapping, Mapping), "mapping", "a GanMapping or a mapping of strings")
    resolved = mapping if isinstance(mapping, GanMapping) else GanMapping.of(mapping)
    _check_progress(progress)
    converter = _GemConverter(gem, resolved, ally_limit=1, output_limit=output_limit, progress=progress,
                              labels=_labels(labels))
    document, effects = converter.run()
    return Conversion(Ruleset.from_value(document), effects, converter.notes, converter.lost,
                      list(converter.unmapped))
