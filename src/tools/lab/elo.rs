//! What games say about each developer switch: the Elo a part of the search is worth,
//! where a match has measured it, and the match that would measure the others.
//!
//! The switch study (`switches.rs`) counts nodes and time; only games say what a rule
//! is worth in play. `docs/search/features.md` holds every match played. A figure is
//! reused here only where the match was the same change as turning the switch off (a
//! bundle that added two parts at once measures neither alone). `match_command` prints
//! the match that measures a switch: when it has been played, add its figure to
//! `MEASURED`.

/// A match's result: the Elo of the full engine over the engine without the part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    /// Logistic Elo, positive when the part helps.
    pub elo: f64,
    /// The 95 % error (pentanomial).
    pub error: f64,
    /// Where it was measured: the document, the row, the builds, the games.
    pub source: &'static str,
}

/// Switches whose worth a match has measured as the same change: the matches of
/// docs/lab/switch-matches.sh (da5d3e1, 2026-11-25), and the correction histories' bundle.
const MEASURED: &[(&str, Measured)] = &[
    (
        "Debug_Aspiration",
        Measured {
            elo: 96.2,
            error: 48.2,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33001: \
                     100 games at 2+0.02, +40 =47 -13",
        },
    ),
    (
        "Debug_PVS",
        Measured {
            elo: 412.8,
            error: 77.0,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33002: \
                     100 games at 2+0.02, +83 =17 -0",
        },
    ),
    (
        "Debug_TTCutoffs",
        Measured {
            elo: 139.0,
            error: 50.3,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33003: \
                     100 games at 2+0.02, +50 =38 -12",
        },
    ),
    (
        "Debug_Quiescence",
        Measured {
            elo: 263.4,
            error: 69.3,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33008: \
                     100 games at 2+0.02, +70 =24 -6",
        },
    ),
    (
        "Debug_QuiescenceTT",
        Measured {
            elo: -6.9,
            error: 47.5,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33009: \
                     100 games at 2+0.02, +20 =58 -22",
        },
    ),
    (
        "Debug_MVVLVA",
        Measured {
            elo: 70.4,
            error: 44.0,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33006: \
                     100 games at 2+0.02, +36 =48 -16",
        },
    ),
    (
        "Debug_Killers",
        Measured {
            elo: 3.5,
            error: 45.9,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33004: \
                     100 games at 2+0.02, +22 =57 -21",
        },
    ),
    (
        "Debug_History",
        Measured {
            elo: 235.4,
            error: 51.3,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33005: \
                     100 games at 2+0.02, +61 =37 -2",
        },
    ),
    (
        "Debug_NullMove",
        Measured {
            elo: 20.9,
            error: 49.3,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33007: \
                     100 games at 2+0.02, +32 =42 -26",
        },
    ),
    (
        "Debug_ReverseFutility",
        Measured {
            elo: 45.4,
            error: 41.5,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33011: \
                     100 games at 2+0.02, +30 =53 -17",
        },
    ),
    (
        "Debug_Razoring",
        Measured {
            elo: 31.4,
            error: 42.2,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33018: \
                     100 games at 2+0.02, +28 =53 -19",
        },
    ),
    (
        "Debug_Futility",
        Measured {
            elo: 0.0,
            error: 48.5,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33013: \
                     100 games at 2+0.02, +28 =44 -28",
        },
    ),
    (
        "Debug_LateMovePruning",
        Measured {
            elo: 107.5,
            error: 48.9,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33012: \
                     100 games at 2+0.02, +44 =42 -14",
        },
    ),
    (
        "Debug_SEE",
        Measured {
            elo: 107.5,
            error: 60.6,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33016: \
                     100 games at 2+0.02, +47 =36 -17",
        },
    ),
    (
        "Debug_ProbCut",
        Measured {
            elo: -27.9,
            error: 52.0,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33019: \
                     100 games at 2+0.02, +23 =46 -31",
        },
    ),
    (
        "Debug_LMR",
        Measured {
            elo: 31.4,
            error: 42.2,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33010: \
                     100 games at 2+0.02, +31 =47 -22",
        },
    ),
    (
        "Debug_IIR",
        Measured {
            elo: 63.2,
            error: 50.9,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33015: \
                     100 games at 2+0.02, +34 =50 -16",
        },
    ),
    (
        "Debug_Singular",
        Measured {
            elo: 24.4,
            error: 52.5,
            source: "docs/lab/switch-matches.sh at c468269 (Bench 1355831), seed 33014: \
                     100 games at 2+0.02, +30 =47 -23",
        },
    ),
    (
        "Debug_Correction",
        Measured {
            elo: 27.9,
            error: 17.2,
            source: "docs/search/features.md, second round, bundle 1: correction histories added \
                     (f9c55ae vs 9df16e9, SPRT H1, 713 games at 4+0.04), before razoring and ProbCut",
        },
    ),
];

