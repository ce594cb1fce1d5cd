"""The explorer's engine (``ggn serve --engine``): the best move and the score of a position of
a game, asked of an engine (:mod:`ggn.engine`) by a worker process of :mod:`ggn.web._work`.

A request's engine is started for it and ended with it, in the worker that does the request,
within the request's limits: each answer the engine gives has a quarter of the request's time
(at most :data:`ggn.engine.DEFAULT_TIMEOUT`), the search its movetime and as much again. A
worker stopped at its time limit has its engine killed first (:mod:`ggn.web._work`), and an
engine whose worker has gone reads the end of its input and quits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ggn._json import quote
from ggn._types import check_fields
from ggn.errors import GGNError
from ggn.web._limits import Limits

if TYPE_CHECKING:
    from ggn.rules import Play, RuleSystem
    from ggn.variants.registry import Catalogue
    from ggn.web._explorer import State, Subject

__all__ = ["MAX_MOVETIME", "EngineSettings", "analysis"]

MAX_MOVETIME: Final = 60_000
"""The longest search the explorer asks of its engine, in milliseconds."""


@dataclass(frozen=True, slots=True)
class EngineSettings:
    """The engine the explorer asks (``ggn serve --engine``): its program (``command``, a
    path), its ``protocol`` (``"uci"``, ``"usi"`` or ``"ucci"``), the ``movetime`` of each
    search in milliseconds (1 to :data:`MAX_MOVETIME`), and its ``name`` as the page shows it
    (the engine's own, read when the explorer starts)."""

    command: str
    protocol: str = "uci"
    movetime: int = 1000
    name: str = ""

    def __post_init__(self) -> None:
        check_fields(self)
        if self.protocol not in ("uci", "usi", "ucci"):
            raise GGNError(f"an engine's protocol is 'uci', 'usi' or 'ucci', not {quote(self.protocol)}")
        if not 1 <= self.movetime <= MAX_MOVETIME:
            raise GGNError(f"the engine's movetime is 1 to {MAX_MOVETIME:,} milliseconds, "
                           f"not {self.movetime:,}")

    def to_json(self) -> dict[str, Any]:
        """What the page is told of the engine (``/api/config``)."""
        return {"name": self.name or self.command, "protocol": self.protocol, "movetime": self.movetime}


def analysis(subject: Subject, state: State, settings: EngineSettings, catalogue: Catalogue | None,
             limits: Limits) -> dict[str, Any]:
    """What the engine says of a position: ``bestmove`` (Fairy-Stockfish's UCI string), ``move``
    (the play, as the view lists it), its ``source`` and ``destination`` (``*`` for the hand:
    the page draws the arrow), ``score`` (``{"cp": n}`` or ``{"mate": n}``, from the side to
    move's point of view), ``pv`` (UCI strings) and ``pv_moves`` (plays), ``san`` and ``pv_san``
    (the same in SAN, null where ggn writes none), ``depth``, ``nodes`` and ``engine`` (its
    name). ``bestmove`` is null where the game is over. A GGN document is refused (an engine
    plays a game it knows by name); an engine that fails is an :class:`~ggn.errors.EngineError`."""
    from ggn.engine import DEFAULT_TIMEOUT, Engine, Limit  # noqa: PLC0415  (on use)
    from ggn.variants.registry import BUILTIN  # noqa: PLC0415

    entry = subject.entry
    if entry is None:
        raise GGNError("an engine analyses a game's positions: a pasted GGN document names no game an "
                       "engine knows")
    timeout = max(0.5, min(DEFAULT_TIMEOUT, limits.seconds / 4))
    with Engine(settings.command, protocol=settings.protocol, timeout=timeout) as engine:  # type: ignore[arg-type]
        if entry.source != BUILTIN and catalogue is not None:
            engine.load_variants("\n".join(text for _, text in catalogue.texts()))
        found = engine.analyse(entry.rules, state.position, limit=Limit(movetime=settings.movetime),
                               halfmove=state.halfmove, fullmove=state.fullmove,
                               timeout=settings.movetime / 1000 + timeout)
        name = engine.name
    best = found.bestmove
    san, pv_san = _san(entry.rules, state, found.pv)
    return {
        "bestmove": found.uci,
        "move": None if best is None else str(best),
        "source": None if best is None else str(best.source),
        "destination": None if best is None else str(best.destination),
        "score": None if found.score is None else found.score.to_json(),
        "pv": list(found.pv_uci),
        "pv_moves": [str(play) for play in found.pv],
        "san": san,
        "pv_san": pv_san,
        "depth": found.depth,
        "nodes": found.nodes,
        "stopped": found.stopped,
        "engine": name,
    }


def _san(rules: RuleSystem, state: State, pv: tuple[Play, ...]) -> tuple[str | None, list[str] | None]:
    """The principal variation in the game's SAN (its first move, and all of it), or None where
    ggn writes no SAN for the game."""
    from ggn.notation import write  # noqa: PLC0415  (on use)

    where = state.position
    written: list[str] = []
    try:
        for play in pv:
            written.append(write(rules, where, play))
            where = rules.play(where, play)
    except GGNError:
        return None, None
    return (written[0] if written else None), written
