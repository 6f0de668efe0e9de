//! Tile notation, as runtime/notation.py derives it from the rule set: a kind with `code "5m"` is
//! written `5m` (digits share the letter: `123m`), one with a one-character `char` by that character;
//! whitespace separates tokens and commas are ignored. Here only the answer for valid text is made:
//! any mistake is `None`, and the Python notation writes the sentence that names it.

use std::collections::HashMap;

use crate::ruleset::RuleSet;

pub struct Notation {
    by_digit_letter: HashMap<(char, char), usize>, // (digit, letter) -> declared kind
    by_char: HashMap<char, usize>,
    letters: Vec<char>,
}

/// Python's `str.isspace` (and so `str.split()`): Unicode white space and the four ASCII separators.
pub fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

impl Notation {
    pub fn new(rs: &RuleSet) -> Notation {
        let mut by_digit_letter = HashMap::new();
        let mut by_char = HashMap::new();
        for (i, k) in rs.kinds.iter().enumerate() {
            let cs: Vec<char> = k.code.chars().collect();
            // `code[:-1].isdigit() and code[-1]` an ASCII letter; only one ASCII digit can be written
            if cs.len() == 2 && cs[0].is_ascii_digit() && cs[1].is_ascii_alphabetic() {
                by_digit_letter.insert((cs[0], cs[1]), i);
            }
            let ch: Vec<char> = k.char_.chars().collect();
            if ch.len() == 1 {
                by_char.insert(ch[0], i);
            }
        }
        let mut letters: Vec<char> = by_digit_letter.keys().map(|&(_, l)| l).collect();
        letters.sort_unstable();
        letters.dedup();
        Notation { by_digit_letter, by_char, letters }
    }

    /// The declared kinds written in `text`, in order; `None` on any mistake.
    pub fn parse(&self, text: &str) -> Option<Vec<usize>> {
        let mut out = Vec::with_capacity(text.len() / 2);
        // digits waiting for their letter; empty again at the end of every token (else a mistake)
        let mut digits: Vec<char> = Vec::new();
        for tok in text.split(py_space).filter(|t| !t.is_empty()) {
            for c in tok.chars() {
                if c == ',' || c == '，' {
                    if !digits.is_empty() {
                        return None;
                    }
                    continue;
                }
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if c.is_ascii_alphabetic() && self.letters.contains(&c) {
                    if digits.is_empty() {
                        return None;
                    }
                    for d in digits.drain(..) {
                        out.push(*self.by_digit_letter.get(&(d, c))?);
                    }
                    continue;
                }
                if !digits.is_empty() {
                    return None;
                }
                out.push(*self.by_char.get(&c)?);
            }
            if !digits.is_empty() {
                return None;
            }
        }
        Some(out)
    }
}
