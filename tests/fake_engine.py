#!/usr/bin/env python3
"""A fake UCI engine for the tests of ggn.engine and ``ggn analyse``: it speaks UCI until its
mode tells it to misbehave.

The mode is its first argument, else the name it is run under (a symbolic link called ``hang``
runs it in the mode ``hang``), else ``good``: ``good`` answers every search with e2e4;
``silent`` writes nothing; ``garbage`` writes lines of garbage for ever; ``huge`` writes a line
of 10 MB; ``unread`` reads nothing; ``exit`` exits during the handshake (status 3, a word on
standard error); ``hang`` never ends a search (nor answers stop); ``die`` exits in a search
(status 5); ``illegal`` names the move z9z9; ``stubborn`` ignores quit and the end of its input.
It needs only Python's standard library, so that any python3 runs it.
"""

import os
import sys
import time

MODES = ("good", "silent", "garbage", "huge", "unread", "exit", "hang", "die", "illegal", "stubborn")


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main() -> None:
    named = os.path.basename(sys.argv[0])
    mode = sys.argv[1] if len(sys.argv) > 1 else named if named in MODES else "good"
    if mode == "exit":
        sys.stderr.write("fake: cannot load my network\n")
        sys.exit(3)
    if mode in ("silent", "unread"):
        time.sleep(60)
    if mode == "garbage":
        while True:
            say("\x00\xff garbage " * 3)
    if mode == "huge":
        sys.stdout.write("x" * 10_000_000)
        sys.stdout.flush()
        time.sleep(60)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            say("id name Fake " + mode)
            say("option name Hash type spin default 16 min 1 max 1024")
            say("option name Style type combo default Solid var Solid var Risky")
            say("uciok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "go":
            if mode == "hang":
                continue  # no bestmove, and no answer to stop
            if mode == "die":
                os._exit(5)
            say("info depth 1 score cp 12 pv e2e4 e7e5")
            say("info depth 2 score bogus 7 nodes x pv e2e4 e7e5 zz")
            say("info depth 3 multipv 2 score cp -99 pv d2d4")
            say("bestmove " + ("z9z9" if mode == "illegal" else "e2e4") + " ponder e7e5")
        elif words[0] == "quit":
            if mode == "stubborn":
                continue
            break
    if mode == "stubborn":  # not even the end of its input ends it
        time.sleep(60)


if __name__ == "__main__":
    main()
