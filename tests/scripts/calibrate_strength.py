#!/usr/bin/env python3
"""Calibrates Tabas's strength levels (`UCI_LimitStrength`, `UCI_Elo`) against opponents
of known strength, and writes what each level measured as a CSV and an SVG plot.

The scale is that of Stockfish 15.1's own `UCI_Elo` (1350..2850), which its authors
calibrated at 60+0.6 and anchored to CCRL 40/4 (at faster controls a limited Stockfish
may play below its nominal Elo: hence a subset of the games at 60+0.6, and the pool as a
cross-check). Each Tabas level plays a gauntlet against Stockfish 15.1 with
`UCI_LimitStrength` at the `UCI_Elo` values around it (by default the three nearest of
`--sf-grid`), through `../shared/tools/match.py` (colour-reversed pairs from
8moves_v3.pgn, one thread and 16 MB each). With `--pool`, engines of the Debian pool
(the ones `../shared/tools/install-opponents.sh` installs) join as further opponents:
first each pool engine is itself rated on the same scale by `--pool-games` games against
each of the two Stockfish 15.1 levels nearest the middle of `--sf-grid`, then nearest its
rating until both have been played (its pool Elo, from a round robin without Stockfish, is
not on this scale),
then it serves as an anchor like them, for the levels within `--pool-window` of its rating.

A level's Elo is the maximum-likelihood fit of the logistic model to its games (a draw
counts half a win) with the opponents' Elo fixed, and its 95 % error is 1.96 standard
errors from the Fisher information. The goal (issue #30): every level within ±100 Elo
of its nominal `UCI_Elo`; where one is not, relabel its row of `ANCHORS` in
`src/search/strength.rs` with what it measured, or, where that leaves the range, change
its settings (the node budget moves strength most, the temperature most at the weak end)
and run the level again.

The result of each match (a level or pool engine against one opponent, with the level's
seed: the same openings against each of its opponents) is kept in a JSON state file
(`OUT/state-TC.json`) as soon as it ends, so a stopped run resumes with the same command
(the match that was playing starts again); `--report` rewrites the CSV and SVG from it
without playing.
After a row's settings in `ANCHORS` changed, start a new state (delete it, or `--state`);
after a row was only relabelled (its `elo` set to what it measured: play is unchanged),
rename that level's key in the state to the new label and its games stay valid.
What it writes into `--out` (default `docs/strength/`), for a time control TC:

* `games-TC.csv`: one row per Tabas level (or pool engine) and opponent: W/D/L, score;
* `levels-TC.csv`: one row per level: nominal Elo, measured Elo, 95 % error, games,
  and whether it lies within ±100 of nominal;
* `levels-TC.svg`: measured against nominal Elo, with error bars, the diagonal and
  the ±100 band.

The calibration the issue asks for (at least 100 games per level at 10+0.1, a subset at
60+0.6), on 2 cores:

    python3 tests/scripts/calibrate_strength.py --engine target/release/tabas \\
        --tc 10+0.1 --games 34 --concurrency 2 --pool
    python3 tests/scripts/calibrate_strength.py --engine target/release/tabas \\
        --tc 60+0.6 --games 20 --concurrency 2 --levels 1600,2100,2350 \\
        --opponents-per-level 1

(34 games against each of 3 Stockfish levels: 102 per level; the pool adds 20 a match.
At 60+0.6, 20 games of three levels against the Stockfish level nearest each.)
The drift check, part of shipping a net (docs/network/README.md): every level against
the Stockfish level nearest its label, 100 games each, into a scratch folder; `--check`
makes the run fail (exit status 1) when a level's measured Elo lies more than 100 from
its label or a game had a fault (a time loss, an illegal move, a crash or a hang), so a
net that moved a level is not shipped without relabelling it:

    python3 tests/scripts/calibrate_strength.py --engine BUILD --tc 10+0.1 --games 100 \
        --opponents-per-level 1 --concurrency 2 --out /tmp/drift --check

(With `--check` and no `--sf-grid`, each level meets the Stockfish level of its label,
which the script reads from `ANCHORS`, so the command outlives a relabelling.)

(600 games, about two hours on 2 cores; `--levels` checks some of them.)
A smoke test of the whole path, 2 games a gauntlet at 1+0.01, in a scratch folder:

    python3 tests/scripts/calibrate_strength.py --engine target/release/tabas \\
        --tc 1+0.01 --games 2 --levels 1350 --opponents-per-level 1 --out /tmp/strength
"""

