//! Command-line arguments of `genfens` and of the tools (`tabas datagen`, `tabas tune`):
//! a flag's value, read as a number within its range, or an error that says what was
//! wanted.

use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// The value `text` of `flag` as an integer within `range`.
pub fn whole<T>(flag: &str, text: &str, range: RangeInclusive<T>) -> Result<T, String>
where
    T: FromStr + PartialOrd + Display,
{
    within(flag, text, range, "a whole number")
}

/// The value `text` of `flag` as a real number within `range`.
#[cfg_attr(
    not(feature = "tools"),
    allow(dead_code, reason = "only the tools (src/tools/) read real numbers")
)]
pub fn real(flag: &str, text: &str, range: RangeInclusive<f64>) -> Result<f64, String> {
    within(flag, text, range, "a number")
}

fn within<T>(flag: &str, text: &str, range: RangeInclusive<T>, kind: &str) -> Result<T, String>
where
    T: FromStr + PartialOrd + Display,
{
    text.parse::<T>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            format!(
                "{flag} must be {kind} in {}..={}, not '{text}'",
                range.start(),
                range.end()
            )
        })
}

/// `text`'s words as a command line's arguments: how the tools' tests write one.
#[cfg(all(test, feature = "tools"))]
pub(crate) fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_within_their_range_and_clear_errors_otherwise() {
        assert_eq!(whole("--games", "12", 1..=100u64), Ok(12));
        assert_eq!(
            whole("--games", "0", 1..=100u64),
            Err("--games must be a whole number in 1..=100, not '0'".to_string())
        );
        assert!(whole("--games", "-3", 1..=100u64).is_err());
        assert!(whole("--games", "99999999999999999999999", 1..=u64::MAX).is_err());
        assert_eq!(real("--lambda", "0.25", 0.0..=1.0), Ok(0.25));
        assert_eq!(
            real("--lambda", "2", 0.0..=1.0),
            Err("--lambda must be a number in 0..=1, not '2'".to_string())
        );
        assert!(real("--lambda", "NaN", 0.0..=1.0).is_err());
    }
}
