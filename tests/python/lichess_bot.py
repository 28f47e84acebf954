"""Tabas driven the way lichess-bot's engine wrapper drives a UCI engine, through
python-chess, with the `uci_options` block the README recommends (its lichess-bot section). Run by
tests/python_chess.rs; by hand:

    python3 tests/python/lichess_bot.py target/release/tabas [games] [syzygy folder]

What lichess-bot does, and this script with it (lib/engine_wrapper.py of lichess-bot):
- one engine process per game and side, configured with `uci_options` (Threads, Hash,
  Move Overhead, UCI_ShowWDL, SyzygyPath when given); python-chess sets `Ponder` itself;
- the first move of each side: `Limit(time=...)` (a `go movetime`; lichess-bot uses
  10 s, here FIRST_MOVE_TIME to keep the test short) and no pondering;
- every later move: `Limit(white_clock, black_clock, white_inc, black_inc)` with the
  bot's own clock reduced by lichess-bot's `move_overhead`, `info=INFO_ALL`,
  `ponder=True`, `draw_offered` from the game state;
- the score of every move (`result.info["score"]`) read for resigning and draw offers.

Checks: every move and ponder move legal, a score and a WDL with every engine move, no
clock below zero (the clocks kept here, charged the wall time of each call plus a
simulated network delay), python-chess logs no warning, the engines pondered. Exit
status 1 on any failure.
"""

import logging
import sys
import time

import chess
import chess.engine

from checks import Warnings, fail, fail_on_warnings

# The block of the README's lichess-bot section (Threads 1 here: the test runs two engines).
UCI_OPTIONS = {"Threads": 1, "Hash": 16, "Move Overhead": 100, "UCI_ShowWDL": True}
# lichess-bot's own `move_overhead` (ms), taken off the bot's clock before each `go`.
BOT_MOVE_OVERHEAD = 0.2
# What the network takes between the engine's move and the server's clock (simulated).
NETWORK_DELAY = 0.05
START_CLOCK = 3.0
INCREMENT = 0.1
FIRST_MOVE_TIME = 0.3
MAX_PLIES = 36


def play_game(path, syzygy):
    options = dict(UCI_OPTIONS)
    if syzygy:
        options["SyzygyPath"] = syzygy
    engines = {}
    for color in (chess.WHITE, chess.BLACK):
        engine = chess.engine.SimpleEngine.popen_uci(path)
        engine.configure(options)
        engines[color] = engine
    stats = {"ponder": 0, "moves": 0}
    try:
        board = chess.Board()
        clocks = {chess.WHITE: START_CLOCK, chess.BLACK: START_CLOCK}
        while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
            us = board.turn
            if len(board.move_stack) < 2:
                limit, ponder = chess.engine.Limit(time=FIRST_MOVE_TIME), False
            else:
                own = max(0.001, clocks[us] - BOT_MOVE_OVERHEAD)
                limit = chess.engine.Limit(
                    white_clock=own if us == chess.WHITE else clocks[chess.WHITE],
                    black_clock=own if us == chess.BLACK else clocks[chess.BLACK],
                    white_inc=INCREMENT,
                    black_inc=INCREMENT,
                )
                ponder = True
            started = time.perf_counter()
            result = engines[us].play(
                board,
                limit,
                info=chess.engine.INFO_ALL,
                ponder=ponder,
                draw_offered=False,
            )
            used = time.perf_counter() - started + NETWORK_DELAY
            if len(board.move_stack) >= 2:
                clocks[us] -= used
                if clocks[us] < 0:
                    fail(f"{chess.COLOR_NAMES[us]} lost on time at ply {board.ply()}")
                clocks[us] += INCREMENT
            if result.move is None or result.move not in board.legal_moves:
                fail(f"illegal move {result.move} in {board.fen()}")
            if "score" not in result.info:
                fail(f"no score with the move {result.move} in {board.fen()}")
            if "wdl" not in result.info:
                fail(f"no WDL with UCI_ShowWDL on, move {result.move} in {board.fen()}")
            board.push(result.move)
            stats["moves"] += 1
            stats["ponder"] += ponder and result.ponder is not None
            if result.ponder is not None and result.ponder not in board.legal_moves:
                fail(f"illegal ponder move {result.ponder} in {board.fen()}")
        return board, clocks, stats
    finally:
        for engine in engines.values():
            engine.quit()


def main():
    if len(sys.argv) < 2:
        fail("usage: lichess_bot.py TABAS [games] [syzygy folder]")
    path = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    syzygy = sys.argv[3] if len(sys.argv) > 3 else None
    warnings = Warnings()
    logging.getLogger("chess.engine").addHandler(warnings)
    print(f"python-chess {chess.__version__}")
    pondered = 0
    for game in range(games):
        board, clocks, stats = play_game(path, syzygy)
        pondered += stats["ponder"]
        print(
            f"game {game + 1}: {board.ply()} plies, {board.result(claim_draw=True)}, "
            f"clocks left {clocks[chess.WHITE]:.2f} s / {clocks[chess.BLACK]:.2f} s, "
            f"{stats['ponder']} moves with a ponder move"
        )
    fail_on_warnings(warnings)
    if pondered == 0:
        fail("no move came with a ponder move: nothing was pondered")
    print("ok")


if __name__ == "__main__":
    main()
