//! What instruction sets this binary was compiled for, and whether the CPU it runs
//! on has them: a binary built for x86-64-v3 or v4 (`make levels`) says so and
//! stops, instead of dying of an illegal instruction in the middle of a game.

/// Whether the running CPU has feature `$f` (always true off x86-64: nothing is checked).
#[cfg(target_arch = "x86_64")]
macro_rules! detected {
    ($f:tt) => {
        std::arch::is_x86_feature_detected!($f)
    };
}
#[cfg(not(target_arch = "x86_64"))]
macro_rules! detected {
    ($f:tt) => {
        true
    };
}

/// `cfg!` and the CPU check need each name written out: one list, read by both.
macro_rules! features {
    ($($f:tt),+ $(,)?) => {
        /// The x86-64 features a level binary may be compiled with, in level order: each
        /// one's name, whether this binary was compiled to use it without asking the
        /// CPU, and whether the running CPU has it.
        fn features() -> Vec<(&'static str, bool, bool)> {
            vec![$(($f, cfg!(target_feature = $f), detected!($f))),+]
        }
    };
}

features!(
    "sse3",
    "ssse3",
    "sse4.1",
    "sse4.2",
    "popcnt",
    "cmpxchg16b",
    "avx",
    "avx2",
    "bmi1",
    "bmi2",
    "fma",
    "lzcnt",
    "movbe",
    "avx512f",
    "avx512bw",
    "avx512cd",
    "avx512dq",
);

/// The features this binary was compiled to use without asking the CPU.
pub fn compiled_for() -> Vec<&'static str> {
    features()
        .into_iter()
        .filter(|&(_, compiled, _)| compiled)
        .map(|(name, _, _)| name)
        .collect()
}

/// Whether the running CPU has `feature` (true for a name not in the list).
fn cpu_has(feature: &str) -> bool {
    features()
        .into_iter()
        .all(|(name, _, has)| name != feature || has)
}

/// The microarchitecture level a set of compiled features amounts to.
pub fn level_of(compiled: &[&str]) -> &'static str {
    let all = |fs: &[&str]| fs.iter().all(|f| compiled.contains(f));
    if all(&[
        "avx512f", "avx512bw", "avx512cd", "avx512dq", "avx2", "bmi2",
    ]) {
        "x86-64-v4"
    } else if all(&["avx2", "bmi1", "bmi2", "fma", "movbe"]) {
        "x86-64-v3"
    } else if all(&["sse4.2", "popcnt", "ssse3"]) {
        "x86-64-v2"
    } else {
        "x86-64"
    }
}

/// The compiled features that `has` says the CPU lacks.
fn missing<'a>(compiled: &[&'a str], has: impl Fn(&str) -> bool) -> Vec<&'a str> {
    compiled.iter().copied().filter(|f| !has(f)).collect()
}

/// `None` when this CPU runs this binary; else what to tell the user.
pub fn unsupported() -> Option<String> {
    let compiled = compiled_for();
    let lacking = missing(&compiled, cpu_has);
    (!lacking.is_empty()).then(|| message(level_of(&compiled), &lacking))
}

fn message(level: &str, lacking: &[&str]) -> String {
    format!(
        "tabas: this binary is built for {level}, and this CPU lacks {}. \
         Use the x86-64 (portable) or a lower level's binary, or build for this CPU \
         with 'cargo build --release' or 'make native'.",
        lacking.join(", ")
    )
}

/// For tests of code that runs only on AVX2 (the engine's SIMD evaluation, the trainer's
/// wide loops): whether this CPU has AVX2; says so on stderr when it has not, so that a
/// test that returns early for it is seen to have checked nothing.
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) fn avx2_to_test() -> bool {
    let has = std::arch::is_x86_feature_detected!("avx2");
    if !has {
        eprintln!("this CPU has no AVX2: the AVX2 code is not tested here");
    }
    has
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cpu_without_a_compiled_feature_is_named_with_the_level() {
        let v3 = ["sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", "avx", "avx2"]
            .into_iter()
            .chain(["bmi1", "bmi2", "fma", "lzcnt", "movbe"])
            .collect::<Vec<_>>();
        assert_eq!(level_of(&v3), "x86-64-v3");
        // An x86-64-v2 CPU: no AVX at all.
        let lacking = missing(&v3, |f| !f.starts_with("avx") && !f.starts_with("bmi"));
        assert_eq!(lacking, ["avx", "avx2", "bmi1", "bmi2"]);
        let text = message(level_of(&v3), &lacking);
        assert!(
            text.contains("x86-64-v3") && text.contains("avx2"),
            "{text}"
        );
        assert!(missing(&v3, |_| true).is_empty());
        assert_eq!(level_of(&[]), "x86-64");
        assert_eq!(
            level_of(&["sse3", "ssse3", "sse4.1", "sse4.2", "popcnt"]),
            "x86-64-v2"
        );
    }

    #[test]
    fn the_cpu_that_built_and_runs_the_tests_runs_this_binary() {
        assert_eq!(unsupported(), None);
        for f in compiled_for() {
            assert!(cpu_has(f), "{f}");
        }
    }
}
