//! What games say about each developer switch: the Elo a part of the search is worth,
//! where a match has measured it, and the match that would measure the others.
//!
//! The switch study (`switches.rs`) counts nodes and time; only games say what a rule
//! is worth in play. `docs/search/features.md` holds every match played. A figure is
//! reused here only where the match was the same change as turning the switch off;
//! where a match measured the switch together with another one, that bundle is named
//! in a note and the figure stays "not measured". `match_command` prints the match that
//! fills a gap: when it has been played, add its figure to `MEASURED`.

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

/// What is known about one switch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Figure {
    Measured(Measured),
    /// No match of this change alone; `note` names a match that included it, if any.
    NotMeasured {
        note: Option<&'static str>,
    },
}

/// Switches whose worth a match has measured as the same change.
const MEASURED: &[(&str, Measured)] = &[(
    "Debug_Correction",
    Measured {
        elo: 27.9,
        error: 17.2,
        source: "docs/search/features.md, second round, bundle 1: correction histories added \
                 (f9c55ae vs 9df16e9, SPRT H1, 713 games at 4+0.04), before razoring and ProbCut",
    },
)];

/// Switches measured only together with another one (the same match for both).
const BUNDLED: &[(&str, &str)] = &[
    (
        "Debug_Singular",
        "with Debug_IIR: singular extensions + IIR added, +104.3 ± 33.5 \
         (docs/search/features.md, Kept, 1bb63d2 vs 811ce9e, 279 games at 2+0.02)",
    ),
    (
        "Debug_IIR",
        "with Debug_Singular: singular extensions + IIR added, +104.3 ± 33.5 \
         (docs/search/features.md, Kept, 1bb63d2 vs 811ce9e, 279 games at 2+0.02)",
    ),
    (
        "Debug_Razoring",
        "with Debug_ProbCut: razoring + ProbCut added, +26.8 ± 16.6 \
         (docs/search/features.md, second round, bundle 2, f8bb271 vs f9c55ae, 651 games at 4+0.04)",
    ),
    (
        "Debug_ProbCut",
        "with Debug_Razoring: razoring + ProbCut added, +26.8 ± 16.6 \
         (docs/search/features.md, second round, bundle 2, f8bb271 vs f9c55ae, 651 games at 4+0.04)",
    ),
    (
        "Debug_LateMovePruning",
        "with Debug_Futility, before checks were exempt: +9 ± 33, stopped \
         (docs/search/features.md, Kept, second row, 269 games at 2+0.02)",
    ),
    (
        "Debug_Futility",
        "with Debug_LateMovePruning, before checks were exempt: +9 ± 33, stopped \
         (docs/search/features.md, Kept, second row, 269 games at 2+0.02)",
    ),
];

/// What is known about `switch` (a `Debug_` option name).
pub fn figure(switch: &str) -> Figure {
    if let Some((_, measured)) = MEASURED.iter().find(|(s, _)| *s == switch) {
        return Figure::Measured(*measured);
    }
    Figure::NotMeasured {
        note: BUNDLED
            .iter()
            .find(|(s, _)| *s == switch)
            .map(|(_, note)| *note),
    }
}

/// The match settings: those of docs/search/features.md's second round, a fixed number
/// of games instead of an SPRT (the answer wanted is a figure with its error).
pub const MATCH_TC: &str = "4+0.04";
pub const MATCH_GAMES: u32 = 200;
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
        for (switch, _) in MEASURED
            .iter()
            .map(|(s, m)| (s, Some(m)))
            .chain(BUNDLED.iter().map(|(s, _)| (s, None)))
        {
            assert!(SWITCH_OPTIONS.contains(switch), "{switch}");
        }
        assert!(matches!(figure("Debug_Correction"), Figure::Measured(m) if m.elo > 0.0));
        assert!(
            matches!(figure("Debug_IIR"), Figure::NotMeasured { note: Some(n) } if n.contains("Debug_Singular"))
        );
        assert_eq!(figure("Debug_LMR"), Figure::NotMeasured { note: None });
    }

    #[test]
    fn match_command_turns_one_switch_off() {
        let command = match_command("Debug_LMR", 33010);
        assert!(command.contains("name=no-LMR args=--dev opt.Debug_LMR=false --tc 4+0.04"));
        assert!(command.contains("--seed 33010"));
        assert_eq!(command.matches("opt.").count(), 1);
    }
}
