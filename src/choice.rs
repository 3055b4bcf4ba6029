//! Rule options whose value is one word of a fixed list, described once.
//!
//! A rules enum lists its words in `Choice::WORDS`: each value's first word is
//! its canonical name (printed in the canonical rules string), later words for
//! the same value are accepted aliases. Parsing, printing and the "accepted: ..."
//! list of an error message all read that one table, so they cannot drift apart.

use crate::error::{quote, Error, Result};

/// An option value spelled by one word of a fixed list.
pub(crate) trait Choice: Copy + PartialEq + Sized + 'static {
    /// `(word, value)` pairs; a value's first word is its canonical name.
    const WORDS: &'static [(&'static str, Self)];

    /// The canonical name of the value.
    fn word(self) -> &'static str {
        Self::WORDS
            .iter()
            .find(|(_, v)| *v == self)
            .map(|(w, _)| *w)
            .expect("every value of a Choice is listed in WORDS")
    }

    /// The value a word names, if any.
    fn from_word(word: &str) -> Option<Self> {
        Self::WORDS
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, v)| *v)
    }

    /// The accepted words for an error message: the canonical names, then the
    /// aliases in parentheses.
    fn accepted() -> String {
        let mut names: Vec<&str> = Vec::new();
        let mut aliases: Vec<&str> = Vec::new();
        for (i, (w, v)) in Self::WORDS.iter().enumerate() {
            if Self::WORDS[..i].iter().any(|(_, u)| u == v) {
                aliases.push(w);
            } else {
                names.push(w);
            }
        }
        if aliases.is_empty() {
            names.join(", ")
        } else {
            format!("{} (also {})", names.join(", "), aliases.join(", "))
        }
    }

    /// Parses `value` for option `key`, or a rules error listing the accepted words.
    fn parse_option(key: &str, value: &str) -> Result<Self> {
        Self::from_word(value).ok_or_else(|| {
            Error::Rules(format!(
                "bad value {} for {}; accepted: {}",
                quote(value),
                quote(key),
                Self::accepted()
            ))
        })
    }
}

/// `impl Choice` for enums from their word lists: `Type { "word" => Variant, ... }`
/// for each type, a value's first word its canonical name.
macro_rules! choice_words {
    ($($ty:ident { $($word:literal => $value:ident),+ $(,)? })+) => {
        $(impl $crate::choice::Choice for $ty {
            const WORDS: &'static [(&'static str, Self)] = &[$(($word, $ty::$value)),+];
        })+
    };
}
pub(crate) use choice_words;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Colour {
        Red,
        Green,
    }

    impl Choice for Colour {
        const WORDS: &'static [(&'static str, Self)] = &[
            ("red", Colour::Red),
            ("green", Colour::Green),
            ("vert", Colour::Green),
        ];
    }

    #[test]
    fn words_parse_print_and_list() {
        assert_eq!(Colour::from_word("vert"), Some(Colour::Green));
        assert_eq!(Colour::Green.word(), "green");
        assert_eq!(Colour::accepted(), "red, green (also vert)");
        let e = Colour::parse_option("colour", "blue")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("bad value 'blue' for 'colour'; accepted: red, green (also vert)"),
            "{e}"
        );
    }
}