/// What games measured of `switch` (a `Debug_` option name), if any match did.
pub fn figure(switch: &str) -> Option<Measured> {
    MEASURED
        .iter()
        .find(|(s, _)| *s == switch)
        .map(|(_, measured)| *measured)
}

/// The match settings: the quick screen of docs/search/features.md (2+0.02), a fixed
/// number of games instead of an SPRT (the answer wanted is a figure with its error).
/// 100 games a switch keep the eighteen matches near 90 minutes on two cores; the error
/// (±41–77 Elo in da5d3e1's matches) separates the rules worth a hundred Elo from those worth a
/// few.
pub const MATCH_TC: &str = "2+0.02";
pub const MATCH_GAMES: u32 = 100;
/// The seed of the first switch's match; the n-th switch of `SWITCH_OPTIONS` adds n.
pub const MATCH_SEED: u32 = 33001;

/// The `match.py` command (run from the repository, beside `../shared`) that measures
/// `switch`: the full engine against the same binary with the switch off, so its Elo
/// is what the part is worth. `seed` shuffles the openings.
pub fn match_command(switch: &str, seed: u32) -> String {
    let short = switch.trim_start_matches("Debug_");
    format!(
        "python3 ../shared/tools/match.py \
         --engine cmd=target/release/tabas name=full args=--dev \
         --engine cmd=target/release/tabas name=no-{short} args=--dev opt.{switch}=false \
         --tc {MATCH_TC} --games {MATCH_GAMES} --concurrency 2 \
         --openings ../shared/data/openings/8moves_v3.pgn --seed {seed} \
         --resign-score 1000 --resign-moves 4 --draw-after 40 --draw-score 10 --draw-moves 8 \
         --pgn /tmp/no-{short}.pgn"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SWITCH_OPTIONS;

    #[test]
    fn figures_name_real_switches() {
        for (switch, _) in MEASURED {
            assert!(SWITCH_OPTIONS.contains(switch), "{switch}");
        }
        assert!(figure("Debug_Correction").is_some_and(|m| m.elo > 0.0));
        assert!(figure("Debug_LMR").is_some_and(|m| m.source.contains("2+0.02")));
        assert_eq!(figure("Debug_NoSuchPart"), None);
    }

    #[test]
    fn every_search_switch_has_a_figure() {
        // The time manager's switch changes how long a move thinks, not the tree: the
        // switch study leaves it out, and so does this column.
        for switch in SWITCH_OPTIONS.iter().filter(|s| **s != "Debug_TimeManager") {
            assert!(figure(switch).is_some(), "{switch}");
        }
    }

    #[test]
    fn match_command_turns_one_switch_off() {
        let command = match_command("Debug_LMR", 33010);
        assert!(command.contains("name=no-LMR args=--dev opt.Debug_LMR=false --tc 2+0.02"));
        assert!(command.contains("--seed 33010"));
        assert_eq!(command.matches("opt.").count(), 1);
    }
}
