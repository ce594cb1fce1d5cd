"""The one registry of games (ggn.variants.registry): its entries, catalogues with variants
added from variants.ini text, laziness, and the old lookups that now read it."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable

import pytest

from ggn import games, rules
from ggn.errors import NotFoundError, VariantError
from ggn.position import Position
from ggn.variants import ini, registry
from ggn.variants.description import Variant
from ggn.variants.registry import Catalogue

sf = pytest.importorskip("pyffish")

TINY = """\
[tinyhouse:crazyhouse]
maxRank = 6
startFen = rnbqkbnr/pppppppp/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1
promotionRegionWhite = *6
promotionRegionBlack = *1
doubleStep = false
"""


def test_every_built_in_is_one_entry_made_from_its_description() -> None:
    names = registry.names()
    assert len(names) == len(set(names)) >= 60
    assert names[0] == "chess"
    for name in names:
        entry = registry.entry(name)
        variant = entry.variant
        assert isinstance(variant, Variant) and variant.name == name == entry.name
        assert entry.source == registry.BUILTIN
        assert entry.shape == (variant.files, variant.ranks)
        # The start position is Fairy-Stockfish's, read through the game's own FEN reader.
        assert entry.fen.split(" ")[:-2] == sf.start_fen(name).split(" ")[:-2], name
        assert entry.start == entry.to_feen(sf.start_fen(name))
        # As Fairy-Stockfish writes it (its start FENs of 960 games are written as KQkq, its
        # positions' castling rights as the rooks' files).
        assert entry.from_feen(entry.start) == sf.get_fen(name, sf.start_fen(name), []), name


@pytest.mark.parametrize("name", ["chess", "capablanca", "shogi", "xiangqi", "makruk", "crazyhouse"])
def test_rule_systems_are_built_once_and_shared_by_every_catalogue(name: str) -> None:
    made = registry.rules(name)
    assert registry.rules(name) is made and Catalogue().rules(name) is made
    assert rules.rule_system(name) is made and games.ruleset(name) is made.ruleset
    start = made.position()
    assert start == Position.from_feen(registry.start(name))
    assert {str(play) for play in made.legal_moves(start)} and made.count(start) == len(
        sf.legal_moves(name, sf.start_fen(name), []))


def test_the_old_lookups_read_the_registry() -> None:
    assert games.names() == registry.names() == rules.names()
    assert games.start("xiangqi") == registry.start("xiangqi")
    assert games.shape("xiangqi") == (9, 10) and games.shape("capablanca") == (10, 8)
    document = games.document("chess")
    document.clear()
    assert games.document("chess") == registry.entry("chess").document() != {}  # a new copy each call
    assert rules.perft("capablanca", 1) == len(sf.legal_moves("capablanca", sf.start_fen("capablanca"), []))


def test_an_unknown_name_is_not_found_and_a_wrong_type_a_type_error() -> None:
    names = registry.names()
    message = f"no game 'go'; there are: {', '.join(names[:8])}, ... ({len(names)} in all)"
    lookups: list[Callable[[str], object]] = [
        registry.entry, registry.variant, registry.rules, registry.start, rules.rule_system, games.start,
        Catalogue().entry,
    ]
    for lookup in lookups:
        with pytest.raises(NotFoundError) as caught:
            lookup("go")
        assert str(caught.value) == message
        with pytest.raises(TypeError, match="name must be a str, got int"):
            lookup(3)  # type: ignore[arg-type]
    with pytest.raises(NotFoundError, match=r"^no built-in mapping 'capablanca'; there are: chess, shogi"):
        registry.entry("capablanca").mapping()
    assert registry.entry("chess").mapping() == registry.legacy_mapping("CHESS")


# --- catalogues and variants.ini -------------------------------------------------------------
def test_add_ini_adds_variants_that_play_as_pyffish_plays_them() -> None:
    catalogue = Catalogue()
    assert catalogue.add_ini(TINY, "tiny.ini") == ("tinyhouse",)
    assert "tinyhouse" in catalogue and "tinyhouse" not in registry.names()
    assert catalogue.names() == (*registry.names(), "tinyhouse") and catalogue.added() == ("tinyhouse",)
    assert len(catalogue) == len(registry.names()) + 1 and list(catalogue) == list(catalogue.names())
    entry = catalogue.entry("tinyhouse")
    assert (entry.source, entry.shape, entry.legacy) == ("tiny.ini", (8, 6), False)
    sf.load_variant_config(TINY)
    rules_of = catalogue.rules("tinyhouse")
    start = sf.start_fen("tinyhouse")
    assert entry.to_feen(start) == catalogue.start("tinyhouse")
    assert rules_of.count(rules_of.position()) == len(sf.legal_moves("tinyhouse", start, []))


def test_add_ini_reads_its_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[str] = []
    read = ini.sections

    def counted(text: str, *, source: str = "<ini>") -> list[ini.Section]:
        reads.append(source)
        return read(text, source=source)

    monkeypatch.setattr(ini, "sections", counted)
    assert Catalogue().add_ini(TINY, "tiny.ini") == ("tinyhouse",)
    assert reads.count("tiny.ini") == 1


def test_a_later_text_may_inherit_from_an_earlier_one() -> None:
    catalogue = Catalogue()
    catalogue.add_ini(TINY, "tiny.ini")
    assert catalogue.add_ini("[tinierhouse:tinyhouse]\nmaxFile = 6\n"
                             "startFen = rnbqkr/pppppp/6/6/PPPPPP/RNBQKR[] w - - 0 1\ncastling = false\n",
                             "more.ini") == ("tinierhouse",)
    assert catalogue.entry("tinierhouse").shape == (6, 6)
    with pytest.raises(NotFoundError):
        Catalogue().entry("tinierhouse")  # each catalogue its own


def test_a_catalogue_pickles_as_its_texts() -> None:
    """A catalogue goes to another process (the explorer's workers) as the texts it was made of,
    and is made again from them there: the same games, in the same order."""
    import pickle  # noqa: PLC0415

    catalogue = Catalogue()
    catalogue.add_ini(TINY, "tiny.ini")
    catalogue.add_ini("[tinierhouse:tinyhouse]\nmaxFile = 6\n"
                      "startFen = rnbqkr/pppppp/6/6/PPPPPP/RNBQKR[] w - - 0 1\ncastling = false\n",
                      "more.ini")
    written = pickle.dumps(catalogue)
    assert len(written) < 2_000  # the texts, not the rules
    again = pickle.loads(written)
    assert again is not catalogue and again.names() == catalogue.names()
    assert again.added() == ("tinyhouse", "tinierhouse")
    assert again.entry("tinierhouse").source == "more.ini" and again.entry("tinierhouse").shape == (6, 6)
    assert again.start("tinyhouse") == catalogue.start("tinyhouse")
    assert pickle.loads(pickle.dumps(Catalogue())).names() == registry.names()


def test_add_ini_is_all_or_nothing() -> None:
    catalogue = Catalogue()
    text = TINY + "\n[broken:chess]\nnoSuchOption = 1\n"
    with pytest.raises(VariantError) as caught:
        catalogue.add_ini(text, "two.ini")
    assert caught.value.source == "two.ini" and caught.value.line == 9
    assert str(caught.value).startswith("two.ini:9: ") and "noSuchOption" in str(caught.value)
    assert catalogue.added() == () and "tinyhouse" not in catalogue
    assert catalogue.add_ini(TINY, "tiny.ini") == ("tinyhouse",)  # nothing of the bad text stayed


@pytest.mark.parametrize(("text", "line"), [("; mine\n[chess]\nmaxRank = 6\n", 2),
                                            ("[capablanca:chess]\n", 1)])
def test_a_name_that_is_already_a_game_is_an_error(text: str, line: int) -> None:
    catalogue = Catalogue()
    with pytest.raises(VariantError) as caught:
        catalogue.add_ini(text, "mine.ini")
    assert (caught.value.source, caught.value.line) == ("mine.ini", line)
    assert "is already a variant" in str(caught.value)
    catalogue.add_ini(TINY, "tiny.ini")
    with pytest.raises(VariantError, match=r"^again.ini:1: \[tinyhouse\] is already a variant"):
        catalogue.add_ini(TINY, "again.ini")
    with pytest.raises(TypeError, match="text must be a str"):
        catalogue.add_ini(b"[x:chess]")  # type: ignore[arg-type]


def test_an_entry_is_made_once_under_threads() -> None:
    catalogue = Catalogue()
    catalogue.add_ini(TINY, "tiny.ini")
    entry = catalogue.entry("tinyhouse")
    made: list[object] = []
    barrier = threading.Barrier(8)

    def ask() -> None:
        barrier.wait()
        made.append(entry.rules)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 8 and all(rules is made[0] for rules in made)


# --- laziness ---------------------------------------------------------------------------------
def test_nothing_is_read_on_import() -> None:
    """Importing ggn, the registry or the command reads no variant: the built-in file is read
    the first time a name is asked for."""
    code = ("import sys, ggn, ggn.games, ggn.rules, ggn.cli, ggn.variants.registry as r; "
            "print(r._LOADED == [], 'ggn.variants.ini' in sys.modules, 'ggn.variants.registry' in "
            "sys.modules); r.names(); print(r._LOADED != [], r.entry('chess')._variant is None)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["True", "False", "True", "True", "True"]
    code = "import sys, ggn; print('ggn.variants.registry' in sys.modules, 'ggn.games' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "False"]


def test_an_unknown_parent_is_an_error_naming_its_line() -> None:
    catalogue = Catalogue()
    with pytest.raises(VariantError, match=r"^bad.ini:2: .*nosuchparent"):
        catalogue.add_ini("\n[bad:nosuchparent]\n", "bad.ini")
    assert "bad" not in catalogue
