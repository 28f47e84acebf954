# The Elo each part of the search is worth: the full engine against the same binary
# with one Debug_ switch off (100 games at 2+0.02 each, 8moves_v3 openings). Run from the
# repository after `cargo build --release`; the last line of each match is a JSON
# object whose Elo (first engine over the second) goes into src/tools/lab/elo.rs.

# Debug_Aspiration: measured +96.2 ± 48.2 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33001: 100 games at 2+0.02, +40 =47 -13); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-Aspiration args=--dev opt.Debug_Aspiration=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33001 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-Aspiration.pgn

# Debug_PVS: measured +412.8 ± 77.0 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33002: 100 games at 2+0.02, +83 =17 -0); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-PVS args=--dev opt.Debug_PVS=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33002 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-PVS.pgn

# Debug_TTCutoffs: measured +139.0 ± 50.3 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33003: 100 games at 2+0.02, +50 =38 -12); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-TTCutoffs args=--dev opt.Debug_TTCutoffs=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33003 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-TTCutoffs.pgn

# Debug_Quiescence: measured +263.4 ± 69.3 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33008: 100 games at 2+0.02, +70 =24 -6); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-Quiescence args=--dev opt.Debug_Quiescence=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33008 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-Quiescence.pgn

# Debug_QuiescenceTT: measured -6.9 ± 47.5 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33009: 100 games at 2+0.02, +20 =58 -22); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-QuiescenceTT args=--dev opt.Debug_QuiescenceTT=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33009 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-QuiescenceTT.pgn

# Debug_MVVLVA: measured +70.4 ± 44.0 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33006: 100 games at 2+0.02, +36 =48 -16); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-MVVLVA args=--dev opt.Debug_MVVLVA=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33006 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-MVVLVA.pgn

# Debug_Killers: measured +3.5 ± 45.9 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33004: 100 games at 2+0.02, +22 =57 -21); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-Killers args=--dev opt.Debug_Killers=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33004 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-Killers.pgn

# Debug_History: measured +235.4 ± 51.3 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33005: 100 games at 2+0.02, +61 =37 -2); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-History args=--dev opt.Debug_History=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33005 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-History.pgn

# Debug_Correction: measured +27.9 ± 17.2 (docs/search/features.md, second round, bundle 1: correction histories added (f9c55ae vs 9df16e9, SPRT H1, 713 games at 4+0.04), before razoring and ProbCut); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-Correction args=--dev opt.Debug_Correction=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33017 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-Correction.pgn

# Debug_NullMove: measured +20.9 ± 49.3 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33007: 100 games at 2+0.02, +32 =42 -26); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-NullMove args=--dev opt.Debug_NullMove=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33007 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-NullMove.pgn

# Debug_ReverseFutility: measured +45.4 ± 41.5 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33011: 100 games at 2+0.02, +30 =53 -17); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-ReverseFutility args=--dev opt.Debug_ReverseFutility=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33011 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-ReverseFutility.pgn

# Debug_Razoring: measured +31.4 ± 42.2 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33018: 100 games at 2+0.02, +28 =53 -19); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-Razoring args=--dev opt.Debug_Razoring=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33018 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-Razoring.pgn

# Debug_Futility: measured +0.0 ± 48.5 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33013: 100 games at 2+0.02, +28 =44 -28); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-Futility args=--dev opt.Debug_Futility=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33013 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-Futility.pgn

# Debug_LateMovePruning: measured +107.5 ± 48.9 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33012: 100 games at 2+0.02, +44 =42 -14); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-LateMovePruning args=--dev opt.Debug_LateMovePruning=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33012 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-LateMovePruning.pgn

# Debug_SEE: measured +107.5 ± 60.6 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33016: 100 games at 2+0.02, +47 =36 -17); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-SEE args=--dev opt.Debug_SEE=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33016 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-SEE.pgn

# Debug_ProbCut: measured -27.9 ± 52.0 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33019: 100 games at 2+0.02, +23 =46 -31); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-ProbCut args=--dev opt.Debug_ProbCut=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33019 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-ProbCut.pgn

# Debug_LMR: measured +31.4 ± 42.2 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33010: 100 games at 2+0.02, +31 =47 -22); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-LMR args=--dev opt.Debug_LMR=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33010 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-LMR.pgn

# Debug_IIR: measured +63.2 ± 50.9 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33015: 100 games at 2+0.02, +34 =50 -16); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-IIR args=--dev opt.Debug_IIR=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33015 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-IIR.pgn

# Debug_Singular: measured +24.4 ± 52.5 (docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33014: 100 games at 2+0.02, +30 =47 -23); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-Singular args=--dev opt.Debug_Singular=false --tc 2+0.02 --games 100 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33014 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-Singular.pgn
