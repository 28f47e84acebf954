//! `UCI_Opponent`: who the GUI says Tabas plays against, in the UCI specification's
//! form `<title> <elo> <computer|human> <name>`, e.g. `GM 2800 human Magnus Carlsen`
//! or `none none computer Shredder` (python-chess, and so lichess-bot, send it so).
//!
//! Tabas reads it, logs it and keeps it, and plays the same whoever the opponent is:
//! its strength is the user's choice (`UCI_LimitStrength`, `UCI_Elo`), not something
//! to infer from a rating a GUI passes on. Where a use would be sound, e.g. contempt
//! against a much weaker opponent, it would need matches to show that it pays.

use super::words::UciError;

/// What `UCI_Opponent` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opponent {
    /// `GM`, `IM`, `FM`, `WGM`, `WIM`, or what a server uses (`BOT`, `NM`…); `None`
    /// for `none`.
    pub title: Option<String>,
    /// `None` for `none`.
    pub elo: Option<u32>,
    pub computer: bool,
    /// The rest of the value, as written (it may hold spaces, or be empty).
    pub name: String,
}

/// Ratings beyond this are not ratings.
const ELO_MAX: i64 = 10_000;

/// Reads a `UCI_Opponent` value; `None` for no opponent (nothing, empty, `<empty>`).
pub fn parse(value: Option<&str>) -> Result<Option<Opponent>, UciError> {
    let value = value.map(str::trim).unwrap_or_default();
    if value.is_empty() || value == "<empty>" {
        return Ok(None);
    }
    let form = "expected '<title> <elo> <computer|human> <name>'";
    let mut rest = value;
    let mut word = || {
        let text = rest.trim_start();
        let end = text.find(char::is_whitespace).unwrap_or(text.len());
        rest = &text[end..];
        (!text.is_empty()).then(|| &text[..end])
    };
    let (Some(title), Some(elo), Some(kind)) = (word(), word(), word()) else {
        return Err(UciError(format!("UCI_Opponent '{value}': {form}")));
    };
    let elo = if elo.eq_ignore_ascii_case("none") {
        None
    } else {
        match elo.parse::<i64>() {
            Ok(n) if (0..=ELO_MAX).contains(&n) => Some(n as u32),
            _ => {
                return Err(UciError(format!(
                    "UCI_Opponent '{value}': the rating '{elo}' is neither a number in 0..{ELO_MAX} nor 'none'"
                )));
            }
        }
    };
    let computer = match kind.to_ascii_lowercase().as_str() {
        "computer" => true,
        "human" => false,
        _ => {
            return Err(UciError(format!(
                "UCI_Opponent '{value}': '{kind}' is neither 'computer' nor 'human'"
            )));
        }
    };
    Ok(Some(Opponent {
        title: (!title.eq_ignore_ascii_case("none")).then(|| title.to_string()),
        elo,
        computer,
        name: rest.trim().to_string(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forms_a_gui_sends() {
        assert_eq!(
            parse(Some("GM 2800 human Magnus Carlsen")),
            Ok(Some(Opponent {
                title: Some("GM".into()),
                elo: Some(2800),
                computer: false,
                name: "Magnus Carlsen".into(),
            }))
        );
        assert_eq!(
            parse(Some(" none none computer  Stockfish 15.1 ")),
            Ok(Some(Opponent {
                title: None,
                elo: None,
                computer: true,
                name: "Stockfish 15.1".into(),
            }))
        );
        // lichess-bot: a server title, a rating, an empty name.
        let bot = parse(Some("BOT 1850 Computer")).unwrap().unwrap();
        assert_eq!((bot.title.as_deref(), bot.elo), (Some("BOT"), Some(1850)));
        assert!(bot.computer && bot.name.is_empty());
        for none in [None, Some(""), Some("  "), Some("<empty>")] {
            assert_eq!(parse(none), Ok(None), "{none:?}");
        }
    }

    #[test]
    fn malformed_values_are_errors() {
        for bad in [
            "GM",
            "GM 2800",
            "GM 2800 alien Zork",
            "GM twenty human Magnus",
            "GM -5 human Magnus",
            "GM 99999 human Magnus",
        ] {
            let e = parse(Some(bad)).unwrap_err();
            assert!(e.0.contains("UCI_Opponent"), "{bad}: {e:?}");
        }
    }
}
