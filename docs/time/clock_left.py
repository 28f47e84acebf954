#!/usr/bin/env python3
"""Clock left at the end of each game, from a match.py PGN (its move comments carry
each move's time). Usage: clock_left.py GAMES.pgn [--engine NAME] [--after-move N]

Prints, per engine, the distribution of the clock left when the game ended (percent of
the starting clock) over all games, and over the games that lasted beyond move N
(default 60). The clock is replayed as match.py keeps it: minus the move's time, plus
the increment, plus the base again at each new period (moves-to-go controls)."""
import argparse
import re
import statistics
import sys

import chess.pgn

TC = re.compile(r"^(?:(\d+)/)?([\d.]+)(?:\+([\d.]+))?$")
ELAPSED = re.compile(r"([\d.]+)s\b")


def replay(game):
    """Clock left (seconds) per colour at the end, the base, and the last full move."""
    moves_per_period, base, inc = TC.match(game.headers["TimeControl"]).groups()
    base, inc = float(base), float(inc or 0)
    period = int(moves_per_period) if moves_per_period else None
    clock = {chess.WHITE: base, chess.BLACK: base}
    made = {chess.WHITE: 0, chess.BLACK: 0}
    board = game.board()
    for node in game.mainline():
        mover = board.turn
        m = ELAPSED.search(node.comment or "")
        if m:  # book moves have no comment and cost no time
            clock[mover] = max(0.0, clock[mover] - float(m.group(1))) + inc
            made[mover] += 1
            if period and made[mover] % period == 0:
                clock[mover] += base
        board.push(node.move)
    return clock, base, board.fullmove_number


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn")
    ap.add_argument("--engine", help="only this engine (default: every engine)")
    ap.add_argument("--after-move", type=int, default=60)
    args = ap.parse_args()
    left = {}  # engine -> [(percent, fullmoves)]
    with open(args.pgn) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            clock, base, moves = replay(game)
            for colour, tag in ((chess.WHITE, "White"), (chess.BLACK, "Black")):
                name = game.headers[tag]
                left.setdefault(name, []).append((100 * clock[colour] / base, moves))
    for name, values in sorted(left.items()):
        if args.engine and name != args.engine:
            continue
        for label, sel in (("all games", values),
                           (f"games beyond move {args.after_move}",
                            [v for v in values if v[1] > args.after_move])):
            pcts = sorted(p for p, _ in sel)
            if not pcts:
                print(f"{name:16} {label:24} n    0")
                continue
            q = statistics.quantiles(pcts, n=4) if len(pcts) > 1 else [pcts[0]] * 3
            print(f"{name:16} {label:24} n {len(pcts):4}  min {pcts[0]:6.1f}%  "
                  f"q1 {q[0]:6.1f}%  median {q[1]:6.1f}%  q3 {q[2]:6.1f}%  max {pcts[-1]:6.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
