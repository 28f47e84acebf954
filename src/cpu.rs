//! What instruction sets this binary was compiled for, and whether the CPU it runs
//! on has them: a binary built for x86-64-v3 or v4 (`make levels`) says so and
//! stops, instead of dying of an illegal instruction in the middle of a game.

/// The x86-64 features a level binary may be compiled with, in level order.
const FEATURES: [&str; 17] = [
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
];

/// The features this binary was compiled to use without asking the CPU.
pub fn compiled_for() -> Vec<&'static str> {
    FEATURES.into_iter().filter(|&f| compiled_with(f)).collect()
}

/// `cfg!(target_feature)` needs the name written out: one arm per feature.
fn compiled_with(feature: &str) -> bool {
    match feature {
        "sse3" => cfg!(target_feature = "sse3"),
        "ssse3" => cfg!(target_feature = "ssse3"),
        "sse4.1" => cfg!(target_feature = "sse4.1"),
        "sse4.2" => cfg!(target_feature = "sse4.2"),
        "popcnt" => cfg!(target_feature = "popcnt"),
        "cmpxchg16b" => cfg!(target_feature = "cmpxchg16b"),
        "avx" => cfg!(target_feature = "avx"),
        "avx2" => cfg!(target_feature = "avx2"),
        "bmi1" => cfg!(target_feature = "bmi1"),
        "bmi2" => cfg!(target_feature = "bmi2"),
        "fma" => cfg!(target_feature = "fma"),
        "lzcnt" => cfg!(target_feature = "lzcnt"),
        "movbe" => cfg!(target_feature = "movbe"),
        "avx512f" => cfg!(target_feature = "avx512f"),
        "avx512bw" => cfg!(target_feature = "avx512bw"),
        "avx512cd" => cfg!(target_feature = "avx512cd"),
        "avx512dq" => cfg!(target_feature = "avx512dq"),
        _ => false,
    }
}

/// Whether the running CPU has `feature` (true off x86-64, where nothing is checked).
fn cpu_has(feature: &str) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        match feature {
            "sse3" => has!("sse3"),
            "ssse3" => has!("ssse3"),
            "sse4.1" => has!("sse4.1"),
            "sse4.2" => has!("sse4.2"),
            "popcnt" => has!("popcnt"),
            "cmpxchg16b" => has!("cmpxchg16b"),
            "avx" => has!("avx"),
            "avx2" => has!("avx2"),
            "bmi1" => has!("bmi1"),
            "bmi2" => has!("bmi2"),
            "fma" => has!("fma"),
            "lzcnt" => has!("lzcnt"),
            "movbe" => has!("movbe"),
            "avx512f" => has!("avx512f"),
            "avx512bw" => has!("avx512bw"),
            "avx512cd" => has!("avx512cd"),
            "avx512dq" => has!("avx512dq"),
            _ => true,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = feature;
        true
    }
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