import argparse
import csv
import json
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))


def shared_dir():
    """`../shared` beside the repository, or beside the main checkout of a git worktree."""
    beside = os.path.normpath(os.path.join(REPO, "..", "shared"))
    if os.path.isdir(beside):
        return beside
    try:
        common = subprocess.run(["git", "-C", REPO, "rev-parse", "--git-common-dir"],
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return beside
    main = os.path.dirname(os.path.abspath(os.path.join(REPO, common)))
    return os.path.normpath(os.path.join(main, "..", "shared"))


SHARED = shared_dir()
DEFAULT_MATCH = os.path.join(SHARED, "tools", "match.py")
DEFAULT_OPENINGS = os.path.join(SHARED, "data", "openings", "8moves_v3.pgn")
DEFAULT_STOCKFISH = "/usr/games/stockfish"

STRENGTH_RS = os.path.join(REPO, "src", "search", "strength.rs")


def anchor_labels(source):
    """The `elo` of every row of `const ANCHORS` in the text of strength.rs, in order."""
    start = source.find("const ANCHORS")
    end = source.find("];", start) if start >= 0 else -1
    labels = [int(m) for m in re.findall(r"\belo:\s*(\d+)", source[start:end])] if end >= 0 else []
    if not labels:
        raise SystemExit(f"no `const ANCHORS` rows with an `elo` in {STRENGTH_RS}")
    return labels


# Tabas's levels: the labels of `ANCHORS`, read from the source so that a relabelling
# needs no second edit here (`check_engine` compares their ends with the engine's
# `UCI_Elo` range, which catches a stale build).
with open(STRENGTH_RS, encoding="utf-8") as _f:
    DEFAULT_LEVELS = anchor_labels(_f.read())
# Stockfish 15.1's `UCI_Elo` range, and the levels of it that serve as anchors.
SF_MIN, SF_MAX = 1350, 2850
DEFAULT_SF_GRID = [1350, 1500, 1650, 1800, 1950, 2100, 2250, 2400, 2550, 2700, 2850]

# The Debian pool, as install-opponents.sh lists it (match.py --engine settings). Their
# Elo on Stockfish's scale is measured by the run (phase 1), not taken from the pool's
# own round robin. Fairy-Max needs PGN openings (no setboard), which 8moves_v3 is.
POOL = {
    "Ethereal12": ["cmd=/usr/games/ethereal-chess", "opt.Hash=16"],
    "TogaII3": ["cmd=/usr/games/toga2", "opt.Hash=16", "opt.OwnBook=false"],
    "Glaurung22": ["cmd=/usr/games/glaurung", "opt.Hash=16", "opt.Threads=1",
                   "opt.OwnBook=false"],
    "PhalanxXXV": ["cmd=/usr/games/phalanx", "proto=xboard", "args=-b- -l-"],
    "GNUChess627": ["cmd=/usr/games/gnuchess", "args=--uci", "opt.Hash=16",
                    "opt.OwnBook=false"],
    "Sjeng112": ["cmd=/usr/games/sjeng", "proto=xboard"],
    "FairyMax5": ["cmd=/usr/games/fairymax", "proto=xboard"],
    "HoiChess022": ["cmd=/usr/games/hoichess", "proto=xboard", "args=--norc"],
}
# Two pool engines on 2 cores, in the lower and the middle part of the levels' range at
# 10+0.1: Sjeng (rated 1882 on this scale) and Glaurung (2184; the engine of the users'
# report "set to 1500, it beats Glaurung"). `--pool-engines` chooses others.
DEFAULT_POOL = ["Sjeng112", "Glaurung22"]

Z95 = 1.959963984540054
# Elo per unit of the logistic model's log-odds.
SCALE = 400 / math.log(10)


def expected(elo, opponent):
    """Expected score against an opponent of Elo `opponent`."""
    return 1 / (1 + 10 ** ((opponent - elo) / 400))


def fit(results):
    """Maximum-likelihood Elo from [(opponent Elo, games, points)], and its standard error
    (None for either when the games do not decide it: all won or all lost)."""
    games = sum(n for _, n, _ in results)
    points = sum(p for _, _, p in results)
    if games == 0 or points <= 0 or points >= games:
        return None, None
    elo = sum(r * n for r, n, _ in results) / games
    for _ in range(100):
        # Newton's method on the log-likelihood's derivative (in Elo units).
        gradient = sum(p - n * expected(elo, r) for r, n, p in results) / SCALE
        information = sum(n * expected(elo, r) * (1 - expected(elo, r))
                          for r, n, _ in results) / SCALE ** 2
        step = gradient / information
        elo += max(-200.0, min(200.0, step))
        if abs(step) < 1e-6:
            break
    information = sum(n * expected(elo, r) * (1 - expected(elo, r))
                      for r, n, _ in results) / SCALE ** 2
    return elo, 1 / math.sqrt(information)


def stockfish_spec(elo, path):
    return [f"cmd={path}", f"name=SF-{elo}", "opt.Hash=16", "opt.Threads=1",
            "opt.UCI_LimitStrength=true", f"opt.UCI_Elo={elo}"]


def tabas_spec(elo, path):
    return [f"cmd={path}", f"name=Tabas-{elo}", "opt.Hash=16", "opt.Threads=1",
            "opt.UCI_LimitStrength=true", f"opt.UCI_Elo={elo}"]


def nearest(grid, elo, count):
    """The `count` values of `grid` nearest `elo` (ties: the lower first)."""
    return sorted(sorted(grid, key=lambda g: (abs(g - elo), g))[:count])


def gauntlet(args, player, opponents, seed, games):
    """Plays `player` (a match.py spec) against each of `opponents` ({name: spec}),
    `games` games each; {name: [wins, draws, losses]} from the player's side and
    the player's faults (time forfeits, illegal moves, crashes, hangs)."""
    command = [sys.executable, args.match, "--engine", *player]
    for spec in opponents.values():
        command += ["--engine", *spec]
    command += ["--gauntlet", "--tc", args.tc, "--games", str(games),
                "--concurrency", str(args.concurrency), "--openings", args.openings,
                "--seed", str(seed)]
    if args.adjudicate:
        command += ["--resign-score", "1000", "--resign-moves", "4",
                    "--draw-after", "40", "--draw-score", "10", "--draw-moves", "8"]
    if args.nice:
        command = ["nice", "-n", str(args.nice)] + command
    print("  " + " ".join(command), flush=True)
    done = subprocess.run(command, capture_output=True, text=True)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise SystemExit(f"match.py failed ({done.returncode}):\n{done.stderr[-3000:]}")
    summary = json.loads(lines[-1])
    results = {}
    for pairing in summary["pairings"]:
        results[pairing["opponent"]] = [pairing["wins"], pairing["draws"], pairing["losses"]]
    name = next(p[5:] for p in player if p.startswith("name="))
    stats = summary["engines"][name]
    faults = sum(stats.get(k, 0) for k in ("time_forfeits", "illegal_moves", "crashes", "hangs"))
    return results, faults


def engine_elo_range(path):
    """The (min, max) of the engine's `UCI_Elo` option, as its `uci` answer gives them."""
    done = subprocess.run([path], input="uci\nquit\n", capture_output=True, text=True,
                          timeout=30)
    for line in done.stdout.splitlines():
        words = line.split()
        if words[:3] == ["option", "name", "UCI_Elo"]:
            return int(words[words.index("min") + 1]), int(words[words.index("max") + 1])
    raise SystemExit(f"{path} has no UCI_Elo option")


def check_engine(path):
    """Stops a run whose engine was built from other `ANCHORS` than `DEFAULT_LEVELS`
    names (a stale build's games would land in the state under today's labels)."""
    have = engine_elo_range(path)
    want = (min(DEFAULT_LEVELS), max(DEFAULT_LEVELS))
    if have != want:
        raise SystemExit(f"{path} offers UCI_Elo {have[0]}..{have[1]}, the levels here are "
                         f"{want[0]}..{want[1]}: rebuild it (cargo build --release)")


def load_state(path):
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    return {"pool": {}, "levels": {}}


def save_state(path, state):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, path)


