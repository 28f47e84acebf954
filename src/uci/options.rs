//! The option table: what `uci` lists and `setoption` accepts.
//!
//! Names are matched case-insensitively (UCI spec). Values out of range or of the
//! wrong type are refused with an error and leave the option unchanged.
//! `Debug_*` options switch parts of the search off for measurement; they are
//! accepted but not listed, so GUIs never show them to players. Neither is
//! `Strength Seed`, which fixes the choices of a limited strength for tests (`tabas
//! --dev` lists them all).

use super::opponent::{self, Opponent};
use super::words::{UciError, parse_number};
use crate::search::strength::{ELO_DEFAULT, ELO_MAX, ELO_MIN, SKILL_MAX, skill_level_elo};
use crate::search::{NodesMode, SWITCH_OPTIONS, SearchConfig};
use crate::tablebase::{self, EMPTY_PATH, TbConfig};

pub const HASH_DEFAULT_MB: i64 = crate::tt::DEFAULT_MB as i64;
pub const HASH_MAX_MB: i64 = 65_536;
pub const THREADS_MAX: i64 = 256;
pub const MULTIPV_MAX: i64 = 256;
pub const MOVE_OVERHEAD_DEFAULT_MS: i64 = 10;
pub const MOVE_OVERHEAD_MAX_MS: i64 = 5_000;

/// The option values of a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    /// Lines to search and report (MultiPV).
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub chess960: bool,
    /// Stored, and on purpose changes nothing: Tabas ponders whenever a `go ponder` comes,
    /// and the UCI spec's reason for this option, a time plan that counts on ponder hits,
    /// is left out. A hit already pays for itself: its search counts the time spent
    /// pondering (`Control::elapsed`), so it moves sooner and the time saved goes
    /// back to the time manager, which plans each move as a share of what is left.
    /// Stockfish also plans 25 % more per move when Ponder is on, a bet on hits to come;
    /// whether that pays for Tabas has not been measured (docs/time/README.md, "Pondering").
    pub ponder: bool,
    /// `UCI_ShowWDL`: `wdl W D L` after the score in `info` lines.
    pub show_wdl: bool,
    pub search: SearchConfig,
    /// `SyzygyProbeDepth`, `Syzygy50MoveRule`, `SyzygyProbeLimit` (the path lives
    /// with the tables it loaded, in the engine).
    pub syzygy: TbConfig,
    /// `Use NNUE`: evaluate with a network (`EvalFile`'s, else the built-in one)
    /// rather than the hand-written evaluation.
    pub use_nnue: bool,
    /// `UCI_LimitStrength`: play at `elo`, not at full strength.
    pub limit_strength: bool,
    /// `UCI_Elo`: the level when the strength is limited.
    pub elo: u32,
    /// `Skill Level` (0..=20; 20, the default: full strength), for GUIs and scripts
    /// written for Stockfish: a level below 20 plays at `skill_level_elo(skill)`,
    /// unless `UCI_LimitStrength` is on (then `UCI_Elo` decides, as in Stockfish).
    pub skill_level: u32,
    /// `UCI_AnalyseMode`: the GUI analyses; full strength whatever the limit says.
    pub analyse_mode: bool,
    /// `UCI_Opponent`: kept and logged; it changes nothing (see `opponent`).
    pub opponent: Option<Opponent>,
    /// `Strength Seed` (not listed): seeds a limited strength's choices, so that a
    /// test replays the same moves; 0, the default: a seed of the process's own.
    pub strength_seed: u64,
    /// `Debug_DatagenNodes` (not listed but with `--dev`): how `go nodes N` is read, so
    /// that a match can play `tabas datagen`'s searches against each other.
    pub nodes_mode: NodesMode,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: HASH_DEFAULT_MB as usize,
            threads: 1,
            multipv: 1,
            move_overhead_ms: MOVE_OVERHEAD_DEFAULT_MS as u64,
            chess960: false,
            ponder: false,
            show_wdl: false,
            search: SearchConfig::default(),
            syzygy: TbConfig::default(),
            use_nnue: use_nnue_default(),
            limit_strength: false,
            elo: ELO_DEFAULT,
            skill_level: SKILL_MAX,
            analyse_mode: false,
            opponent: None,
            strength_seed: 0,
            nodes_mode: NodesMode::Hard,
        }
    }
}

