"""The native kernel's tables in the compile cache (ggn.rules._native, ggn.cache).

Tables read back from the cache count and list exactly as tables just made, and as the pure
path (the reference), on random games and random placements; an entry that is cut short,
changed, another key's, or whole but inconsistent is refused and the tables made again (never
an error, never a wrong count); two processes filling the cache at once both count right and
leave an entry a third reads; the cache switched off keeps nothing; a GGN document's tables
are keyed by its content.

Each test gets its own cache directory.
"""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ggn import cache
from ggn.position import Position
from ggn.rules import _native, perft, use_native
from ggn.rules._system import RuleSystem
from ggn.rules.variant import VariantRules
from ggn.ruleset import Ruleset
from ggn.variants import registry

pytestmark = pytest.mark.skipif(not _native.native_available(), reason="the C kernel is not built here")

ROOT = Path(__file__).parent.parent
CHESS = "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c"
# Drawn once from os.urandom when this file was written, not tuned on.
SEEDS = (480913, 127756, 903341)


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A new cache directory, in use for the test; the settings restored after."""
    cache.flush()
    path = tmp_path / "cache"
    monkeypatch.setenv("GGN_CACHE_DIR", str(path))
    monkeypatch.delenv("GGN_NO_CACHE", raising=False)
    cache.configure()
    yield path
    cache.flush()
    cache.configure()


def _tables(path: Path) -> list[Path]:
    return sorted(path.glob(f"{_native._CACHE_KIND}-*.ggnc"))


def _fresh(name: str) -> VariantRules:
    """A new rule system of a built-in game: none of its tables in this process yet."""
    rules = VariantRules(registry.entry(name).variant)
    assert _native._GAMES.get(rules) is None
    return rules


def _positions(rules: RuleSystem, seed: int) -> list[Position]:
    """Positions along a random game (the pure path plays it), and random placements of the
    start's pieces (either side to move)."""
    import random  # noqa: PLC0415

    chance = random.Random(seed)
    position = rules.position()
    found = [position]
    for _ in range(30):
        with use_native(False):
            plays = rules.legal_moves(position)
        if not plays:
            break
        position = position.apply(chance.choice(plays).transition)
        found.append(position)
    start = rules.position()
    for _ in range(4):
        codes = list(start._codes)
        chance.shuffle(codes)
        found.append(Position._make(start._geometry, codes, (dict(start._hands[0]), dict(start._hands[1])),
                                    chance.choice(("first", "second")), start.styles))
    return found


def _no_building(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: object) -> None:
        raise AssertionError("the tables were made, not read from the cache")

    monkeypatch.setattr(_native._Builder, "build", refuse)


def _plays(rules: RuleSystem, position: Position) -> list[tuple[str, object]]:
    plays = _native.legal(rules, position)
    assert plays is not None
    return sorted((str(play), play.transition) for play in plays)


def _pure(rules: RuleSystem, position: Position, depth: int) -> tuple[list[tuple[str, object]], int]:
    with use_native(False):
        return (sorted((str(play), play.transition) for play in rules.legal_moves(position)),
                perft(rules, depth, position))


@pytest.mark.parametrize(("name", "seed"), [
    ("chess", SEEDS[0]), ("shogi", SEEDS[1]), ("xiangqi", SEEDS[2]), ("crazyhouse", SEEDS[0]),
    ("makruk", SEEDS[1]), ("isolation", SEEDS[2]), ("amazons", SEEDS[0]), ("janggi", SEEDS[1]),
    ("seirawan", SEEDS[2])])
def test_cached_tables_count_as_fresh_ones_and_as_the_pure_path(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch, name: str, seed: int) -> None:
    made = _fresh(name)
    positions = _positions(made, seed)
    fresh = [(_plays(made, position), _native.perft(made, position, 2)) for position in positions]
    cache.flush()
    assert len(_tables(cache_dir)) == 1
    _no_building(monkeypatch)
    read = _fresh(name)
    game = _native._game(read, read.position())
    assert game is not None and not game._moves  # read back: no move decoded before it is asked for
    for position, (plays, count) in zip(positions, fresh, strict=True):
        assert (_plays(read, position), _native.perft(read, position, 2)) == (plays, count) \
            == _pure(read, position, 2), position.to_feen()