def opponent_elo(name, state):
    """The Elo of an opponent by its match.py name: `SF-<elo>`, or a rated pool engine."""
    if name.startswith("SF-"):
        return int(name[3:])
    rated = state["pool"].get(name, {})
    return rated.get("elo")


def rate(entry, state):
    """(Elo, standard error, games, W, D, L) of a gauntlet entry {opponent: [w, d, l]}."""
    results, wdl = [], [0, 0, 0]
    for name, (w, d, l) in entry["games"].items():
        elo = opponent_elo(name, state)
        if elo is None:
            continue
        results.append((elo, w + d + l, w + d / 2))
        wdl = [wdl[0] + w, wdl[1] + d, wdl[2] + l]
    elo, se = fit(results)
    return elo, se, sum(wdl), *wdl


def play_pairings(args, state, entry, player, opponents, seed, games=None):
    """Plays `player` against each of `opponents` ({name: spec}) not yet in `entry`,
    one match at a time, and saves the state after each (a stopped run loses only the
    match that was playing). A match is `games` games, by default `--games` against a
    Stockfish level and `--pool-games` against a pool engine."""
    for name, spec in opponents.items():
        if name in entry["games"]:
            continue
        n = games or (args.games if name.startswith("SF-") else args.pool_games)
        results, faults = gauntlet(args, player, {name: spec}, seed, n)
        entry["games"][name] = results[name]
        entry["faults"] = entry.get("faults", 0) + faults
        save_state(args.state, state)


