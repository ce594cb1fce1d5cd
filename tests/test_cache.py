"""The compile cache on disk (ggn.cache): where it is, what it keeps, and that nothing it
reads can make a process run code it did not make, or fail.

Each test gets its own cache directory (``cache_dir``); the processes some tests start are
pointed at it with ``GGN_CACHE_DIR``.
"""

from __future__ import annotations

import importlib.util
import marshal
import os
import pickle
import shutil
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ggn import cache
from ggn import compiled as compiled_module
from ggn.compiled import CompiledRuleset
from ggn.errors import DocumentError
from ggn.evaluate import reference_moves
from ggn.position import Geometry
from ggn.rules import _attacks as attacks_module
from ggn.rules.variant import VariantRules
from ggn.ruleset import Ruleset, pack, unpack
from ggn.variants import registry
from ggn.variants.document import build, canonical, ruleset_of
from support import game_positions, move_key

pytestmark = pytest.mark.slow  # not in the README's quick run: fresh processes fill the cache

ROOT = Path(__file__).parent.parent
ROOTED = os.geteuid() == 0 if hasattr(os, "geteuid") else False
NOBODY = 65534


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A new cache directory (not made yet), in use for the test; the settings restored after."""
    cache.flush()  # what earlier tests made goes to their cache, not this one
    path = tmp_path / "cache"
    monkeypatch.setenv("GGN_CACHE_DIR", str(path))
    monkeypatch.delenv("GGN_NO_CACHE", raising=False)
    cache.configure()
    yield path
    cache.flush()
    cache.configure()


def entries(path: Path, *kinds: str) -> list[Path]:
    """The entries of a cache directory (of those kinds only, when given)."""
    return sorted(file for file in path.glob("*.ggnc") if not kinds or file.name.rsplit("-", 1)[0] in kinds)


def assert_unusable(why: str) -> None:
    """The cache in use neither loads nor stores, and its status says ``why`` (a part of it)."""
    assert why in cache.status()
    assert cache.load("test", b"k") is None
    assert not cache.store("test", b"k", b"data")


# --- where, and on or off ------------------------------------------------------------------


def test_the_default_directory_follows_each_platform(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.default_directory() == tmp_path / "xdg" / "ggn"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the spec: an absolute path only
    assert cache.default_directory() == Path.home() / ".cache" / "ggn"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache.default_directory() == Path.home() / ".cache" / "ggn"
    monkeypatch.setattr(sys, "platform", "darwin")
    assert cache.default_directory() == Path.home() / "Library" / "Caches" / "ggn"
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "local"))
    assert cache.default_directory() == tmp_path / "local" / "ggn" / "Cache"


def test_environment_and_configure_choose_the_directory_and_turn_it_off(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert cache.enabled()
    assert cache.store("test", b"k", b"data")
    assert cache.load("test", b"k") == b"data"
    assert cache.status() == f"in {cache_dir}"
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700  # made private
    for off in ("1", "yes"):
        monkeypatch.setenv("GGN_NO_CACHE", off)
        assert not cache.enabled()
        assert_unusable("off (GGN_NO_CACHE")
    monkeypatch.setenv("GGN_NO_CACHE", "0")
    assert cache.load("test", b"k") == b"data"
    other = tmp_path / "elsewhere"
    cache.configure(directory=other)
    assert cache.load("test", b"k") is None  # another directory: another cache
    cache.configure(enabled=False, directory=cache_dir)
    assert cache.load("test", b"k") is None
    cache.configure(enabled=True, directory=cache_dir)
    assert cache.load("test", b"k") == b"data"
    with pytest.raises(TypeError):
        cache.configure(enabled="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cache.configure(max_bytes=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="0 or more"):
        cache.configure(max_bytes=-1)


def test_no_home_directory_means_no_cache_not_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GGN_CACHE_DIR", raising=False)
    monkeypatch.delenv("GGN_NO_CACHE", raising=False)

    def homeless() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", staticmethod(homeless))
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    cache.configure()
    try:
        assert_unusable("no home directory")
    finally:
        monkeypatch.undo()
        cache.configure()


def test_keys_and_kinds_are_separate_entries(cache_dir: Path) -> None:
    assert cache.store("one", b"k", b"1")
    assert cache.store("two", b"k", b"2")
    assert cache.store("one", b"k2", b"3")
    assert (cache.load("one", b"k"), cache.load("two", b"k"), cache.load("one", b"k2")) == (b"1", b"2", b"3")
    assert cache.load("one", b"k3") is None
    assert len(entries(cache_dir)) == 3
    assert cache.clear() == 3
    assert cache.load("one", b"k") is None


# --- the key: version, bytecode and the code's own source ----------------------------------


def test_the_fingerprint_changes_with_the_bytecode_magic_and_the_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = cache.fingerprint()
    assert first is not None
    monkeypatch.setattr(cache, "_fingerprint", None)
    monkeypatch.setattr(importlib.util, "MAGIC_NUMBER", b"\x00\x00\r\n")
    assert cache.fingerprint() not in (None, first)
    monkeypatch.undo()
    monkeypatch.setattr(cache, "_fingerprint", None)
    monkeypatch.setattr(sys.modules["ggn"], "__version__", "99.0.0")
    assert cache.fingerprint() not in (None, first)
    monkeypatch.undo()
    monkeypatch.setattr(cache, "_fingerprint", None)
    assert cache.fingerprint() == first  # the same code: the same fingerprint


def test_the_fingerprint_changes_with_any_source_of_the_package(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A copy of the package's sources: a change to the code generator (or any other module)
    # is another fingerprint, so an entry its old version made is never loaded.
    package = Path(cache.__file__).parent
    copy = tmp_path / "ggn"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "__file__", str(copy / "cache.py"))
    monkeypatch.setattr(cache, "_fingerprint", None)
    before = cache.fingerprint()
    monkeypatch.setattr(cache, "_fingerprint", None)
    assert cache.fingerprint() == before
    generator = copy / "compiled.py"
    generator.write_text(generator.read_text(encoding="utf-8") + "\n# a change\n", encoding="utf-8")
    monkeypatch.setattr(cache, "_fingerprint", None)
    assert cache.fingerprint() not in (None, before)


def test_an_entry_of_another_fingerprint_is_not_loaded(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cache.store("test", b"k", b"old code")
    monkeypatch.setattr(cache, "_fingerprint", b"\x01" * 32)
    assert cache.load("test", b"k") is None
    # Even renamed to the name the new fingerprint gives, its header names the old key.
    old = entries(cache_dir)[0]
    name = cache._entry("test", b"k")
    assert name is not None
    old.rename(cache_dir / name[0])
    assert cache.load("test", b"k") is None


# --- the directory ---------------------------------------------------------------------------


@pytest.mark.skipif(os.name != "posix", reason="Unix modes")
def test_a_directory_writable_by_others_is_not_used(cache_dir: Path) -> None:
    assert cache.store("test", b"k", b"data")
    cache_dir.chmod(0o770)
    cache.configure()  # checked again
    assert_unusable(f"not used: {cache_dir}: it is writable by the group")
    cache_dir.chmod(0o707)
    cache.configure()
    assert cache.load("test", b"k") is None
    cache_dir.chmod(0o700)
    cache.configure()
    assert cache.load("test", b"k") == b"data"


@pytest.mark.skipif(os.name != "posix", reason="Unix symbolic links and modes")
def test_a_symbolic_link_as_the_directory_is_not_followed(tmp_path: Path) -> None:
    # Another user's directory (or one they can write) put where the cache is looked for.
    target = tmp_path / "theirs"
    target.mkdir(mode=0o700)
    link = tmp_path / "cache"
    link.symlink_to(target)
    cache.configure(directory=link)
    try:
        assert_unusable("symbolic link")
        assert list(target.iterdir()) == []
    finally:
        cache.configure()


@pytest.mark.skipif(os.name != "posix", reason="Unix modes")
def test_a_directory_in_a_parent_others_may_write_without_the_sticky_bit_is_not_used(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # anyone could rename the cache away and put their own in its place
    cache.configure(directory=shared / "ggn")
    try:
        assert_unusable("without the sticky bit")
        shared.chmod(0o1777)  # as /tmp: others cannot rename what is ours
        cache.configure(directory=shared / "ggn")
        assert cache.store("test", b"k", b"data")
    finally:
        shared.chmod(0o700)
        cache.configure()


@pytest.mark.skipif(not ROOTED, reason="changing a file's owner needs root")
def test_a_directory_or_file_of_another_user_is_not_used(cache_dir: Path) -> None:
    assert cache.store("test", b"k", b"data")
    (file,) = entries(cache_dir)
    os.chown(file, NOBODY, NOBODY)
    assert cache.load("test", b"k") is None  # another user's file: not loaded
    os.chown(file, os.geteuid(), os.getegid())
    assert cache.load("test", b"k") == b"data"
    os.chown(cache_dir, NOBODY, NOBODY)
    cache.configure()
    assert_unusable("another user")
    os.chown(cache_dir, os.geteuid(), os.getegid())


def test_a_file_in_place_of_the_directory_is_not_used(tmp_path: Path) -> None:
    plain = tmp_path / "cache"
    plain.write_text("not a directory")
    cache.configure(directory=plain)
    try:
        assert_unusable("not a directory")
    finally:
        cache.configure()


def test_a_relative_directory_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GGN_CACHE_DIR", "relative/cache")
    cache.configure()
    try:
        assert_unusable("not used: relative/cache: it is not an absolute path")
        cache.configure(directory="cache")
        assert_unusable("not an absolute path")
        cache.configure(directory=tmp_path / "a" / ".." / "cache")
        assert_unusable("'..' part")
        assert list(tmp_path.iterdir()) == []  # nothing made
    finally:
        cache.configure()


@pytest.mark.parametrize("where", ["/", "/usr", "/tmp", "/etc", "home"])
def test_the_root_a_system_directory_or_the_home_directory_is_not_used(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("HOME", str(home))
    directory = home if where == "home" else Path(where)
    before = sorted(os.listdir(directory))
    cache.configure(directory=directory)
    try:
        assert_unusable("system directory" if where != "home" else "the home directory")
        assert cache.clear() == 0
    finally:
        cache.configure()
    assert sorted(os.listdir(directory)) == before  # nothing written there, nothing removed


@pytest.mark.skipif(os.name != "posix", reason="Unix modes")
@pytest.mark.parametrize("mode", [0o770, 0o730, 0o775, 0o707])
def test_a_directory_under_a_parent_the_group_may_write_is_not_used(tmp_path: Path, mode: int) -> None:
    shared = tmp_path / "shared" / "deeper"
    shared.mkdir(parents=True, mode=0o700)
    shared.parent.chmod(mode)  # a grandparent the group can write: the cache's parent renamed away
    cache.configure(directory=shared / "ggn")
    try:
        assert_unusable(f"{shared.parent}, above it, is writable by the group or others without the "
                        f"sticky bit (mode {mode:o})")
        assert not (shared / "ggn").exists()  # refused before anything is made
        shared.parent.chmod(mode | stat.S_ISVTX)  # sticky, as /tmp: what is ours stays ours
        cache.configure(directory=shared / "ggn")
        assert cache.store("test", b"k", b"data")
    finally:
        shared.parent.chmod(0o700)
        cache.configure()


@pytest.mark.skipif(os.name != "posix", reason="Unix modes")
def test_the_real_path_above_a_symbolic_link_is_checked_too(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    (shared / "inner").mkdir(parents=True)
    shared.chmod(0o777)
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    (private / "link").symlink_to(shared / "inner")  # a private path that leads into a shared one
    cache.configure(directory=private / "link" / "ggn")
    try:
        assert_unusable(f"{shared}, above it, is writable by the group or others")
    finally:
        shared.chmod(0o700)
        cache.configure()


@pytest.mark.skipif(not ROOTED, reason="changing a file's owner needs root")
def test_a_directory_under_a_parent_of_another_user_is_not_used(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o755)
    os.chown(theirs, NOBODY, NOBODY)
    cache.configure(directory=theirs / "ggn")
    try:
        assert_unusable(f"{theirs}, above it, belongs to another user (uid {NOBODY})")
    finally:
        cache.configure()


def test_a_directory_holding_other_files_is_not_used(tmp_path: Path) -> None:
    documents = tmp_path / "documents"
    documents.mkdir(mode=0o700)
    (documents / "notes.txt").write_text("mine")
    (documents / "other-tool.ggnc").write_text("not the cache's")
    cache.configure(directory=documents)
    try:
        assert_unusable("it holds a file that is not the cache's")
        assert cache.clear() == 0
        assert sorted(os.listdir(documents)) == ["notes.txt", "other-tool.ggnc"]
        # Another tool's cache directory tag is not ggn's
        (documents / "notes.txt").unlink()
        (documents / "other-tool.ggnc").unlink()
        (documents / "CACHEDIR.TAG").write_bytes(b"Signature: 8a477f597d28d172789f06886806bc55\n# pip\n")
        cache.configure(directory=documents)
        assert_unusable("CACHEDIR.TAG")
    finally:
        cache.configure()


def test_a_new_empty_or_earlier_cache_directory_is_tagged_and_used(tmp_path: Path) -> None:
    made = tmp_path / "new" / "ggn"
    cache.configure(directory=made)
    try:
        assert cache.store("test", b"k", b"data")
        assert stat.S_IMODE(made.parent.stat().st_mode) == 0o700  # a missing parent made private
        tag = (made / "CACHEDIR.TAG").read_bytes()
        assert tag.startswith(b"Signature: 8a477f597d28d172789f06886806bc55\n") and b"ggn" in tag
        # A cache of an earlier version: only entries, no tag
        (made / "CACHEDIR.TAG").unlink()
        cache.configure(directory=made)
        assert cache.load("test", b"k") == b"data"
        assert (made / "CACHEDIR.TAG").read_bytes() == tag
        empty = tmp_path / "empty"
        empty.mkdir(mode=0o700)
        cache.configure(directory=empty)
        assert cache.store("test", b"k", b"data")
        assert sorted(os.listdir(empty)) == ["CACHEDIR.TAG", entries(empty)[0].name]
    finally:
        cache.configure()


def test_a_kind_that_is_not_a_name_is_refused(cache_dir: Path) -> None:
    for kind in ("../escape", "a/b", "", "Upper", "x" * 40):
        with pytest.raises(ValueError, match="kind"):
            cache.store(kind, b"k", b"data")
        with pytest.raises(ValueError, match="kind"):
            cache.load(kind, b"k")
    with pytest.raises(TypeError, match="kind must be a str"):
        cache.load(b"test", b"k")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="key must be bytes"):
        cache.load("test", "k")  # type: ignore[arg-type]
    assert not (cache_dir.parent / "escape").exists()


def test_clear_removes_the_caches_own_files_and_nothing_else(cache_dir: Path, tmp_path: Path) -> None:
    assert cache.store("test", b"k", b"data")
    assert cache.store("other", b"k", b"more")
    own = {file.name for file in entries(cache_dir)}
    real_hash = sorted(own)[0].rsplit("-", 1)[1]
    dead = cache_dir / ".tmp-dead0000.part"  # a writer that died mid-write
    dead.write_bytes(cache._FORMAT + b"half")
    foreign = {
        "notes.ggnc": b"someone's notes",  # the suffix alone
        "test-" + "0" * 40 + ".ggnc": b"GGNC\x01 but not a header of its name",  # the name alone
        "test-" + "1" * 40 + ".ggnc": cache._FORMAT + b"\x00" * 64,  # the mark, another key hash
        "test-" + real_hash[:-5] + ".ggnc.bak": (cache_dir / sorted(own)[0]).read_bytes(),  # another name
        ".tmp-abcdefgh.part": b"someone's temporary file",
        ".tmp-x": cache._FORMAT,
        "mine.txt": b"text",
    }
    for name, data in foreign.items():
        (cache_dir / name).write_bytes(data)
    planted = tmp_path / "planted.ggnc"
    planted.write_bytes((cache_dir / sorted(own)[0]).read_bytes())
    link = cache_dir / ("test-" + "2" * 40 + ".ggnc")
    link.symlink_to(planted)
    (cache_dir / ("dir-" + "3" * 40 + ".ggnc")).mkdir()
    assert cache.clear() == 3  # the two entries and the dead writer's file
    left = set(os.listdir(cache_dir))
    assert left == {*foreign, link.name, "dir-" + "3" * 40 + ".ggnc", "CACHEDIR.TAG"}
    for name, data in foreign.items():
        assert (cache_dir / name).read_bytes() == data
    assert planted.exists()
    assert cache.load("test", b"k") is None


def test_the_size_bound_removes_only_the_caches_own_entries(cache_dir: Path) -> None:
    cache.configure(directory=cache_dir, max_bytes=40_000)
    assert cache.store("test", b"first", b"data")
    theirs = cache_dir / ("test-" + "0" * 40 + ".ggnc")  # named as an entry, not one
    theirs.write_bytes(b"x" * 9_000)
    old = time.time() - 7200
    os.utime(theirs, (old, old))  # the oldest: first to go, were it the cache's
    for number in range(12):
        assert cache.store("test", b"%d" % number, os.urandom(4_000))
    assert theirs.read_bytes() == b"x" * 9_000
    assert len(entries(cache_dir)) < 12


# --- the files ---------------------------------------------------------------------------------


@pytest.mark.skipif(os.name != "posix", reason="Unix modes")
def test_a_file_writable_by_others_is_not_loaded(cache_dir: Path) -> None:
    assert cache.store("test", b"k", b"data")
    (file,) = entries(cache_dir)
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    for mode in (0o620, 0o602, 0o666):
        file.chmod(mode)
        assert cache.load("test", b"k") is None
    file.chmod(0o600)
    assert cache.load("test", b"k") == b"data"


@pytest.mark.skipif(os.name != "posix", reason="Unix symbolic links")
def test_a_symbolic_link_as_a_file_is_not_followed(cache_dir: Path, tmp_path: Path) -> None:
    assert cache.store("test", b"k", b"data")
    (file,) = entries(cache_dir)
    elsewhere = tmp_path / "planted"
    shutil.copy(file, elsewhere)  # a whole, valid entry: only the link is wrong
    elsewhere.chmod(0o600)
    file.unlink()
    file.symlink_to(elsewhere)
    assert cache.load("test", b"k") is None
    assert cache.store("test", b"k", b"new")  # replaced by a file of its own, the link gone
    assert not file.is_symlink()
    assert cache.load("test", b"k") == b"new"
    assert cache.load("test", b"k") == b"new"


@pytest.mark.skipif(os.name != "posix", reason="Unix named pipes")
def test_a_named_pipe_as_a_file_does_not_block(cache_dir: Path) -> None:
    assert cache.store("test", b"k", b"data")
    (file,) = entries(cache_dir)
    file.unlink()
    os.mkfifo(file, 0o600)
    assert cache.load("test", b"k") is None


@pytest.mark.parametrize(
    "damage",
    ["empty", "truncated", "header only", "flipped byte", "other format", "other key", "appended"],
)
def test_a_damaged_or_foreign_file_is_ignored_and_replaced(cache_dir: Path, damage: str) -> None:
    payload = bytes(range(256)) * 8
    assert cache.store("test", b"k", payload)
    assert cache.store("test", b"other", b"another entry's data")
    name = cache._entry("test", b"k")
    assert name is not None
    file = cache_dir / name[0]
    data = file.read_bytes()
    damaged = {
        "empty": b"",
        "truncated": data[: len(data) // 2],
        "header only": data[:cache._HEADER],
        "flipped byte": data[:-10] + bytes([data[-10] ^ 1]) + data[-9:],
        "other format": b"GGNC\x02" + data[5:],
        "other key": (cache_dir / cache._entry("test", b"other")[0]).read_bytes(),  # type: ignore[index]
        "appended": data + b"\0",
    }[damage]
    file.write_bytes(damaged)
    assert cache.load("test", b"k") is None
    assert cache.store("test", b"k", payload)
    assert cache.load("test", b"k") == payload


def test_damaged_entries_of_documents_and_code_are_made_again(cache_dir: Path) -> None:
    variant = registry.variant("chess")
    made = ruleset_of(variant)
    rules = VariantRules(variant, ruleset=made)
    position = rules.position()
    expected = sorted(made.moves(position), key=move_key)
    cache.flush()
    assert len(entries(cache_dir, "document", "moves")) == 2  # the document, the moves for its board
    for file in entries(cache_dir, "document", "moves"):
        data = bytearray(file.read_bytes())
        data[len(data) // 2] ^= 0xFF
        file.write_bytes(bytes(data))
    again = ruleset_of(variant)
    assert again == made
    assert sorted(CompiledRuleset(again, position._geometry).moves(position), key=move_key) == expected


# --- what is kept: documents ------------------------------------------------------------------


def test_pack_and_unpack_give_back_an_equal_ruleset() -> None:
    for name in ("chess", "shogi"):
        ruleset = Ruleset.from_value(build(registry.variant(name)))
        packed = pack(ruleset)
        again = unpack(packed)
        assert again == ruleset
        assert again.to_value() == ruleset.to_value()
        assert pack(again) == packed
        assert again.digest() == ruleset.digest()
    small = Ruleset.loads('{"C:R": {"a1": {"a2": [{"must": {"a2": "empty"}, "deny": {"b1": "C:+K^"}}, {}]}}, '
                          '"c:p": {"*": {"b2": [{"must": {"b2": "empty"}}]}}}')
    assert unpack(pack(small)) == small
    assert unpack(pack(small)).dumps() == small.dumps()
    for garbage in (b"", b"\x00", pack(small)[:-3], b"\xe9\x00\x00\x00\x00"):
        with pytest.raises(ValueError, match="packed ruleset"):
            unpack(garbage)
    import marshal  # noqa: PLC0415

    with pytest.raises(ValueError, match="version 7"):
        unpack(marshal.dumps((7, (), (), (), (), ())))
    with pytest.raises(ValueError, match="not a packed ruleset"):
        unpack(marshal.dumps((1, ("a1",), (), (), (), (("C:R", ((0, 1),)),))))
    with pytest.raises(ValueError, match="not a packed ruleset"):
        unpack(marshal.dumps((1, ("not a cell",), (), (), (), ())))


def test_a_ruleset_pickles_as_its_packed_form() -> None:
    ruleset = registry.rules("shogi").ruleset
    again = pickle.loads(pickle.dumps(ruleset))
    assert again == ruleset
    assert again.digest() == ruleset.digest()


def test_canonical_descriptions_do_not_depend_on_the_process() -> None:
    # Sets are written sorted: the text (the cache's key) is the same under any hash seed.
    code = ("from ggn.variants import registry; from ggn.variants.document import canonical; "
            "print(canonical(registry.variant('shogi')))")
    seen = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2")
    }
    assert seen == {canonical(registry.variant("shogi")) + "\n"}
    with pytest.raises(TypeError, match="no canonical form"):
        canonical(object())


def test_a_document_is_loaded_from_the_cache_not_built_again(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    variant = registry.variant("makruk")
    first = ruleset_of(variant)
    assert first == Ruleset.from_value(build(variant))
    built: list[object] = []
    original = Ruleset.from_value

    def spied(cls: type[Ruleset], value: Any) -> Ruleset:
        built.append(value)
        return original(value)

    monkeypatch.setattr(Ruleset, "from_value", classmethod(spied))
    second = ruleset_of(variant)
    assert built == []  # loaded, not validated again
    assert second == first
    assert second is not first
    monkeypatch.setenv("GGN_NO_CACHE", "1")
    ruleset_of(variant)
    assert len(built) == 1  # the cache off: made again


def test_the_built_in_games_names_and_descriptions_are_loaded_from_the_cache(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ggn.variants import ini  # noqa: PLC0415

    cold = registry._Builtins()
    names = tuple(cold.entries)
    made = {name: cold.entries[name].variant for name in ("chess", "shogi", "fischerandom")}
    assert {f.name.rsplit("-", 1)[0] for f in entries(cache_dir)} == {"builtin-names", "builtin-variant"}
    read: list[object] = []

    def refused(*args: Any, **kwargs: Any) -> Any:
        read.append(args)
        raise AssertionError("read again")

    monkeypatch.setattr(ini, "sections", refused)
    monkeypatch.setattr(ini, "resolve", refused)
    warm = registry._Builtins()
    assert tuple(warm.entries) == names
    assert {name: warm.entries[name].variant for name in made} == made
    assert read == []  # neither the file's sections nor a variant's options read again
    assert canonical(warm.entries["shogi"].variant) == canonical(made["shogi"])


class _Ran:
    """What a pickle of it does when loaded: make a directory (a stand-in for any code)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.mkdir, (str(self.marker),))


