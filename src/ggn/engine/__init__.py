"""Engines: a client for UCI, USI and UCCI programs (Stockfish, Fairy-Stockfish, shogi and
xiangqi engines) in a subprocess.

An :class:`Engine` starts the program and reads its handshake, sets its options, sends a
position and its moves, runs a search within a :class:`Limit` (a depth, a movetime, a number
of nodes) and reads its best move, its score (:class:`Score`, centipawns or a mate, from the
side to move's point of view) and its principal variation (:class:`Info`). :meth:`Engine.analyse`
does it all for a position of a ggn game: the position goes to the engine as Fairy-Stockfish's
FEN, the plays made from it as moves, the variant by name (``UCI_Variant``, and ``VariantPath``
for variants read from ``variants.ini`` text: :meth:`Engine.load_variants`), and the answer
comes back as ggn's plays (:class:`Analysis`).

>>> from ggn.rules import rule_system
>>> with Engine("/usr/games/stockfish") as engine:  # doctest: +SKIP
...     analysis = engine.analyse(rule_system("chess"), limit=Limit(depth=10))
>>> analysis.uci, analysis.score, str(analysis.bestmove)  # doctest: +SKIP
('e2e4', Score(cp=31, mate=None, bound=None), 'C:P e2-e4')

Every wait has a timeout, what is read from the engine is bounded (a line's length, the lines
of a wait), and an engine that cannot be started, exits, hangs or breaks its protocol is an
:class:`~ggn.errors.EngineError`, raised once its process has been killed and reaped. The
engine's process is always reaped: on :meth:`Engine.quit`, at the end of a ``with`` block,
after an error, and when the object is collected. docs/engines.md is the guide.
"""

from __future__ import annotations

from ggn.engine._engine import DEFAULT_SEARCH_TIMEOUT, DEFAULT_TIMEOUT, QUIT_GRACE, Analysis, Engine, Search
from ggn.engine._process import MAX_LINE
from ggn.engine._protocol import PROTOCOLS, Info, Limit, Option, Protocol, Score, from_engine, to_engine
from ggn.errors import EngineError

__all__ = ["DEFAULT_SEARCH_TIMEOUT", "DEFAULT_TIMEOUT", "MAX_LINE", "PROTOCOLS", "QUIT_GRACE", "Analysis",
           "Engine", "EngineError", "Info", "Limit", "Option", "Protocol", "Score", "Search", "from_engine",
           "to_engine"]