def play_pool(args, state):
    """Phase 1: rates each pool engine on Stockfish's scale: `--pool-games` games against
    each of the `--pool-anchors` Stockfish levels nearest the middle of `--sf-grid`, then
    against those nearest its rating until they have all been played; or against those of
    `--pool-sf`."""
    for name in args.pool_engines:
        entry = state["pool"].setdefault(name, {"games": {}})
        estimate = entry.get("elo") or args.sf_grid[len(args.sf_grid) // 2]
        while True:
            sf = args.pool_sf or nearest(args.sf_grid, estimate, args.pool_anchors)
            opponents = {f"SF-{e}": stockfish_spec(e, args.stockfish) for e in sf}
            if all(o in entry["games"] for o in opponents) and "elo" in entry:
                break
            print(f"rating {name} against Stockfish 15.1 at {sf}", flush=True)
            player = [f"name={name}"] + POOL[name]
            play_pairings(args, state, entry, player, opponents, args.seed, args.pool_games)
            elo, se, *_ = rate(entry, state)
            entry["elo"] = elo
            save_state(args.state, state)
            print(f"  {name}: {fmt(elo)} ± {fmt(se and Z95 * se)}", flush=True)
            if elo is None:
                # All won or all lost: look beyond the levels played.
                played = [opponent_elo(o, state) for o in entry["games"]]
                won = sum(w for w, _, _ in entry["games"].values()) > 0
                estimate = max(played) + 200 if won else min(played) - 200
            else:
                estimate = elo


def play_levels(args, state):
    """Phase 2: each Tabas level against the Stockfish levels around it (and the pool)."""
    for level in args.levels:
        entry = state["levels"].setdefault(str(level), {"games": {}})
        sf = nearest(args.sf_grid, level, args.opponents_per_level)
        opponents = {f"SF-{e}": stockfish_spec(e, args.stockfish) for e in sf}
        for name in args.pool_engines:
            elo = state["pool"].get(name, {}).get("elo")
            if elo is not None and abs(elo - level) <= args.pool_window:
                opponents[name] = [f"name={name}"] + POOL[name]
        if all(o in entry["games"] for o in opponents):
            continue
        print(f"Tabas at {level} against {', '.join(opponents)}", flush=True)
        play_pairings(args, state, entry, tabas_spec(level, args.engine), opponents,
                      args.seed + level)
        elo, se, *_ = rate(entry, state)
        print(f"  measured {fmt(elo)} ± {fmt(se and Z95 * se)} "
              f"(faults: {entry.get('faults', 0)})", flush=True)


def fmt(x):
    return "n/a" if x is None else f"{x:.0f}"


def write_outputs(args, state):
    os.makedirs(args.out, exist_ok=True)
    tc = args.tc
    games_path = os.path.join(args.out, f"games-{tc}.csv")
    with open(games_path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["player", "nominal_elo", "opponent", "opponent_elo", "games", "wins",
                      "draws", "losses", "score"])
        rows = [(name, None, e) for name, e in state["pool"].items()]
        rows += [(f"Tabas-{k}", int(k), e) for k, e in sorted(state["levels"].items(),
                                                               key=lambda kv: int(kv[0]))]
        for player, nominal, entry in rows:
            for name, (w, d, l) in sorted(entry["games"].items()):
                n = w + d + l
                elo = opponent_elo(name, state)
                out.writerow([player, "" if nominal is None else nominal, name,
                              "" if elo is None else round(elo), n, w, d, l,
                              f"{(w + d / 2) / n:.3f}" if n else ""])
    levels = []
    for key, entry in sorted(state["levels"].items(), key=lambda kv: int(kv[0])):
        elo, se, n, w, d, l = rate(entry, state)
        levels.append({"nominal": int(key), "elo": elo, "error": se and Z95 * se, "games": n,
                       "wins": w, "draws": d, "losses": l, "faults": entry.get("faults", 0)})
    levels_path = os.path.join(args.out, f"levels-{tc}.csv")
    with open(levels_path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["nominal_elo", "measured_elo", "error95", "games", "wins", "draws",
                      "losses", "faults", "within_100"])
        for lv in levels:
            within = "" if lv["elo"] is None else abs(lv["elo"] - lv["nominal"]) <= 100
            out.writerow([lv["nominal"], fmt(lv["elo"]), fmt(lv["error"]), lv["games"],
                          lv["wins"], lv["draws"], lv["losses"], lv["faults"], within])
    svg_path = os.path.join(args.out, f"levels-{tc}.svg")
    with open(svg_path, "w", encoding="utf-8") as f:
        f.write(svg(levels, tc))
    print(f"wrote {games_path}, {levels_path}, {svg_path}")
    for name, entry in state["pool"].items():
        elo, se, n, w, d, l = rate(entry, state)
        print(f"  pool {name}: {fmt(elo)} ± {fmt(se and Z95 * se)} "
              f"({n} games, +{w} ={d} -{l} against Stockfish)")
    for lv in levels:
        print(f"  {lv['nominal']}: {fmt(lv['elo'])} ± {fmt(lv['error'])} "
              f"({lv['games']} games, +{lv['wins']} ={lv['draws']} -{lv['losses']})")


def drift_check(args, state):
    """`--check`: whether every level this run played lies within ±100 of its label with no
    faulty game; prints each level's verdict."""
    passed = True
    for level in args.levels:
        entry = state["levels"].get(str(level), {"games": {}})
        elo, se, n, *_ = rate(entry, state)
        faults = entry.get("faults", 0)
        ok = elo is not None and abs(elo - level) <= 100 and faults == 0
        passed &= ok
        print(f"  check {level}: {fmt(elo)} ± {fmt(se and Z95 * se)} in {n} games, "
              f"{faults} faults: {'within ±100' if ok else 'OUTSIDE ±100 or faulty'}")
        if n < 100:
            print(f"  check {level}: only {n} games; ±100 needs about 100 to tell")
    print("drift check: " + ("passed" if passed else "FAILED (relabel or re-set the level)"))
    return passed


def svg(levels, tc):
    """Measured against nominal Elo, with 95 % error bars, y = x and the ±100 band."""
    width, height, margin = 640, 480, 60
    low, high = 1100, 3100
    def x(elo):
        return margin + (elo - low) / (high - low) * (width - 2 * margin)
    def y(elo):
        return height - margin - (elo - low) / (high - low) * (height - 2 * margin)
    def clip(elo):
        return max(low, min(high, elo))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="15">'
             f'Tabas UCI_Elo levels at {tc}: measured against nominal</text>']
    parts.append(f'<clipPath id="plot"><rect x="{margin}" y="{margin}" '
                 f'width="{width - 2 * margin}" height="{height - 2 * margin}"/></clipPath>')
    band = [(low, low - 100), (high, high - 100), (high, high + 100), (low, low + 100)]
    points = " ".join(f"{x(a):.1f},{y(b):.1f}" for a, b in band)
    parts.append(f'<polygon points="{points}" fill="#d8ecd8" clip-path="url(#plot)"/>')
    parts.append(f'<line x1="{x(low)}" y1="{y(low)}" x2="{x(high)}" y2="{y(high)}" '
                 f'stroke="#4a4" stroke-dasharray="4 3"/>')
    for tick in range(low + 100, high, 300):
        parts.append(f'<line x1="{x(tick)}" y1="{height - margin}" x2="{x(tick)}" '
                     f'y2="{height - margin + 5}" stroke="black"/>')
        parts.append(f'<text x="{x(tick)}" y="{height - margin + 18}" '
                     f'text-anchor="middle">{tick}</text>')
        parts.append(f'<line x1="{margin - 5}" y1="{y(tick)}" x2="{margin}" y2="{y(tick)}" '
                     f'stroke="black"/>')
        parts.append(f'<text x="{margin - 8}" y="{y(tick) + 4}" text-anchor="end">{tick}</text>')
    parts.append(f'<rect x="{margin}" y="{margin}" width="{width - 2 * margin}" '
                 f'height="{height - 2 * margin}" fill="none" stroke="black"/>')
    parts.append(f'<text x="{width / 2}" y="{height - 18}" text-anchor="middle">'
                 f'nominal UCI_Elo</text>')
    parts.append(f'<text x="16" y="{height / 2}" text-anchor="middle" '
                 f'transform="rotate(-90 16 {height / 2})">measured Elo (Stockfish 15.1 scale)'
                 f'</text>')
    for lv in levels:
        if lv["elo"] is None:
            continue
        cx, cy = x(lv["nominal"]), y(clip(lv["elo"]))
        if lv["error"] is not None:
            top, bottom = y(clip(lv["elo"] + lv["error"])), y(clip(lv["elo"] - lv["error"]))
            parts.append(f'<line x1="{cx:.1f}" y1="{top:.1f}" x2="{cx:.1f}" y2="{bottom:.1f}" '
                         f'stroke="#b22"/>')
            for end in (top, bottom):
                parts.append(f'<line x1="{cx - 5:.1f}" y1="{end:.1f}" x2="{cx + 5:.1f}" '
                             f'y2="{end:.1f}" stroke="#b22"/>')
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="#b22"/>')
        parts.append(f'<text x="{cx + 8:.1f}" y="{cy - 6:.1f}">{fmt(lv["elo"])} '
                     f'({lv["games"]} games)</text>')
    parts.append("</svg>\n")
    return "\n".join(parts)


