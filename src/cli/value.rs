//! Value parsers for the subcommands' numbers: a value outside its range is an error naming
//! the bounds, never a silent clamp, so a typo is refused before any work starts.

use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// A clap value parser for any number of type `T`, with a message that names the value.
pub fn number<T: FromStr>(s: &str) -> Result<T, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a valid number"))
}

/// A clap value parser for a number within `range` (integers or floats; NaN is outside
/// every range).
pub fn number_in<T>(
    range: RangeInclusive<T>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + Display + Clone + Send + Sync + 'static,
{
    move |s: &str| {
        let v: T = number(s)?;
        if range.contains(&v) {
            Ok(v)
        } else {
            Err(format!(
                "must be from {} to {}, not {v}",
                range.start(),
                range.end()
            ))
        }
    }
}

/// A clap value parser for a finite number >= 0 (weights of a penalty).
pub fn non_negative(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        Ok(v) => Err(format!("must be a number >= 0, not {v}")),
        Err(_) => Err(format!("'{s}' is not a valid number")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_name_their_bounds() {
        let depth = number_in(1u64..=30);
        assert_eq!(depth("7"), Ok(7));
        assert_eq!(depth("99"), Err("must be from 1 to 30, not 99".into()));
        assert!(depth("-5").unwrap_err().contains("not a valid number"));
        let lambda = number_in(0.0..=1.0);
        assert_eq!(lambda("0.5"), Ok(0.5));
        assert!(lambda("NaN").is_err());
        assert!(non_negative("-1").is_err() && non_negative("inf").is_err());
        assert_eq!(non_negative("0.25"), Ok(0.25));
    }
}
