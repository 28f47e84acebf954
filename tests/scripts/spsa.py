#!/usr/bin/env python3
"""SPSA tuning of the search's numbers, with games between two perturbed copies of
Tabas's `tuning` build (`make TUNE=1`: every tunable of `src/params.rs` is then a
UCI spin option).

Each iteration k draws a random sign (+1 or -1) for every number, plays games between
theta + c_k * sign and theta - c_k * sign (colour-reversed pairs, through
`../shared/tools/match.py`), and moves theta by a_k * (wins - losses) * sign / c_k
towards the side that scored. The schedules are OpenBench's: c_k = c / k^gamma,
a_k = a / (A + k)^alpha, where c and a come from each number's `c_end` (the step
`tabas params` gives) and one learning rate `r_end` for all, so that the last
iterations perturb by about c_end and move by about r_end * c_end^2 a game.

The state (theta, iteration, games, the history of every iteration) is a JSON file,
written after each iteration: a run that is stopped (Ctrl-C, SIGTERM) resumes where it
was by running the same command again. The tuned values are theta rounded.

    make TUNE=1
    python3 tests/scripts/spsa.py --engine target/tuning/release/tabas \\
        --state spsa.json --iterations 1000 --pairs 4 --tc 4+0.04 --concurrency 2

`--fastchess PATH` plays the games through fastchess instead of match.py (the engines
then get the CPU the Python runner takes). `--only name,name` tunes a subset (the
others stay at their defaults); `--report` prints theta against the defaults and exits;
`--apply src/params.rs` writes the rounded values into that file as the new defaults
(each `name = default,` of `tunables!`; nothing else in the file changes) and exits.
"""

import argparse
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MATCH = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "tools", "match.py"))
DEFAULT_OPENINGS = os.path.normpath(
    os.path.join(HERE, "..", "..", "..", "shared", "data", "openings", "8moves_v3.pgn"))

# OpenBench's defaults for the schedules.
ALPHA = 0.602
GAMMA = 0.101
A_RATIO = 0.1


def read_tunables(engine):
    """The tunables as `tabas params` prints them: name, int, default, min, max, c_end, r_end."""
    out = subprocess.run([engine, "params"], capture_output=True, text=True, check=True).stdout
    tunables = []
    for line in out.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7 or fields[1] != "int":
            raise SystemExit(f"spsa: unexpected line from '{engine} params': {line!r}")
        name, _, default, low, high, c_end, r_end = fields
        tunables.append({"name": name, "default": int(default), "min": int(low),
                         "max": int(high), "c_end": float(c_end), "r_end": float(r_end)})
    return tunables


def schedules(t, iterations, r_end):
    """OpenBench's constants for one tunable: (c, a, A)."""
    big_a = A_RATIO * iterations
    c = t["c_end"] * iterations ** GAMMA
    a_end = r_end * t["c_end"] ** 2
    a = a_end * (big_a + iterations) ** ALPHA
    return c, a, big_a


def clamp(t, value):
    return max(t["min"], min(t["max"], value))


# Each engine's options besides the tunables, in either runner.
ENGINE_OPTIONS = {"Hash": 16, "Threads": 1}


def play(args, plus, minus, seed):
    """Plays `2 * pairs` games of plus against minus: (wins, draws, losses, faults) of plus."""
    if args.fastchess:
        return play_fastchess(args, plus, minus, seed)
    def engine(name, values):
        options = {**ENGINE_OPTIONS, **values}
        return ["--engine", f"cmd={args.engine}", f"name={name}",
                *(f"opt.{n}={v}" for n, v in options.items())]
    command = [sys.executable, args.match, *engine("plus", plus), *engine("minus", minus),
               "--tc", args.tc, "--games", str(2 * args.pairs),
               "--concurrency", str(args.concurrency), "--openings", args.openings,
               "--seed", str(seed), "--resign-score", "1000", "--resign-moves", "4",
               "--draw-after", "40", "--draw-score", "10", "--draw-moves", "8"]
    done = subprocess.run(command, capture_output=True, text=True)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"match.py failed ({done.returncode}): {done.stderr[-2000:]}")
    summary = json.loads(lines[-1])
    faults = sum(e["time_forfeits"] + e["illegal_moves"] + e["crashes"] + e["hangs"]
                 for e in summary["engines"].values())
    pairing = summary["pairings"][0]
    return pairing["wins"], pairing["draws"], pairing["losses"], faults


# How fastchess ends a game that an engine lost by misbehaving.
FAULTS = re.compile(r"loses on time|illegal move|disconnects|stalls|crash", re.IGNORECASE)


def play_fastchess(args, plus, minus, seed):
    """`play` through fastchess (a C++ runner: at 2+0.02 on two cores, match.py took
    about 57 % of one core, which the engines then lacked)."""
    engine_path = os.path.abspath(args.engine)

    def engine(name, values):
        options = {**ENGINE_OPTIONS, **values}
        return ["-engine", f"cmd={engine_path}", f"name={name}",
                *(f"option.{n}={v}" for n, v in options.items())]
    command = [args.fastchess, *engine("plus", plus), *engine("minus", minus),
               "-each", f"tc={args.tc}", "-rounds", str(args.pairs), "-games", "2",
               "-repeat", "-concurrency", str(args.concurrency),
               "-openings", f"file={os.path.abspath(args.openings)}", "format=pgn",
               "order=random", "-srand", str(seed),
               "-resign", "movecount=4", "score=1000",
               "-draw", "movenumber=40", "movecount=8", "score=10"]
    # fastchess leaves a config.json where it runs: run it in a scratch folder.
    with tempfile.TemporaryDirectory(prefix="spsa-") as scratch:
        done = subprocess.run(command, capture_output=True, text=True, cwd=scratch)
    totals = re.findall(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)", done.stdout)
    if done.returncode != 0 or not totals:
        raise RuntimeError(f"fastchess failed ({done.returncode}): {done.stdout[-2000:]}")
    games, wins, losses, draws = map(int, totals[-1])
    if games != 2 * args.pairs:
        raise RuntimeError(f"fastchess played {games} games, not {2 * args.pairs}")
    faults = 0
    for line in done.stdout.splitlines():
        # A game lost by misbehaving (time, illegal move, crash), or a protocol slip
        # fastchess noticed (a bestmove that is not the last PV's first move, a
        # malformed move): shown, and counted as a fault.
        lost = line.startswith("Finished game") and FAULTS.search(line)
        if lost or line.startswith("Warning"):
            print(f"fastchess: {line}", flush=True)
            faults += 1
    return wins, draws, losses, faults