impl Options {
    /// The Elo a search plays at: `None` at full strength. `UCI_AnalyseMode` first
    /// (analysis is at full strength), then `UCI_LimitStrength` with `UCI_Elo`, then
    /// `Skill Level` below 20: the order Stockfish follows.
    pub fn strength_elo(&self) -> Option<u32> {
        if self.analyse_mode {
            None
        } else if self.limit_strength {
            Some(self.elo)
        } else if self.skill_level < SKILL_MAX {
            Some(skill_level_elo(self.skill_level))
        } else {
            None
        }
    }
}

/// Networks are on by default when the build has one.
fn use_nnue_default() -> bool {
    crate::nnue::embedded().is_some()
}

/// What a successful `setoption` asks the engine to do beyond storing the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionEffect {
    None,
    ResizeHash,
    ClearHash,
    /// Start or end search threads.
    SetThreads,
    /// Load the tables of this `SyzygyPath` (it may fail: the old ones stay).
    LoadTablebases(String),
    /// Probe the tables with the new `Options::syzygy`.
    TablebaseConfig,
    /// Load the network of this `EvalFile` (it may fail: the old one stays);
    /// `None`: the built-in network.
    LoadNetwork(Option<String>),
    /// Evaluate with a network or not (`Options::use_nnue`).
    Evaluation,
    /// `Options::opponent` changed: logged.
    Opponent,
}

/// What GUIs show, and some send back, for an empty string option.
const EMPTY_STRING: &str = "<empty>";

/// An `EvalFile` value for the network built into the binary, kept from earlier
/// versions (whose default it was; GUIs showed it as if it were a file name).
pub const BUILT_IN_NETWORK: &str = "<built-in>";

/// `EvalFile`'s default: the built-in network's name (`nnue::embedded_name`), or
/// `<empty>` in a build without one.
pub fn eval_file_default() -> &'static str {
    crate::nnue::embedded_name().unwrap_or(EMPTY_STRING)
}

/// The name of the option that seeds a limited strength's choices (not listed but with
/// `--dev`).
pub const STRENGTH_SEED: &str = "Strength Seed";

/// The name of the option that opens the debug log (see `debug_log`).
pub const DEBUG_LOG_FILE: &str = "Debug Log File";

/// The name of the option that reads `go nodes N` as `tabas datagen --nodes N` does
/// (`NodesMode`; not listed but with `--dev`).
pub const DATAGEN_NODES: &str = "Debug_DatagenNodes";

/// The file a `Debug Log File` value names; `None`: no log (empty, `<empty>`, no value).
pub fn debug_log_path(value: Option<&str>) -> Option<String> {
    value
        .map(str::trim)
        .filter(|v| !v.is_empty() && *v != EMPTY_STRING)
        .map(str::to_string)
}

/// The `option …` lines of the `uci` reply; with `dev`, the `Debug_*` switches too.
pub fn declarations(dev: bool) -> Vec<String> {
    let mut lines = vec![
        format!("option name Hash type spin default {HASH_DEFAULT_MB} min 1 max {HASH_MAX_MB}"),
        format!("option name Threads type spin default 1 min 1 max {THREADS_MAX}"),
        format!("option name MultiPV type spin default 1 min 1 max {MULTIPV_MAX}"),
        format!(
            "option name Move Overhead type spin default {MOVE_OVERHEAD_DEFAULT_MS} min 0 max {MOVE_OVERHEAD_MAX_MS}"
        ),
        "option name Clear Hash type button".to_string(),
        "option name Ponder type check default false".to_string(),
        "option name UCI_Chess960 type check default false".to_string(),
        "option name UCI_ShowWDL type check default false".to_string(),
        format!("option name SyzygyPath type string default {EMPTY_PATH}"),
        format!(
            "option name SyzygyProbeDepth type spin default {} min 1 max {}",
            TbConfig::default().probe_depth,
            tablebase::MAX_PROBE_DEPTH
        ),
        "option name Syzygy50MoveRule type check default true".to_string(),
        format!(
            "option name SyzygyProbeLimit type spin default {0} min 0 max {0}",
            tablebase::MAX_PIECES
        ),
        format!("option name {DEBUG_LOG_FILE} type string default {EMPTY_STRING}"),
        format!(
            "option name Use NNUE type check default {}",
            use_nnue_default()
        ),
        format!(
            "option name EvalFile type string default {}",
            eval_file_default()
        ),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!("option name UCI_Elo type spin default {ELO_DEFAULT} min {ELO_MIN} max {ELO_MAX}"),
        format!("option name Skill Level type spin default {SKILL_MAX} min 0 max {SKILL_MAX}"),
        "option name UCI_AnalyseMode type check default false".to_string(),
        format!("option name UCI_Opponent type string default {EMPTY_STRING}"),
    ];
    if dev {
        for name in SWITCH_OPTIONS {
            lines.push(format!("option name {name} type check default true"));
        }
        lines.push(format!(
            "option name {STRENGTH_SEED} type spin default 0 min 0 max {}",
            i64::MAX
        ));
        let vars: Vec<String> = NodesMode::ALL
            .iter()
            .map(|m| format!("var {}", m.name()))
            .collect();
        lines.push(format!(
            "option name {DATAGEN_NODES} type combo default {} {}",
            NodesMode::Hard.name(),
            vars.join(" ")
        ));
    }
    #[cfg(feature = "tuning")]
    for t in crate::search::params::TUNABLES {
        lines.push(format!(
            "option name {} type spin default {} min {} max {}",
            t.name, t.default, t.min, t.max
        ));
    }
    lines
}