@pytest.mark.parametrize("planted", ["pickle", "code", "not a variant"])
def test_a_planted_built_in_description_runs_nothing_and_is_made_again(
    cache_dir: Path, tmp_path: Path, planted: str
) -> None:
    import marshal  # noqa: PLC0415

    builtins = registry._Builtins()
    made = builtins.entries["chess"].variant
    marker = tmp_path / "ran"
    payload = {
        "pickle": pickle.dumps(_Ran(marker)),
        "code": marshal.dumps(compile(f"import os; os.mkdir({str(marker)!r})", "planted", "exec")),
        "not a variant": marshal.dumps(("Variant", ("name", "chess"), ("nonsense", 1))),
    }[planted]
    key = f"chess\0{builtins._text}".encode()
    assert cache.store("builtin-variant", key, payload)  # a whole entry, as the user could write one
    assert cache.load("builtin-variant", key) == payload
    again = registry._Builtins().entries["chess"].variant
    assert not marker.exists()  # nothing it held was run
    assert again == made  # made again from builtin.ini
    assert cache.load("builtin-variant", key) != payload  # and kept in its place


def test_a_built_in_description_is_kept_as_plain_data(cache_dir: Path) -> None:
    import marshal  # noqa: PLC0415

    from ggn.variants.description import from_data, to_data  # noqa: PLC0415

    builtins = registry._Builtins()
    for name in ("chess", "shogi", "xiangqi", "berolina"):
        variant = builtins.entries[name].variant
        data = cache.load("builtin-variant", f"{name}\0{builtins._text}".encode())
        assert data is not None
        assert not data.startswith(b"\x80")  # not a pickle
        assert from_data(marshal.loads(data)) == variant
        assert from_data(to_data(variant)) == variant
    for bad in (None, (), ("t", [1]), ("Variant", ("name",)), ("PieceType", ("letter", "p")),
                ("Variant", ("name", "a"), ("name", "b")), ("os.system", ("command", "true")),
                ("t", (compile("1", "x", "eval"),))):
        with pytest.raises(ValueError, match="not a variant's data"):
            from_data(bad)
    with pytest.raises(TypeError):
        to_data("chess")  # type: ignore[arg-type]