def load_state(path, tunables, only):
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    names = [t["name"] for t in tunables if not only or t["name"] in only]
    unknown = set(only) - {t["name"] for t in tunables}
    if unknown:
        raise SystemExit(f"spsa: no such tunable: {', '.join(sorted(unknown))}")
    return {"theta": {t["name"]: float(t["default"]) for t in tunables if t["name"] in names},
            "iteration": 0, "games": 0, "faults": 0, "history": []}


def save_state(path, state):
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        json.dump(state, f, indent=1)
    os.replace(temporary, path)


def report(state, tunables):
    print(f"iteration {state['iteration']}, {state['games']} games, {state['faults']} faults")
    for t in tunables:
        if t["name"] in state["theta"]:
            value = state["theta"][t["name"]]
            print(f"{t['name']:28} {t['default']:6} -> {value:9.2f} ({round(value)})")


def apply(state, path):
    """Writes theta, rounded, as the defaults of `tunables!` in the params.rs at `path`;
    returns the names whose default changed. Every tuned name must be found once."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    changed = []
    for name, value in state["theta"].items():
        pattern = re.compile(rf"^(\s*{re.escape(name)} = )(-?\d+)(, -?\d+\.\.=-?\d+, step \d+;)$",
                             re.MULTILINE)
        found = pattern.findall(text)
        if len(found) != 1:
            raise SystemExit(f"spsa: '{name}' is declared {len(found)} times in {path}, not once")
        if int(found[0][1]) != round(value):
            changed.append(name)
        text = pattern.sub(lambda m: f"{m.group(1)}{round(value)}{m.group(3)}", text)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return changed


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the tuning build (make TUNE=1)")
    parser.add_argument("--state", required=True, help="JSON file: created, then resumed")
    parser.add_argument("--iterations", type=int, default=1000,
                        help="planned iterations (sets the schedules; default 1000)")
    parser.add_argument("--pairs", type=int, default=4,
                        help="colour-reversed game pairs per iteration (default 4)")
    parser.add_argument("--tc", default="4+0.04")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--r-end", type=float, default=0.002,
                        help="learning rate at the end (OpenBench's r_end; default 0.002)")
    parser.add_argument("--seed", type=int, default=1, help="signs and openings (default 1)")
    parser.add_argument("--only", default="", help="comma-separated names to tune")
    parser.add_argument("--match", default=DEFAULT_MATCH)
    parser.add_argument("--fastchess", default="",
                        help="play through this fastchess binary instead of match.py")
    parser.add_argument("--openings", default=DEFAULT_OPENINGS)
    parser.add_argument("--report", action="store_true", help="print theta and exit")
    parser.add_argument("--apply", default="", metavar="PARAMS_RS",
                        help="write theta, rounded, into this params.rs as the defaults, and exit")
    args = parser.parse_args(argv)

    tunables = read_tunables(args.engine)
    only = {n for n in args.only.split(",") if n}
    state = load_state(args.state, tunables, only)
    if args.report:
        report(state, tunables)
        return 0
    if args.apply:
        changed = apply(state, args.apply)
        print(f"{args.apply}: {len(changed)} defaults changed: {', '.join(changed)}")
        return 0
    chosen = [t for t in tunables if t["name"] in state["theta"]]

    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    try:
        while state["iteration"] < args.iterations and not stopping:
            k = state["iteration"] + 1
            signs = random.Random(args.seed * 1_000_003 + k)
            plus, minus, shifts = {}, {}, {}
            for t in chosen:
                c, _, _ = schedules(t, args.iterations, args.r_end)
                c_k = c / k ** GAMMA
                sign = signs.choice((-1, 1))
                theta = state["theta"][t["name"]]
                plus[t["name"]] = clamp(t, round(theta + c_k * sign))
                minus[t["name"]] = clamp(t, round(theta - c_k * sign))
                shifts[t["name"]] = (sign, c_k)
            wins, draws, losses, faults = play(args, plus, minus, args.seed * 100_000 + k)
            for t in chosen:
                sign, c_k = shifts[t["name"]]
                _, a, big_a = schedules(t, args.iterations, args.r_end)
                a_k = a / (big_a + k) ** ALPHA
                theta = state["theta"][t["name"]] + a_k * (wins - losses) * sign / c_k
                state["theta"][t["name"]] = min(t["max"], max(t["min"], theta))
            state["iteration"] = k
            state["games"] += wins + draws + losses
            state["faults"] += faults
            state["history"].append({"k": k, "w": wins, "d": draws, "l": losses}
                                    | ({"faults": faults} if faults else {}))
            save_state(args.state, state)
            print(f"iteration {k}: +{wins} ={draws} -{losses}, {state['games']} games"
                  + (f", {faults} faults" if faults else ""), flush=True)
    except KeyboardInterrupt:
        pass
    report(state, tunables)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
