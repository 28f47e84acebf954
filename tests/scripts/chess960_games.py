#!/usr/bin/env python3
"""Chess960 games between two UCI engines, checked move by move by python-chess.

../shared/tools/match.py plays standard chess only, so Chess960 is checked here:
each start position of the EPD file is played twice (colours reversed) with a
clock; python-chess sets UCI_Chess960 (the board is a Chess960 board), sends
king-takes-rook castling and refuses any illegal move. Faults are counted per
engine: illegal moves, crashes (engine died or protocol error), time forfeits.

  python3 tests/scripts/chess960_games.py ENGINE_A ENGINE_B \
      --openings ../shared/data/openings/FRC_openings.epd --games 200 --tc 2+0.02 --concurrency 2

The last line is a JSON summary. Exit status 1 if any fault happened.
"""
import argparse, json, multiprocessing as mp, random, time
import chess, chess.engine

def play_one(args):
    (idx, fen, white, black, base, inc, margin) = args
    board = chess.Board(fen, chess960=True)
    engines = {}
    faults = {white: {"illegal": 0, "crash": 0, "time": 0}, black: {"illegal": 0, "crash": 0, "time": 0}}
    clocks = {chess.WHITE: base, chess.BLACK: base}
    names = {chess.WHITE: white, chess.BLACK: black}
    result = None
    castles = 0
    try:
        for side in (chess.WHITE, chess.BLACK):
            engines[side] = chess.engine.SimpleEngine.popen_uci(names[side])
        while not board.is_game_over(claim_draw=True) and board.ply() < 400:
            side = board.turn
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                       white_inc=inc, black_inc=inc)
            t = time.monotonic()
            try:
                r = engines[side].play(board, limit, game=idx)
            except chess.engine.EngineError as e:
                faults[names[side]]["illegal" if "illegal" in str(e).lower() else "crash"] += 1
                result = "0-1" if side == chess.WHITE else "1-0"
                break
            except chess.engine.EngineTerminatedError:
                faults[names[side]]["crash"] += 1
                result = "0-1" if side == chess.WHITE else "1-0"
                break
            spent = time.monotonic() - t
            clocks[side] -= spent
            if clocks[side] < -margin:
                faults[names[side]]["time"] += 1
                result = "0-1" if side == chess.WHITE else "1-0"
                break
            clocks[side] += inc
            if r.move is None or r.move not in board.legal_moves:
                faults[names[side]]["illegal"] += 1
                result = "0-1" if side == chess.WHITE else "1-0"
                break
            castles += board.is_castling(r.move)
            board.push(r.move)
        if result is None:
            result = board.result(claim_draw=True)
            if result == "*":
                result = "1/2-1/2"
    finally:
        for e in engines.values():
            try:
                e.quit()
            except Exception:
                pass
    return idx, white, black, result, board.ply(), castles, faults

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine_a"); ap.add_argument("engine_b")
    ap.add_argument("--openings", required=True)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--seed", type=int, default=960)
    ap.add_argument("--margin", type=float, default=0.1, help="seconds an engine may overrun its clock")
    a = ap.parse_args()
    base, inc = (float(x) for x in a.tc.split("+"))
    fens = [l.split(" ; ")[0].strip() for l in open(a.openings) if l.strip()]
    fens = [" ".join(f.split()[:4]) + " 0 1" if len(f.split()) == 4 else f for f in fens]
    random.Random(a.seed).shuffle(fens)
    jobs = []
    for g in range(a.games):
        fen = fens[(g // 2) % len(fens)]
        w, b = (a.engine_a, a.engine_b) if g % 2 == 0 else (a.engine_b, a.engine_a)
        jobs.append((g, fen, w, b, base, inc, a.margin))
    score = {a.engine_a: 0.0, a.engine_b: 0.0}
    faults = {a.engine_a: {"illegal": 0, "crash": 0, "time": 0}, a.engine_b: {"illegal": 0, "crash": 0, "time": 0}}
    wdl = [0, 0, 0]
    castles = 0
    with mp.Pool(a.concurrency) as pool:
        for idx, w, b, res, plies, c, f in pool.imap_unordered(play_one, jobs):
            castles += c
            pts = {"1-0": 1.0, "0-1": 0.0}.get(res, 0.5)
            score[w] += pts; score[b] += 1 - pts
            mine = pts if w == a.engine_a else 1 - pts
            wdl[{1.0: 0, 0.5: 1, 0.0: 2}[mine]] += 1
            for name in f:
                for k in f[name]:
                    faults[name][k] += f[name][k]
            print(f"game {idx + 1}: {w} vs {b} {res} ({plies} plies, {c} castling)", flush=True)
    summary = {"games": a.games, "tc": a.tc, "a": a.engine_a, "b": a.engine_b,
               "a_wdl": wdl, "score_a": score[a.engine_a], "castling_moves": castles,
               "faults": faults}
    print(json.dumps(summary))
    raise SystemExit(1 if any(v for f in faults.values() for v in f.values()) else 0)

if __name__ == "__main__":
    main()
