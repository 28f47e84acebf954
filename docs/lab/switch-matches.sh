# The Elo each part of the search is worth: the full engine against the same binary
# with one Debug_ switch off (200 games at 4+0.04 each, 8moves_v3 openings). Run from the
# repository after `cargo build --release`; the last line of each match is a JSON
# object whose Elo (first engine over the second) goes into src/tools/lab/elo.rs.

# Debug_Aspiration: not measured
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-Aspiration args=--dev opt.Debug_Aspiration=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33001 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-Aspiration.pgn

# Debug_PVS: not measured
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-PVS args=--dev opt.Debug_PVS=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33002 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-PVS.pgn

# Debug_TTCutoffs: not measured
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-TTCutoffs args=--dev opt.Debug_TTCutoffs=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33003 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-TTCutoffs.pgn

# Debug_Quiescence: not measured
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-Quiescence args=--dev opt.Debug_Quiescence=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33008 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-Quiescence.pgn

# Debug_QuiescenceTT: not measured
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-QuiescenceTT args=--dev opt.Debug_QuiescenceTT=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33009 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-QuiescenceTT.pgn

# Debug_MVVLVA: not measured
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-MVVLVA args=--dev opt.Debug_MVVLVA=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33006 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-MVVLVA.pgn

# Debug_Killers: not measured
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-Killers args=--dev opt.Debug_Killers=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33004 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-Killers.pgn

# Debug_History: not measured
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-History args=--dev opt.Debug_History=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33005 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-History.pgn

# Debug_Correction: measured +27.9 ± 17.2 (docs/search/features.md, second round, bundle 1: correction histories added (f9c55ae vs 9df16e9, SPRT H1, 713 games at 4+0.04), before razoring and ProbCut); again at today's build:
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-Correction args=--dev opt.Debug_Correction=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33017 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-Correction.pgn

# Debug_NullMove: not measured
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-NullMove args=--dev opt.Debug_NullMove=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33007 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-NullMove.pgn

# Debug_ReverseFutility: not measured
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-ReverseFutility args=--dev opt.Debug_ReverseFutility=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33011 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-ReverseFutility.pgn

# Debug_Razoring: not measured alone (measured with Debug_ProbCut: razoring + ProbCut added, +26.8 ± 16.6 (docs/search/features.md, second round, bundle 2, f8bb271 vs f9c55ae, 651 games at 4+0.04))
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-Razoring args=--dev opt.Debug_Razoring=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33018 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-Razoring.pgn

# Debug_Futility: not measured alone (measured with Debug_LateMovePruning, before checks were exempt: +9 ± 33, stopped (docs/search/features.md, Kept, second row, 269 games at 2+0.02))
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-Futility args=--dev opt.Debug_Futility=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33013 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-Futility.pgn

# Debug_LateMovePruning: not measured alone (measured with Debug_Futility, before checks were exempt: +9 ± 33, stopped (docs/search/features.md, Kept, second row, 269 games at 2+0.02))
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-LateMovePruning args=--dev opt.Debug_LateMovePruning=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33012 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-LateMovePruning.pgn

# Debug_SEE: not measured
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-SEE args=--dev opt.Debug_SEE=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33016 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-SEE.pgn

# Debug_ProbCut: not measured alone (measured with Debug_Razoring: razoring + ProbCut added, +26.8 ± 16.6 (docs/search/features.md, second round, bundle 2, f8bb271 vs f9c55ae, 651 games at 4+0.04))
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-ProbCut args=--dev opt.Debug_ProbCut=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33019 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-ProbCut.pgn

# Debug_LMR: not measured
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-LMR args=--dev opt.Debug_LMR=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33010 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-LMR.pgn

# Debug_IIR: not measured alone (measured with Debug_Singular: singular extensions + IIR added, +104.3 ± 33.5 (docs/search/features.md, Kept, 1bb63d2 vs 811ce9e, 279 games at 2+0.02))
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-IIR args=--dev opt.Debug_IIR=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33015 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-IIR.pgn

# Debug_Singular: not measured alone (measured with Debug_IIR: singular extensions + IIR added, +104.3 ± 33.5 (docs/search/features.md, Kept, 1bb63d2 vs 811ce9e, 279 games at 2+0.02))
python3 ../shared/tools/match.py --engine cmd=target/release/tabas name=full args=--dev --engine cmd=target/release/tabas name=no-Singular args=--dev opt.Debug_Singular=false --tc 4+0.04 --games 200 --concurrency 2 --openings ../shared/data/openings/8moves_v3.pgn --seed 33014 --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 --pgn /tmp/no-Singular.pgn