def test_a_large_document_read_before_is_not_validated_again(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ggn.ruleset import CACHED_TEXT  # noqa: PLC0415

    text = Ruleset.from_value(build(registry.variant("xiangqi"))).dumps()
    assert len(text) >= CACHED_TEXT
    first = Ruleset.loads(text)
    validated: list[object] = []
    original = Ruleset._build

    def spied(cls: type[Ruleset], value: Any, out: Any) -> Any:
        validated.append(value)
        return original(value, out)

    monkeypatch.setattr(Ruleset, "_build", classmethod(spied))
    assert Ruleset.loads(text) == first  # the same text: loaded
    assert Ruleset.loads(text.encode()) == first  # bytes: another key, validated once ...
    assert Ruleset.loads(bytearray(text.encode())) == first  # ... then loaded
    assert len(validated) == 1
    small = '{"C:R": {"a1": {"a2": [{"must": {"a2": "empty"}}]}}}'
    Ruleset.loads(small)
    Ruleset.loads(small)
    assert len(validated) == 3  # a small document is validated each time, not kept
    broken = text[:-1]  # no closing brace: invalid, never kept
    for _ in range(2):
        with pytest.raises(DocumentError):
            Ruleset.loads(broken)
    assert len(entries(cache_dir, "ggn")) == 2


# --- what is kept: compiled code ---------------------------------------------------------------


@pytest.mark.parametrize("game", ["chess", "shogi", "crazyhouse"])
def test_code_loaded_from_the_cache_lists_what_plain_evaluation_lists(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    rules = registry.rules(game)
    ruleset = unpack(pack(rules.ruleset))  # a ruleset of its own: nothing compiled yet
    boards = game_positions(rules, 25, seed=11)
    made = [sorted(CompiledRuleset(ruleset, p._geometry).moves(p), key=move_key) for p in boards[:1]]
    first = CompiledRuleset(ruleset, boards[0]._geometry)
    fresh = [sorted(first.moves(p), key=move_key) for p in boards]
    assert fresh[:1] == made
    cache.flush()
    planned: list[object] = []
    original = compiled_module._plan

    def spied(*args: Any) -> Any:
        planned.append(args)
        return original(*args)

    monkeypatch.setattr(compiled_module, "_plan", spied)
    second = CompiledRuleset(unpack(pack(rules.ruleset)), boards[0]._geometry)
    for position, expected in zip(boards, fresh, strict=True):
        listed = sorted(second.moves(position), key=move_key)
        assert listed == expected
        assert listed == sorted(reference_moves(second.ruleset, position), key=move_key)
    assert planned == []  # every generator came from the cache


def test_the_interpreter_fallback_is_kept_and_keyed_by_the_budgets(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = registry.rules("shogi")
    boards = game_positions(rules, 20, seed=5)
    monkeypatch.setattr(compiled_module, "_MAX_NODES", 2)  # most trees fall back to the interpreter
    first = CompiledRuleset(unpack(pack(rules.ruleset)), boards[0]._geometry)
    expected = [sorted(first.moves(p), key=move_key) for p in boards]
    cache.flush()
    second = CompiledRuleset(unpack(pack(rules.ruleset)), boards[0]._geometry)
    assert [sorted(second.moves(p), key=move_key) for p in boards] == expected
    assert expected == [sorted(reference_moves(rules.ruleset, p), key=move_key) for p in boards]
    keys = {compiled_module._cache_key(first.ruleset, first.geometry)}
    monkeypatch.setattr(compiled_module, "_MAX_NODES", 4000)
    keys.add(compiled_module._cache_key(first.ruleset, first.geometry))
    assert len(keys) == 2  # other budgets, other code: another entry


def test_attack_tests_loaded_from_the_cache_count_what_fresh_ones_count(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    variant = registry.variant("shogi")
    first = VariantRules(variant)
    boards = game_positions(first, 20, seed=3)
    counts = [first.count(p) for p in boards]
    cache.flush()
    assert {f.name.split("-")[0] for f in entries(cache_dir)} == {"attacks", "document", "moves"}
    written: list[object] = []
    original = attacks_module.Tables._code

    def spied(*args: Any) -> Any:
        written.append(args)
        return original(*args)

    monkeypatch.setattr(attacks_module.Tables, "_code", spied)
    second = VariantRules(variant)
    assert [second.count(p) for p in boards] == counts
    assert written == []  # every test came from the cache
    assert [len(second.legal_moves(p)) for p in boards] == counts


def test_a_compiled_ruleset_pickles_as_its_ruleset_and_shape(cache_dir: Path) -> None:
    rules = registry.rules("chess")
    position = rules.position()
    form = rules.ruleset._compiled_for(position.shape, position._geometry)
    again = pickle.loads(pickle.dumps(form))
    assert isinstance(again, CompiledRuleset)
    assert again.geometry is Geometry(position.shape)
    assert sorted(again.moves(position), key=move_key) == sorted(form.moves(position), key=move_key)


# --- size -------------------------------------------------------------------------------------------


def test_the_cache_stays_within_its_bound_dropping_the_least_recently_used(cache_dir: Path) -> None:
    cache.configure(directory=cache_dir, max_bytes=40_000)
    blob = os.urandom(4_000)
    for number in range(8):
        assert cache.store("test", b"%d" % number, blob)
    files = entries(cache_dir)
    assert len(files) == 8
    old = time.time() - 7200
    for age, file in enumerate(files):
        os.utime(file, (old + age, old + age))
    kept_name = cache._entry("test", b"0")
    assert kept_name is not None
    assert cache.load("test", b"0") == blob  # used now: renewed (its time was over an hour old)
    for number in range(8, 14):
        assert cache.store("test", b"%d" % number, blob)
        assert sum(f.stat().st_size for f in entries(cache_dir)) <= 40_000
    assert cache.load("test", b"0") == blob  # the one used last is kept
    assert cache.load("test", b"13") == blob
    assert sum(cache.load("test", b"%d" % n) is None for n in range(1, 8)) >= 4
    assert not cache.store("test", b"huge", os.urandom(20_000))  # over a quarter of the bound


def test_temporary_files_of_dead_writers_are_removed(cache_dir: Path) -> None:
    assert cache.store("test", b"k", b"data")
    stale = cache_dir / ".tmp-dead0000.part"  # named as tempfile.mkstemp names them, as store writes
    fresh = cache_dir / ".tmp-writing0.part"
    stale.write_bytes(cache._FORMAT + b"half")
    fresh.write_bytes(cache._FORMAT + b"half")
    foreign = cache_dir / ".tmp-theirs.part"  # a name the cache does not write: not its own
    foreign.write_bytes(b"someone's")
    old = time.time() - 7200
    for file in (stale, foreign):
        os.utime(file, (old, old))
    assert cache.store("test", b"k2", b"data")
    assert not stale.exists()
    assert fresh.exists()  # maybe a writer at work
    assert foreign.read_bytes() == b"someone's"


def _value(number: int) -> tuple[str, int, bytes]:
    """The value the entry tests keep for the name ``("name", number)``: about 180 bytes."""
    return ("value", number, bytes([number % 251]) * 150)


@pytest.fixture
def small_entries(monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """Small bounds for :class:`cache.Entries`' files (head, part), 4 parts."""
    monkeypatch.setattr(cache, "_HEAD_BYTES", 4_000)
    monkeypatch.setattr(cache, "_PART_BYTES", 3_000)
    monkeypatch.setattr(cache, "_PARTS", 4)
    return 4_000, 3_000


def _files(key: bytes) -> dict[int, bytes | None]:
    """The data of each file of the entries ``("test", key)`` (-1: the head), None if missing."""
    return {number: cache.load("test", cache._part_key(key, number)) for number in range(-1, cache._PARTS)}


def _within(key: bytes, bounds: tuple[int, int]) -> bool:
    """Whether each file of the entries ``("test", key)`` is within its bound (head, part)."""
    return all(data is None or len(data) <= bounds[number >= 0] for number, data in _files(key).items())


def test_an_entry_past_its_bound_keeps_its_first_values_in_its_head_and_spreads_the_rest(
    cache_dir: Path, small_entries: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    head_bound, part_bound = small_entries
    saved = cache.Entries("test", b"k")
    for number in range(200):  # 187 bytes each, 36 KB: past the head and the four parts together (16 KB)
        saved.put(("name", number), _value(number))
    cache.flush()
    files = _files(b"k")
    head = files[-1]
    assert head is not None and head_bound - 200 < len(head) <= head_bound  # full, within its bound
    assert all(data is not None and part_bound - 200 < len(data) <= part_bound  # each part full too
               for number, data in files.items() if number >= 0)
    # The head holds the values put first, in order; each other kept value is in its name's part
    head_names = list(marshal.loads(head))
    assert head_names == [("name", n) for n in range(len(head_names))]
    for number, data in files.items():
        assert data is not None
        for name, raw in marshal.loads(data).items():
            assert number == -1 or cache._part_of(name) == number
            assert marshal.loads(raw) == _value(name[1])  # exactly what was put
    # A reader reads the head alone for the first values, one part for any other, each bounded
    read: list[int] = []
    original = cache.load

    def spied(kind: str, key: bytes) -> bytes | None:
        data = original(kind, key)
        read.append(-1 if data is None else len(data))
        return data

    monkeypatch.setattr(cache, "load", spied)
    again = cache.Entries("test", b"k")
    first = range(len(head_names))
    assert [again.get(("name", n)) for n in first] == [_value(n) for n in first]
    assert len(read) == 1 and read[0] <= head_bound
    found = {n: again.get(("name", n)) for n in range(200)}
    assert 1 + cache._PARTS >= len(read) > 1  # each file read once at most
    assert all(0 < size <= max(head_bound, part_bound) for size in read)
    kept = [n for n, value in found.items() if value is not None]
    assert all(found[n] == _value(n) for n in kept)
    assert 60 < len(kept) < 200  # the head's and the parts' (about 4 + 4 * 3 KB of 36 KB)
    assert again.get(("name", 1000)) is None
    # Saving more changes nothing kept: the head keeps the first values, full parts keep theirs
    # (each has less room left than a value takes, all values being of one size)
    later = cache.Entries("test", b"k")
    for number in range(200, 260):
        later.put(("name", number), _value(number))
    later.put(("name", 0), _value(0))  # the same value again
    cache.flush()
    assert _files(b"k") == files


def test_an_entry_reads_only_what_its_names_need_and_keeps_what_is_made_later(
    cache_dir: Path, small_entries: tuple[int, int]
) -> None:
    first = cache.Entries("test", b"k")
    for number in range(10):
        first.put(("name", number), _value(number))
    cache.flush()
    assert [data is not None for data in _files(b"k").values()] == [True] + [False] * cache._PARTS
    second = cache.Entries("test", b"k")
    assert second.get(("name", 3)) == _value(3)
    for number in range(10, 40):  # the head fills, then the parts
        assert second.get(("name", number)) is None
        second.put(("name", number), _value(number))
    third = cache.Entries("test", b"k")
    third.put(("name", 40), _value(40))  # two writers, one after the other: both kept
    cache.flush()
    reader = cache.Entries("test", b"k")
    assert [reader.get(("name", n)) for n in range(41)] == [_value(n) for n in range(41)]
    assert sum(data is not None for data in _files(b"k").values()) > 2


def test_a_large_value_is_kept_in_a_file_of_its_own_read_when_asked_for(
    cache_dir: Path, small_entries: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "_OWN_BYTES", 1_000)
    large = ("large", os.urandom(20_000))  # over the head's and a part's bounds: saved all the same
    saved = cache.Entries("test", b"k")
    saved.put(("name", 1), _value(1))
    saved.put(("large",), large)
    saved.put(("name", 2), _value(2))
    cache.flush()
    head = cache.load("test", b"k")
    assert head is not None and marshal.loads(head)[("large",)] == b""  # named in the head
    own = cache.load("test", cache._own_key(b"k", ("large",)))
    assert own is not None and marshal.loads(marshal.loads(own)[("large",)]) == large
    read: list[bytes] = []
    original = cache.load

    def spied(kind: str, key: bytes) -> bytes | None:
        read.append(key)
        return original(kind, key)

    monkeypatch.setattr(cache, "load", spied)
    again = cache.Entries("test", b"k")
    assert again.get(("name", 2)) == _value(2)
    assert read == [b"k"]  # the head alone
    assert again.get(("large",)) == large
    assert read == [b"k", cache._own_key(b"k", ("large",))]
    # Its file gone (the size bound removes files, not entries): made again and saved again
    for file in entries(cache_dir):
        if file.stat().st_size > 20_000:
            file.unlink()
    third = cache.Entries("test", b"k")
    assert third.get(("large",)) is None
    third.put(("large",), large)
    cache.flush()
    assert cache.Entries("test", b"k").get(("large",)) == large


def test_damaged_values_in_an_entry_are_made_again(cache_dir: Path) -> None:
    key = cache._part_key(b"k", -1)
    assert cache.store("test", key, marshal.dumps({("a",): b"not marshal", ("b",): marshal.dumps(2)}))
    saved = cache.Entries("test", b"k")
    assert saved.get(("a",)) is None
    assert saved.get(("b",)) == 2
    saved.put(("a",), 1)
    cache.flush()
    assert cache.Entries("test", b"k").get(("a",)) == 1
    assert cache.store("test", key, marshal.dumps({("a",): 1}))  # not a file an Entries writes
    assert cache.Entries("test", b"k").get(("a",)) is None


def test_a_grown_compiled_entry_keeps_the_start_positions_generators_in_its_head(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "_HEAD_BYTES", 40_000)  # chess's start position's take about 24 KB
    monkeypatch.setattr(cache, "_PART_BYTES", 30_000)
    monkeypatch.setattr(cache, "_PARTS", 8)
    rules = registry.rules("chess")
    with cache.off():  # the shared rule system's generators are not this test's to save
        boards = game_positions(rules, 120, seed=29)
    first = CompiledRuleset(unpack(pack(rules.ruleset)), boards[0]._geometry)
    expected = [sorted(first.moves(p), key=move_key) for p in boards]  # boards[0]: the start
    cache.flush()
    key = compiled_module._cache_key(first.ruleset, first.geometry)
    sizes = [len(data) for data in (cache.load("moves", cache._part_key(key, n)) for n in range(-1, 8))
             if data is not None]
    assert sum(sizes) > 100_000  # grown past the head and the parts
    assert sizes[0] <= 40_000 and max(sizes[1:]) <= 30_000
    read: list[bytes] = []
    planned: list[object] = []
    load, plan = cache.load, compiled_module._plan

    def loaded(kind: str, key: bytes) -> bytes | None:
        read.append(key)
        return load(kind, key)

    def spied(*args: Any) -> Any:
        planned.append(args)
        return plan(*args)

    monkeypatch.setattr(cache, "load", loaded)
    monkeypatch.setattr(compiled_module, "_plan", spied)
    second = CompiledRuleset(unpack(pack(rules.ruleset)), boards[0]._geometry)
    assert sorted(second.moves(boards[0]), key=move_key) == expected[0]
    assert read == [key] and planned == []  # the start position: from the head alone
    for position, listed in zip(boards, expected, strict=True):
        assert sorted(second.moves(position), key=move_key) == listed
        assert listed == sorted(reference_moves(second.ruleset, position), key=move_key)
    assert len(set(read)) == len(read) <= 9


# --- several at once ----------------------------------------------------------------------------------


def test_threads_storing_and_loading_one_entry_at_once(cache_dir: Path) -> None:
    payloads = [bytes([n]) * 50_000 for n in range(8)]
    seen: list[bytes | None] = []
    barrier = threading.Barrier(8)

    def work(n: int) -> None:
        barrier.wait()
        for _ in range(20):
            cache.store("test", b"k", payloads[n])
            seen.append(cache.load("test", b"k"))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(found in payloads for found in seen)  # whole entries only: one writer's or another's
    assert not list(cache_dir.glob(".tmp-*"))


_RACER = """
import sys
from ggn import cache
from ggn.rules import perft
from ggn.variants import registry
game, depth = sys.argv[1], int(sys.argv[2])
print(perft(registry.rules(game), depth))
cache.flush()
"""


def test_processes_filling_one_cache_at_once_agree(cache_dir: Path) -> None:
    env = {**os.environ, "GGN_CACHE_DIR": str(cache_dir)}
    env.pop("GGN_NO_CACHE", None)
    runs = [("makruk", "2", "529"), ("chess", "2", "400"), ("makruk", "2", "529"), ("chess", "2", "400")]
    for _ in range(2):  # cold: all fill it at once; warm: all read it (and some add to it)
        started = [subprocess.Popen([sys.executable, "-c", _RACER, game, depth], env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                   for game, depth, _ in runs]
        for process, (_, _, expected) in zip(started, runs, strict=True):
            out, err = process.communicate(timeout=120)
            assert (process.returncode, out.strip(), err) == (0, expected, "")
    # A document, its moves and its attack tests, each game
    assert len(entries(cache_dir, "document", "moves", "attacks")) == 6
    assert not list(cache_dir.glob(".tmp-*"))


def test_threads_using_and_saving_entries_at_once(cache_dir: Path, small_entries: tuple[int, int]) -> None:
    shared = cache.Entries("test", b"k")
    barrier = threading.Barrier(6)
    wrong: list[object] = []

    def work(n: int) -> None:
        own = cache.Entries("test", b"k")  # as another process's would be
        barrier.wait()
        for number in range(n, 300, 3):
            for entries_ in (shared, own):
                found = entries_.get(("name", number))
                if found is None:
                    entries_.put(("name", number), _value(number))
                elif found != _value(number):
                    wrong.append(found)
            if number % 20 == 0:
                own.save()
                shared.save()
        own.save()

    threads = [threading.Thread(target=work, args=(n % 3,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    cache.flush()
    assert wrong == []
    assert _within(b"k", small_entries)
    reader = cache.Entries("test", b"k")
    found = [reader.get(("name", n)) for n in range(300)]
    assert all(value is None or value == _value(n) for n, value in enumerate(found))
    assert sum(value is not None for value in found) >= 20  # some, whichever writer won each file
    assert not list(cache_dir.glob(".tmp-*"))


_FILLER = """
import sys
from ggn import cache
cache._HEAD_BYTES, cache._PART_BYTES, cache._PARTS = 4_000, 3_000, 4
first = int(sys.argv[1])
saved = cache.Entries("test", b"k")
for number in [*range(20), *range(first, first + 60)]:
    if saved.get(("name", number)) is None:
        saved.put(("name", number), ("value", number, bytes([number % 251]) * 150))
cache.flush()
"""


def test_processes_saving_one_entry_at_once_leave_whole_bounded_files(
    cache_dir: Path, small_entries: tuple[int, int]
) -> None:
    env = {**os.environ, "GGN_CACHE_DIR": str(cache_dir)}
    env.pop("GGN_NO_CACHE", None)
    for round_ in range(2):
        started = [subprocess.Popen([sys.executable, "-c", _FILLER, str(100 * (n + 1) + round_)], env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                   for n in range(4)]
        for process in started:
            assert process.communicate(timeout=120) == ("", "") and process.returncode == 0
    assert _files(b"k")[-1] is not None  # whole (its hash holds)
    assert _within(b"k", small_entries)
    reader = cache.Entries("test", b"k")
    found = {n: reader.get(("name", n)) for n in range(600)}
    assert all(value is None or value == _value(n) for n, value in found.items())
    assert sum(value is not None for value in found.values()) >= 20
    assert not list(cache_dir.glob(".tmp-*"))


# --- the command line -------------------------------------------------------------------------------


def _ggn(cache_dir: Path, *arguments: str, **extra: str) -> str:
    env = {**os.environ, "GGN_CACHE_DIR": str(cache_dir), **extra}
    if "GGN_NO_CACHE" not in extra:
        env.pop("GGN_NO_CACHE", None)
    done = subprocess.run([sys.executable, "-m", "ggn", *arguments], env=env, capture_output=True,
                          text=True, check=False, timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout


def test_the_command_line_reads_and_writes_the_cache_unless_told_not_to(cache_dir: Path) -> None:
    off = _ggn(cache_dir, "--no-cache", "perft", "makruk", "2", "--divide")
    assert not cache_dir.exists() or entries(cache_dir) == []  # nothing read, nothing written
    assert _ggn(cache_dir, "perft", "makruk", "2", "--divide", GGN_NO_CACHE="1") == off
    assert not cache_dir.exists() or entries(cache_dir) == []
    assert _ggn(cache_dir, "perft", "makruk", "2", "--divide") == off  # cold: made and kept
    assert len(entries(cache_dir, "document", "moves", "attacks")) == 3
    assert len(entries(cache_dir, "builtin-names", "builtin-variant")) == 2
    assert _ggn(cache_dir, "perft", "makruk", "2", "--divide") == off  # warm: loaded
    moves = _ggn(cache_dir, "moves", "chess")
    assert _ggn(cache_dir, "moves", "chess") == moves == _ggn(cache_dir, "--no-cache", "moves", "chess")
    assert len(moves.splitlines()) == 20


def test_the_no_cache_option_turns_the_cache_off_for_one_run_in_process(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io  # noqa: PLC0415

    from ggn.cli import run  # noqa: PLC0415

    ini = tmp_path / "mine.ini"
    ini.write_text("[tinychess:chess]\nmaxRank = 6\n"
                   "startFen = rnbqkbnr/pppppppp/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n")
    seen: list[bool] = []
    original = cache.load

    def spied(kind: str, key: bytes) -> bytes | None:
        seen.append(cache.enabled())
        return original(kind, key)

    monkeypatch.setattr(cache, "load", spied)
    out = io.StringIO()
    assert run(["--no-cache", "perft", "tinychess", "1", "--ini", str(ini)], out, io.StringIO()) == 0
    # The document (and the kernel's tables, where it runs) were asked for with the cache off.
    assert seen and not any(seen)
    first = len(seen)
    assert cache.enabled()  # and it is on again after the run
    assert run(["perft", "tinychess", "1", "--ini", str(ini)], out, io.StringIO()) == 0
    assert seen[first:] and all(seen[first:])
    assert out.getvalue() == "20\n20\n"
    cache.flush()
    assert entries(cache_dir)  # the second run's, not the first's
