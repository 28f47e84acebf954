"""Tabas against itself through python-chess, with pondering: the way a python-chess
user (or lichess-bot) plays it. Run by tests/python_chess.rs; by hand:

    python3 tests/python/ponder_games.py target/release/tabas [games]

For each move, `engine.play(board, Limit(white_clock=..., ...), ponder=True)`: after
its move the engine ponders on the reply it expects, and python-chess sends
`ponderhit` when that reply is played, `stop` when it is not. Checks: every move is
legal, every ponder move is legal after it, no clock runs out (clocks kept here, from
the wall time of each call), python-chess logs no warning about the engine's output,
and the engines did ponder (their Debug Log Files show `go ponder`). Prints the hits
and misses. Exit status 1 on any failure.
"""

import logging
import os
import sys
import tempfile
import time

import chess
import chess.engine

from checks import Warnings, fail, fail_on_warnings

START_CLOCK = 2.0
INCREMENT = 0.05
MAX_PLIES = 40


def play_game(paths, logs):
    engines = [chess.engine.SimpleEngine.popen_uci(paths[i]) for i in range(2)]
    try:
        for engine, log in zip(engines, logs):
            engine.configure({"Debug Log File": log})
        board = chess.Board()
        clocks = {chess.WHITE: START_CLOCK, chess.BLACK: START_CLOCK}
        while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
            engine = engines[0 if board.turn == chess.WHITE else 1]
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE],
                black_clock=clocks[chess.BLACK],
                white_inc=INCREMENT,
                black_inc=INCREMENT,
            )
            started = time.perf_counter()
            result = engine.play(board, limit, ponder=True)
            used = time.perf_counter() - started
            clocks[board.turn] -= used
            if clocks[board.turn] < 0:
                fail(f"{chess.COLOR_NAMES[board.turn]} lost on time at ply {board.ply()}")
            clocks[board.turn] += INCREMENT
            if result.move is None or result.move not in board.legal_moves:
                fail(f"illegal move {result.move} in {board.fen()}")
            board.push(result.move)
            if result.ponder is not None and result.ponder not in board.legal_moves:
                fail(f"illegal ponder move {result.ponder} in {board.fen()}")
        return board, clocks
    finally:
        for engine in engines:
            engine.quit()


def main():
    if len(sys.argv) < 2:
        fail("usage: ponder_games.py TABAS [games]")
    path = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    warnings = Warnings()
    logging.getLogger("chess.engine").addHandler(warnings)
    print(f"python-chess {chess.__version__}")
    with tempfile.TemporaryDirectory() as folder:
        logs = [os.path.join(folder, f"engine-{i}.log") for i in range(2)]
        for game in range(games):
            board, clocks = play_game([path, path], logs)
            print(
                f"game {game + 1}: {board.ply()} plies, {board.result(claim_draw=True)}, "
                f"clocks left {clocks[chess.WHITE]:.2f} s / {clocks[chess.BLACK]:.2f} s"
            )
        ponders = hits = 0
        for log in logs:
            with open(log, encoding="utf-8") as f:
                for line in f:
                    ponders += " >> go ponder " in line
                    hits += line.rstrip("\n").endswith(" >> ponderhit")
    print(f"go ponder: {ponders}, ponderhit: {hits}, missed: {ponders - hits}")
    fail_on_warnings(warnings)
    if ponders == 0:
        fail("the engines never pondered")
    print("ok")


if __name__ == "__main__":
    main()