def int_list(text):
    return [int(v) for v in text.split(",") if v.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", help="the Tabas binary (not needed with --report)")
    parser.add_argument("--tc", default="10+0.1", help="time control (match.py form)")
    parser.add_argument("--games", type=int, default=34,
                        help="games of each level against each opponent (even: pairs)")
    parser.add_argument("--levels", type=int_list, default=DEFAULT_LEVELS,
                        help="Tabas UCI_Elo values, comma-separated")
    parser.add_argument("--sf-grid", type=int_list, default=None,
                        help="Stockfish 15.1 UCI_Elo values that serve as anchors "
                             "(default: with --check the levels' own labels, so that each "
                             "level meets Stockfish at its label; else a grid of 150)")
    parser.add_argument("--opponents-per-level", type=int, default=3,
                        help="Stockfish anchors per level: the nearest of --sf-grid")
    parser.add_argument("--pool", action="store_true",
                        help="also rate the Debian pool on Stockfish's scale and play it")
    parser.add_argument("--pool-engines", default=",".join(DEFAULT_POOL),
                        help=f"pool engines for --pool, of: {', '.join(POOL)}")
    parser.add_argument("--pool-games", type=int, default=20,
                        help="games of each match a pool engine plays (even: pairs)")
    parser.add_argument("--pool-anchors", type=int, default=2,
                        help="Stockfish levels that rate a pool engine: the nearest of "
                             "--sf-grid to its rating")
    parser.add_argument("--pool-sf", type=int_list, default=[],
                        help="Stockfish levels that rate every pool engine (instead of "
                             "--pool-anchors)")
    parser.add_argument("--pool-window", type=int, default=300,
                        help="a rated pool engine plays the levels within this many Elo")
    parser.add_argument("--stockfish", default=DEFAULT_STOCKFISH)
    parser.add_argument("--match", default=DEFAULT_MATCH)
    parser.add_argument("--openings", default=DEFAULT_OPENINGS)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--nice", type=int, default=0, help="run match.py under nice -n N")
    parser.add_argument("--no-adjudication", dest="adjudicate", action="store_false",
                        help="play every game out (default: resign at -1000 cp for 4 moves, "
                             "draw from move 40 within 10 cp for 8 moves)")
    parser.add_argument("--out", default=os.path.join(REPO, "docs", "strength"))
    parser.add_argument("--state", help="the JSON state (default: OUT/state-TC.json)")
    parser.add_argument("--report", action="store_true",
                        help="write the CSV and SVG from the state, play nothing")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a level of --levels measured more than 100 from "
                             "its label or had a faulty game (the drift check)")
    args = parser.parse_args()
    if args.sf_grid is None:
        args.sf_grid = sorted(args.levels) if args.check else DEFAULT_SF_GRID
    args.pool_engines = [p for p in args.pool_engines.split(",") if p] if args.pool else []
    unknown = [p for p in args.pool_engines if p not in POOL]
    if unknown:
        parser.error(f"unknown pool engines: {', '.join(unknown)}")
    outside = [e for e in args.sf_grid + args.pool_sf if not SF_MIN <= e <= SF_MAX]
    if outside:
        parser.error(f"Stockfish 15.1's UCI_Elo is {SF_MIN}..{SF_MAX}: not {outside}")
    if not args.engine and not args.report:
        parser.error("--engine is needed to play")
    args.engine = args.engine and os.path.abspath(args.engine)
    os.makedirs(args.out, exist_ok=True)
    args.state = args.state or os.path.join(args.out, f"state-{args.tc}.json")
    state = load_state(args.state)
    if not args.report:
        check_engine(args.engine)
        play_pool(args, state)
        play_levels(args, state)
    write_outputs(args, state)
    if args.check and not drift_check(args, state):
        sys.exit(1)


if __name__ == "__main__":
    main()