def test_a_shallow_perft_uses_cached_tables_at_once(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = _fresh("chess")
    assert _native.perft(made, made.position(), 1) is None  # neither made nor kept: the pure path
    assert _native.perft(made, made.position(), 3) == 8902  # made, and kept
    _no_building(monkeypatch)
    read = _fresh("chess")
    assert _native.perft(read, read.position(), 1) == 20  # the first shallow count: the kernel's
    assert _native.perft(read, read.position(), 2) == 400


def _entry_of(cache_dir: Path, name: str) -> tuple[VariantRules, Path]:
    before = set(_tables(cache_dir))
    rules = _fresh(name)
    assert _native.perft(rules, rules.position(), 3) is not None
    (entry,) = set(_tables(cache_dir)) - before
    return rules, entry


def _counted_again(name: str, depth: int) -> int | None:
    rules = _fresh(name)
    return _native.perft(rules, rules.position(), depth)


@pytest.mark.parametrize("damage", ["truncated", "flipped", "emptied", "foreign"])
def test_a_damaged_file_is_refused_and_made_again(cache_dir: Path, damage: str) -> None:
    _, entry = _entry_of(cache_dir, "chess")
    data = entry.read_bytes()
    if damage == "truncated":
        entry.write_bytes(data[:len(data) // 2])
    elif damage == "flipped":
        entry.write_bytes(data[:-100] + bytes([data[-100] ^ 0x40]) + data[-99:])
    elif damage == "emptied":
        entry.write_bytes(b"")
    else:  # another game's whole entry under chess's name
        _entry_of(cache_dir, "xiangqi")
        (other,) = [path for path in _tables(cache_dir) if path != entry]
        entry.write_bytes(other.read_bytes())
    assert _counted_again("chess", 4) == 197281
    assert entry.read_bytes() == data  # made again, and written over the damaged file


def _payloads(rules: VariantRules) -> list[tuple[str, bytes]]:
    """Whole entries (their hashes right) whose contents do not fit the key: what a faulty
    writer could leave. Each must be refused, and the tables made again."""
    key = _native._cache_key(rules, rules.position()._geometry, _native._STATE.kernel)  # type: ignore[arg-type]
    assert key is not None
    data = cache.load(_native._CACHE_KIND, key)
    assert data is not None
    form, packed, pieces, places, hands, plays = marshal.loads(data)
    raw = _native._inflate(packed)
    moves = _native._inflate(places)
    fixed = _native._inflate(plays)
    values = bytearray(raw)
    values[0] ^= 1  # the magic number
    short = _native._deflate(raw[:len(raw) // 2])
    return [
        ("not marshal", b"\x00garbage"),
        ("another format", marshal.dumps((form + 1, packed, pieces, places, hands, plays))),
        ("a list", marshal.dumps([form, packed, pieces, places, hands, plays])),
        ("no zlib mark", marshal.dumps((form, packed[1:], pieces, places, hands, plays))),
        ("bad zlib", marshal.dumps((form, b"z" + packed[1:40], pieces, places, hands, plays))),
        ("bad magic", marshal.dumps((form, _native._deflate(bytes(values)), pieces, places, hands, plays))),
        ("tables cut short", marshal.dumps((form, short, pieces, places, hands, plays))),
        ("a piece fewer", marshal.dumps((form, packed, pieces[:-1], places, hands, plays))),
        ("a piece twice", marshal.dumps((form, packed, (*pieces[:-1], pieces[0]), places, hands, plays))),
        ("not a piece", marshal.dumps((form, packed, (*pieces[:-1], "?!"), places, hands, plays))),
        ("a move fewer", marshal.dumps((form, packed, pieces, _native._deflate(moves[:-12]), hands, plays))),
        ("a move cut", marshal.dumps((form, packed, pieces, _native._deflate(moves[:-4]), hands, plays))),
        ("places not kept so", marshal.dumps((form, packed, pieces, moves, hands, plays))),
        ("hands", marshal.dumps((form, packed, pieces, places, not hands, plays))),
        ("plays short", marshal.dumps((form, packed, pieces, places, hands, _native._deflate(fixed[:-4])))),
        ("plays cut", marshal.dumps((form, packed, pieces, places, hands, _native._deflate(fixed[:-1])))),
        ("no plays", marshal.dumps((form, packed, pieces, places, hands))),
        ("places of ints", marshal.dumps((form, packed, pieces, list(places), hands, plays))),
    ]


def test_a_whole_but_wrong_entry_is_refused_or_gives_the_right_count(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules, _ = _entry_of(cache_dir, "chess")
    key = _native._cache_key(rules, rules.position()._geometry, _native._STATE.kernel)  # type: ignore[arg-type]
    assert key is not None
    for label, payload in _payloads(rules):
        assert cache.store(_native._CACHE_KIND, key, payload)
        read = _fresh("chess")
        game = _native._make(read, _native._STATE.kernel, read.position(), build=False)  # type: ignore[arg-type]
        assert game is None, label  # refused: not read back
        assert _counted_again("chess", 3) == 8902, label  # made again


@pytest.mark.parametrize(("name", "notation"), [("chess", "uci"), ("shogi", "usi"), ("xiangqi", "uci")])
def test_a_batch_listed_with_cached_tables_is_the_pure_paths(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch, name: str, notation: str) -> None:
    from ggn import batch  # noqa: PLC0415

    rules = _fresh(name)  # not the registry's: its tables may be in this process from another cache
    lines = [position.to_feen() for position in _positions(rules, SEEDS[1])]
    with use_native(False):
        expected = [(result.line, result.text, result.error)
                    for result in batch.legal(rules, lines, notation=notation)]  # type: ignore[arg-type]
    assert _native.perft(rules, rules.position(), 3) is not None  # the tables made, and kept
    cache.flush()
    _native._GAMES.pop(rules, None)  # this process forgets them: read back from the cache
    _no_building(monkeypatch)
    listed = [(result.line, result.text, result.error)
              for result in batch.legal(rules, lines, notation=notation)]  # type: ignore[arg-type]
    game = _native._GAMES[rules][rules.position()._geometry.shape]
    assert isinstance(game, _native._Game)
    assert listed == expected


def test_two_processes_filling_the_cache_at_once(cache_dir: Path) -> None:
    script = ("import sys; from ggn.rules import perft, rule_system; from ggn.rules import _native; "
              "print(perft('chess', 4), perft('xiangqi', 3)); "
              "sys.exit(0 if _native._GAMES.get(rule_system('chess')) else 3)")
    environment = {**os.environ, "GGN_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(ROOT / "src")}
    environment.pop("GGN_NO_CACHE", None)
    running = [subprocess.Popen([sys.executable, "-c", script], env=environment, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for _ in range(3)]
    for process in running:
        out, err = process.communicate(timeout=300)
        assert (process.returncode, out.split(), err) == (0, ["197281", "79666"], "")
    assert len(_tables(cache_dir)) == 2
    check = ("from ggn.rules import _native, rule_system\n"
             "def refuse(self): raise SystemExit('made, not read')\n"
             "_native._Builder.build = refuse\n"
             "rules = rule_system('chess')\n"
             "print(_native.perft(rules, rules.position(), 4))\n")
    done = subprocess.run([sys.executable, "-c", check], env=environment, capture_output=True, text=True,
                          timeout=300, check=False)
    assert (done.returncode, done.stdout.split(), done.stderr) == (0, ["197281"], "")


def test_the_cache_switched_off_keeps_no_tables(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with cache.off():
        rules = _fresh("chess")
        assert _native.perft(rules, rules.position(), 3) == 8902
        cache.flush()
    assert _tables(cache_dir) == []
    monkeypatch.setenv("GGN_NO_CACHE", "1")
    rules = _fresh("chess")
    assert _native.perft(rules, rules.position(), 3) == 8902
    cache.flush()
    assert _tables(cache_dir) == []
    environment = {**os.environ, "GGN_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(ROOT / "src")}
    environment.pop("GGN_NO_CACHE", None)
    done = subprocess.run([sys.executable, "-m", "ggn", "--no-cache", "perft", "chess", "3"], env=environment,
                          capture_output=True, text=True, timeout=300, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "8902\n", "")
    assert _tables(cache_dir) == []


def test_a_documents_tables_are_keyed_by_its_content(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = registry.entry("chess").ruleset().dumps()
    first = RuleSystem(Ruleset.loads(text))
    start = first.position(CHESS)
    assert _native.perft(first, start, 3) == 8902
    # The same document read again: its tables from the cache.
    same = RuleSystem(Ruleset.loads(text))
    geometry = start._geometry
    kernel = _native._STATE.kernel
    assert kernel is not None
    assert _native._cache_key(same, geometry, kernel) == _native._cache_key(first, geometry, kernel)
    with monkeypatch.context() as patched:
        _no_building(patched)
        assert _native.perft(same, same.position(CHESS), 3) == 8902
    # Another document (a knight's move taken away): another key, its own tables.
    value = registry.entry("chess").ruleset().to_value()
    knight = value["C:N"]["b1"]
    del knight["a3"]
    other = RuleSystem(Ruleset.from_value(value))
    assert _native._cache_key(other, geometry, kernel) != _native._cache_key(first, geometry, kernel)
    counted = _native.perft(other, other.position(CHESS), 3)
    with use_native(False):
        assert counted == perft(other, 3, other.position(CHESS)) < 8902
    # And another board: another key.
    small = Position.from_feen("+r2+k^/4/4/+R2+K^ / C/c")
    assert _native._cache_key(first, small._geometry, kernel) != _native._cache_key(first, geometry, kernel)
    cache.flush()
    assert len(_tables(cache_dir)) == 2