fn spin(value: Option<&str>, name: &str, min: i64, max: i64) -> Result<i64, UciError> {
    let v = value.ok_or_else(|| UciError(format!("option '{name}' needs a value")))?;
    let n = parse_number(v, name)?;
    if n < min || n > max {
        return Err(UciError(format!(
            "option '{name}': {n} is outside {min}..{max}"
        )));
    }
    Ok(n)
}

fn check(value: Option<&str>, name: &str) -> Result<bool, UciError> {
    match value.map(|v| v.to_ascii_lowercase()) {
        Some(v) if v == "true" => Ok(true),
        Some(v) if v == "false" => Ok(false),
        _ => Err(UciError(format!(
            "option '{name}' needs the value 'true' or 'false'"
        ))),
    }
}

impl Options {
    /// Applies `setoption name <name> value <value>`; on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<OptionEffect, UciError> {
        let key = name.to_ascii_lowercase();
        let value = value.map(str::trim);
        match key.as_str() {
            "hash" => {
                self.hash_mb = spin(value, name, 1, HASH_MAX_MB)? as usize;
                Ok(OptionEffect::ResizeHash)
            }
            "threads" => {
                self.threads = spin(value, name, 1, THREADS_MAX)? as usize;
                Ok(OptionEffect::SetThreads)
            }
            "multipv" => {
                self.multipv = spin(value, name, 1, MULTIPV_MAX)? as usize;
                Ok(OptionEffect::None)
            }
            "move overhead" => {
                self.move_overhead_ms = spin(value, name, 0, MOVE_OVERHEAD_MAX_MS)? as u64;
                Ok(OptionEffect::None)
            }
            "clear hash" => Ok(OptionEffect::ClearHash),
            "ponder" => {
                self.ponder = check(value, name)?;
                Ok(OptionEffect::None)
            }
            "uci_chess960" => {
                self.chess960 = check(value, name)?;
                Ok(OptionEffect::None)
            }
            "uci_showwdl" => {
                self.show_wdl = check(value, name)?;
                Ok(OptionEffect::None)
            }
            // No value (a GUI clearing the field) means no tables, as `<empty>` does.
            "syzygypath" => Ok(OptionEffect::LoadTablebases(
                value.unwrap_or_default().to_string(),
            )),
            "syzygyprobedepth" => {
                self.syzygy.probe_depth =
                    spin(value, name, 1, tablebase::MAX_PROBE_DEPTH as i64)? as i32;
                Ok(OptionEffect::TablebaseConfig)
            }
            "syzygy50moverule" => {
                self.syzygy.rule50 = check(value, name)?;
                Ok(OptionEffect::TablebaseConfig)
            }
            "syzygyprobelimit" => {
                self.syzygy.probe_limit =
                    spin(value, name, 0, tablebase::MAX_PIECES as i64)? as usize;
                Ok(OptionEffect::TablebaseConfig)
            }
            "use nnue" => {
                self.use_nnue = check(value, name)?;
                Ok(OptionEffect::Evaluation)
            }
            // No value, `<empty>`, the default (the built-in network's name) or the old
            // default `<built-in>`: the built-in network.
            "evalfile" => Ok(OptionEffect::LoadNetwork(
                value
                    .filter(|v| {
                        !v.is_empty()
                            && *v != EMPTY_STRING
                            && *v != BUILT_IN_NETWORK
                            && Some(*v) != crate::nnue::embedded_name()
                    })
                    .map(str::to_string),
            )),
            "uci_limitstrength" => {
                self.limit_strength = check(value, name)?;
                Ok(OptionEffect::None)
            }
            "uci_elo" => {
                self.elo = spin(value, name, ELO_MIN.into(), ELO_MAX.into())? as u32;
                Ok(OptionEffect::None)
            }
            "skill level" => {
                self.skill_level = spin(value, name, 0, SKILL_MAX.into())? as u32;
                Ok(OptionEffect::None)
            }
            "uci_analysemode" => {
                self.analyse_mode = check(value, name)?;
                Ok(OptionEffect::None)
            }
            "uci_opponent" => {
                self.opponent = opponent::parse(value)?;
                Ok(OptionEffect::Opponent)
            }
            _ if key.eq_ignore_ascii_case(DATAGEN_NODES) => {
                let v = value.unwrap_or_default();
                self.nodes_mode = NodesMode::from_name(v).ok_or_else(|| {
                    let names: Vec<&str> = NodesMode::ALL.iter().map(|m| m.name()).collect();
                    UciError(format!(
                        "option '{name}': '{v}' is not one of {}",
                        names.join(", ")
                    ))
                })?;
                Ok(OptionEffect::None)
            }
            _ if key.eq_ignore_ascii_case(STRENGTH_SEED) => {
                self.strength_seed = spin(value, name, 0, i64::MAX)? as u64;
                Ok(OptionEffect::None)
            }
            // Opened or closed by the stdin reader as the line arrives, so that every
            // line read after it is logged (`command::on_arrival`): nothing left to do.
            _ if key.eq_ignore_ascii_case(DEBUG_LOG_FILE) => Ok(OptionEffect::None),
            _ if self.search.switch_mut(&key).is_some() => {
                let on = check(value, name)?;
                if let Some(switch) = self.search.switch_mut(&key) {
                    *switch = on;
                }
                Ok(OptionEffect::None)
            }
            #[cfg(feature = "tuning")]
            _ if self.search.params.get_mut(&key).is_some() => {
                let t = crate::search::params::TUNABLES
                    .iter()
                    .find(|t| t.name.eq_ignore_ascii_case(&key))
                    .expect("every field is a tunable");
                let v = spin(value, name, t.min as i64, t.max as i64)? as i32;
                if let Some(field) = self.search.params.get_mut(&key) {
                    *field = v;
                }
                Ok(OptionEffect::None)
            }
            _ => Err(UciError(format!("unknown option '{name}'"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive() {
        let mut o = Options::default();
        assert_eq!(o.set("hAsH", Some("64")), Ok(OptionEffect::ResizeHash));
        assert_eq!(o.hash_mb, 64);
        o.set("move overhead", Some("50")).unwrap();
        assert_eq!(o.move_overhead_ms, 50);
        o.set("UCI_CHESS960", Some("TRUE")).unwrap();
        assert!(o.chess960);
        o.set("uci_showwdl", Some("true")).unwrap();
        assert!(o.show_wdl);
    }

    #[test]
    fn bad_values_leave_options_unchanged() {
        let mut o = Options::default();
        let before = o.clone();
        assert!(o.set("Hash", Some("0")).is_err());
        assert!(o.set("Hash", Some("65537")).is_err());
        assert!(o.set("Hash", Some("lots")).is_err());
        assert!(o.set("Hash", None).is_err());
        assert!(o.set("Threads", Some("-1")).is_err());
        assert!(o.set("MultiPV", Some("0")).is_err());
        assert!(o.set("MultiPV", Some("257")).is_err());
        assert!(o.set("UCI_Chess960", Some("yes")).is_err());
        assert!(o.set("SyzygyProbeDepth", Some("0")).is_err());
        assert!(o.set("SyzygyProbeDepth", Some("101")).is_err());
        assert!(o.set("SyzygyProbeLimit", Some("8")).is_err());
        assert!(o.set("SyzygyProbeLimit", Some("-1")).is_err());
        assert!(o.set("Syzygy50MoveRule", Some("1")).is_err());
        assert!(o.set("NoSuchOption", Some("1")).is_err());
        assert!(o.set("Use NNUE", Some("1")).is_err());
        assert!(o.set("UCI_Elo", Some(&(ELO_MIN - 1).to_string())).is_err());
        assert!(o.set("UCI_Elo", Some(&(ELO_MAX + 1).to_string())).is_err());
        assert!(o.set("UCI_Elo", Some("strong")).is_err());
        assert!(o.set("UCI_Elo", None).is_err());
        assert!(o.set("UCI_LimitStrength", Some("on")).is_err());
        assert!(o.set("UCI_AnalyseMode", Some("yes")).is_err());
        assert!(o.set("UCI_Opponent", Some("GM lots human X")).is_err());
        assert!(o.set("Strength Seed", Some("-1")).is_err());
        assert!(o.set("Debug_DatagenNodes", Some("sometimes")).is_err());
        assert!(o.set("Debug_DatagenNodes", None).is_err());
        assert_eq!(o, before);
    }

    #[test]
    fn strength_options() {
        let mut o = Options::default();
        assert_eq!(o.strength_elo(), None, "full strength by default");
        o.set("UCI_Elo", Some("2000")).unwrap();
        assert_eq!(o.strength_elo(), None, "UCI_Elo alone limits nothing");
        o.set("uci_limitstrength", Some("true")).unwrap();
        assert_eq!(o.strength_elo(), Some(2000));
        o.set("UCI_AnalyseMode", Some("true")).unwrap();
        assert_eq!(o.strength_elo(), None, "analysis is at full strength");
        o.set("UCI_AnalyseMode", Some("false")).unwrap();
        for elo in [ELO_MIN, ELO_MAX] {
            o.set("UCI_Elo", Some(&elo.to_string())).unwrap();
            assert_eq!(o.strength_elo(), Some(elo));
        }
        assert_eq!(
            o.set("UCI_Opponent", Some("IM 2450 human Anna Ushenina")),
            Ok(OptionEffect::Opponent)
        );
        assert_eq!(o.opponent.as_ref().map(|p| p.elo), Some(Some(2450)));
        o.set("UCI_Opponent", Some("<empty>")).unwrap();
        assert_eq!(o.opponent, None);
        // Skill Level: Stockfish's mapping onto the measured levels; UCI_LimitStrength
        // with UCI_Elo takes precedence, analysis is at full strength.
        o.set("UCI_LimitStrength", Some("false")).unwrap();
        assert_eq!(o.strength_elo(), None);
        let mapped: Vec<u32> = (0..SKILL_MAX).map(skill_level_elo).collect();
        // Points worked by hand from 1346.6 + 143.4 · skill^0.806.
        assert_eq!(
            (mapped[0], mapped[1], mapped[10], mapped[11]),
            (1350, 1490, 2264, 2337)
        );
        assert!(mapped.windows(2).all(|w| w[0] <= w[1]));
        // 12 would be 2409: beyond the strongest measured level.
        assert!(mapped[12..].iter().all(|&elo| elo == ELO_MAX));
        for skill in 0..SKILL_MAX {
            o.set("Skill Level", Some(&skill.to_string())).unwrap();
            assert_eq!(o.strength_elo(), Some(mapped[skill as usize]), "{skill}");
        }
        o.set("Skill Level", Some("20")).unwrap();
        assert_eq!(o.strength_elo(), None, "Skill Level 20 is full strength");
        o.set("Skill Level", Some("3")).unwrap();
        o.set("UCI_LimitStrength", Some("true")).unwrap();
        o.set("UCI_Elo", Some("2200")).unwrap();
        assert_eq!(o.strength_elo(), Some(2200), "UCI_Elo over Skill Level");
        o.set("UCI_AnalyseMode", Some("true")).unwrap();
        assert_eq!(o.strength_elo(), None);
        o.set("UCI_AnalyseMode", Some("false")).unwrap();
        for bad in ["-1", "21", "strong"] {
            assert!(o.set("Skill Level", Some(bad)).is_err(), "{bad}");
        }
        assert_eq!(o.skill_level, 3, "a refused value changes nothing");
        o.set("Strength Seed", Some("12345")).unwrap();
        assert_eq!(o.strength_seed, 12345);
        let listed = |dev| declarations(dev).iter().any(|l| l.contains(STRENGTH_SEED));
        assert!(!listed(false) && listed(true));
    }

    #[test]
    fn debug_log_file_is_a_path_or_off() {
        let path = |p: &str| Some(p.to_string());
        assert_eq!(debug_log_path(Some("/tmp/a.log")), path("/tmp/a.log"));
        assert_eq!(debug_log_path(Some(" x y.log ")), path("x y.log"));
        for off in [None, Some(""), Some("  "), Some("<empty>")] {
            assert_eq!(debug_log_path(off), None, "{off:?}");
        }
        let mut o = Options::default();
        assert_eq!(
            o.set("debug LOG file", Some("/tmp/a.log")),
            Ok(OptionEffect::None)
        );
        assert_eq!(o, Options::default());
    }

    #[test]
    fn tunables_are_options_only_in_the_tuning_build() {
        let mut o = Options::default();
        let set = o.set("LMR_Base", Some("100"));
        let offered = declarations(true)
            .iter()
            .any(|l| l.starts_with("option name lmr_base "));
        #[cfg(feature = "tuning")]
        {
            assert_eq!(set, Ok(OptionEffect::None));
            assert_eq!(o.search.params.lmr_base, 100);
            assert!(o.set("lmr_base", Some("5000")).is_err(), "out of range");
            assert_eq!(o.search.params.lmr_base, 100);
            assert!(offered);
        }
        #[cfg(not(feature = "tuning"))]
        {
            // The numbers are constants: no option sets them.
            assert!(set.is_err());
            assert_eq!(o.search, SearchConfig::default());
            assert!(!offered);
        }
    }

    #[test]
    fn debug_switches_turn_search_parts_off() {
        let mut o = Options::default();
        for name in SWITCH_OPTIONS {
            let mut one = Options::default();
            one.set(name, Some("false")).unwrap();
            assert_ne!(
                one.search,
                SearchConfig::default(),
                "{name} changes nothing"
            );
            o.set(name, Some("false")).unwrap();
        }
        let c = o.search;
        assert!(
            !(c.aspiration
                || c.pvs
                || c.tt_cutoffs
                || c.killers
                || c.history
                || c.mvv_lva
                || c.null_move
                || c.quiescence
                || c.quiescence_tt
                || c.lmr
                || c.reverse_futility
                || c.late_move_pruning
                || c.futility
                || c.see
                || c.adaptive_time)
        );
    }

    #[test]
    fn syzygy_options() {
        let mut o = Options::default();
        assert_eq!(o.syzygy, TbConfig::default());
        assert_eq!(
            o.set("SyzygyPath", Some("/tb/345:/tb/6")),
            Ok(OptionEffect::LoadTablebases("/tb/345:/tb/6".into()))
        );
        assert_eq!(
            o.set("syzygypath", None),
            Ok(OptionEffect::LoadTablebases(String::new()))
        );
        assert_eq!(o, Options::default(), "the path is the engine's to keep");
        let effect = Ok(OptionEffect::TablebaseConfig);
        assert_eq!(o.set("SyzygyProbeDepth", Some("12")), effect);
        assert_eq!(o.set("Syzygy50MoveRule", Some("false")), effect);
        assert_eq!(o.set("SyzygyProbeLimit", Some("0")), effect);
        let expected = TbConfig {
            probe_depth: 12,
            rule50: false,
            probe_limit: 0,
        };
        assert_eq!(o.syzygy, expected);
    }

    #[test]
    fn evaluation_options() {
        let mut o = Options::default();
        assert_eq!(
            o.set("use nnue", Some("false")),
            Ok(OptionEffect::Evaluation)
        );
        assert!(!o.use_nnue);
        assert_eq!(
            o.set("EvalFile", Some(" nets/a b.nnue ")),
            Ok(OptionEffect::LoadNetwork(Some("nets/a b.nnue".into())))
        );
        for built_in in [
            None,
            Some(""),
            Some("<empty>"),
            Some(BUILT_IN_NETWORK),
            Some(eval_file_default()),
        ] {
            assert_eq!(
                o.set("evalfile", built_in),
                Ok(OptionEffect::LoadNetwork(None)),
                "{built_in:?}"
            );
        }
    }

    #[test]
    fn every_declared_option_is_settable() {
        for line in declarations(true) {
            let name = line
                .trim_start_matches("option name ")
                .split(" type ")
                .next()
                .unwrap()
                .to_string();
            let min = line.split(" min ").nth(1).and_then(|r| r.split(' ').next());
            let value = if line.contains("type spin") {
                min
            } else if line.contains("type check") {
                Some("false")
            } else if line.contains("type combo") {
                line.split(" default ")
                    .nth(1)
                    .and_then(|r| r.split(' ').next())
            } else {
                None
            };
            assert!(Options::default().set(&name, value).is_ok(), "{name}");
        }
    }
}
