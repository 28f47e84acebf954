"""Tabas as an analysis engine through python-chess: the calls a GUI-like script makes.
Run by tests/python_chess.rs; by hand:

    python3 tests/python/analysis.py target/release/tabas

Checks:
* `engine.analyse(board, Limit(depth=8), multipv=3)` gives three lines, best first,
  with distinct legal first moves, each line's PV legal move by move;
* with `UCI_ShowWDL`, python-chess reads `wdl` (three chances summing to 1000) and
  the score (with its bound flags) of every info;
* `Threads` 2: `engine.play` returns a legal move and `nodes` is read;
* after checkmate `engine.play(...).move` is None (`bestmove (none)`);
* python-chess logs no warning about the engine's output.
Exit status 1 on any failure.
"""

import logging
import sys

import chess
import chess.engine

from checks import Warnings, fail, fail_on_warnings


def main():
    warnings = Warnings()
    logging.getLogger("chess.engine").addHandler(warnings)
    engine = chess.engine.SimpleEngine.popen_uci(sys.argv[1])
    try:
        board = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        infos = engine.analyse(board, chess.engine.Limit(depth=8), multipv=3)
        if len(infos) != 3:
            fail(f"multipv=3 gave {len(infos)} lines")
        firsts = [i["pv"][0] for i in infos]
        if len(set(firsts)) != 3:
            fail(f"lines share a first move: {firsts}")
        scores = [i["score"].relative.score(mate_score=100000) for i in infos]
        if scores != sorted(scores, reverse=True):
            fail(f"lines not best first: {scores}")
        for i in infos:
            b = board.copy()
            for m in i["pv"]:
                if m not in b.legal_moves:
                    fail(f"illegal PV move {m} in {i['pv']}")
                b.push(m)
        print("multipv:", [(str(i["pv"][0]), str(i["score"].relative)) for i in infos])

        engine.configure({"UCI_ShowWDL": True})
        with engine.analysis(board, chess.engine.Limit(depth=7)) as analysis:
            seen = 0
            for info in analysis:
                if "score" in info:
                    if "wdl" not in info:
                        fail(f"no wdl with the score: {info}")
                    w = info["wdl"].relative
                    if w.wins + w.draws + w.losses != 1000:
                        fail(f"wdl does not sum to 1000: {w}")
                    seen += 1
            if seen == 0:
                fail("no info with a score")
        print("wdl lines read:", seen)

        engine.configure({"Threads": 2, "UCI_ShowWDL": False})
        result = engine.play(board, chess.engine.Limit(depth=9), info=chess.engine.INFO_ALL)
        if result.move not in board.legal_moves:
            fail(f"Threads 2: illegal move {result.move}")
        if not result.info.get("nodes"):
            fail(f"Threads 2: no nodes in {result.info}")
        print("threads 2:", result.move, result.info.get("nodes"), "nodes")

        mated = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
        result = engine.play(mated, chess.engine.Limit(depth=3))
        if result.move is not None:
            fail(f"checkmated: got {result.move!r}, expected None")
    finally:
        engine.quit()
    fail_on_warnings(warnings)
    print("ok")


if __name__ == "__main__":
    main()
