#!/usr/bin/env python3
"""How the strength levels choose: the centipawns each `UCI_Elo` level loses per move on
the bench positions, as docs/strength/README.md's table of levels shows them.

Each level (`UCI_LimitStrength` true, `UCI_Elo` the level, `Strength Seed` fixed so that
a run repeats) plays one move from each of the 49 bench positions other than the start
(`src/bench.rs`: sharp, mostly tactical positions, so the losses run high), once for each
seed, on a 10+0.1 clock (`go wtime 10000 btime 10000 winc 100 binc 100`, as early in a
10+0.1 game). A judge, Tabas at full strength with a fixed node count, scores the
position and the position after the move; the loss is the difference, capped at
`--cap` (a blunder into mate is one blunder). Prints one Markdown row per level: the
average and median loss, and the share of moves losing 100 cp or more and 300 cp or
more. Needs python-chess (`../shared/tools/install-opponents.sh` installs it); one core,
a few minutes:

    python3 tests/scripts/level_losses.py --engine target/release/tabas
"""

import argparse
import os
import re
import statistics
import sys

import chess
import chess.engine

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
CLOCK = chess.engine.Limit(white_clock=10, black_clock=10, white_inc=0.1, black_inc=0.1)


def bench_positions():
    """The FENs of `POSITIONS` in src/bench.rs, the start position left out."""
    with open(os.path.join(REPO, "src", "bench.rs"), encoding="utf-8") as f:
        text = f.read()
    block = text[text.index("pub const POSITIONS"):]
    block = block[:block.index("];")]
    fens = re.findall(r'"([^"]+)"', block)
    return [fen for fen in fens if fen != chess.STARTING_FEN]


def white_cp(score, mate_cp=10_000):
    """A PovScore as centipawns from White's point of view."""
    return score.white().score(mate_score=mate_cp)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default=os.path.join(REPO, "target", "release", "tabas"))
    parser.add_argument("--levels", default=None,
                        help="UCI_Elo values, comma-separated (default: five across the range)")
    parser.add_argument("--seeds", type=int, default=2, help="Strength Seed 1..N per position")
    parser.add_argument("--judge-nodes", type=int, default=100_000)
    parser.add_argument("--cap", type=int, default=1_000)
    args = parser.parse_args()

    # `--dev` lists `Strength Seed`, which python-chess sets only if listed.
    player = chess.engine.SimpleEngine.popen_uci([args.engine, "--dev"])
    judge = chess.engine.SimpleEngine.popen_uci(args.engine)
    elo = player.options["UCI_Elo"]
    if args.levels:
        levels = [int(x) for x in args.levels.split(",")]
    else:
        step = (elo.max - elo.min) / 4
        levels = [round(elo.min + i * step) for i in range(5)]
    judged = {}

    def judge_score(board):
        """The judge's score of `board` in centipawns from White's point of view (cached)."""
        key = board.fen()
        if key not in judged:
            if board.is_checkmate():
                cp = -10_000 if board.turn == chess.WHITE else 10_000
            elif board.is_stalemate() or board.is_insufficient_material():
                cp = 0
            else:
                judge.configure({"Clear Hash": None})
                info = judge.analyse(board, chess.engine.Limit(nodes=args.judge_nodes))
                cp = white_cp(info["score"])
            judged[key] = cp
        return judged[key]

    fens = bench_positions()
    print(f"{len(fens)} positions, {args.seeds} seeds, judge {args.judge_nodes} nodes, "
          f"{player.id.get('name')}", file=sys.stderr)
    print("| `UCI_Elo` | average loss | median loss | loss ≥ 100 cp | loss ≥ 300 cp |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for level in levels:
        player.configure({"UCI_LimitStrength": True, "UCI_Elo": level})
        losses = []
        for fen in fens:
            board = chess.Board(fen)
            sign = 1 if board.turn == chess.WHITE else -1
            before = sign * judge_score(board)
            for seed in range(1, args.seeds + 1):
                player.configure({"Strength Seed": seed, "Clear Hash": None})
                move = player.play(board, CLOCK).move
                after_board = board.copy()
                after_board.push(move)
                after = sign * judge_score(after_board)
                losses.append(max(0, min(args.cap, before - after)))
        n = len(losses)
        print(f"| {level} | {sum(losses) / n:.0f} cp | {statistics.median(losses):.0f} cp "
              f"| {100 * sum(l >= 100 for l in losses) / n:.0f} % "
              f"| {100 * sum(l >= 300 for l in losses) / n:.0f} % |", flush=True)
    player.quit()
    judge.quit()


if __name__ == "__main__":
    main()
