//! Tile notation, as runtime/notation.py derives it from the rule set: a kind with `code "5m"` is
//! written `5m` (digits share the letter: `123m`), one with a one-character `char` by that character;
//! whitespace separates tokens and commas are ignored. Here only the answer for valid text is made:
//! any mistake is `None`, and the Python notation writes the sentence that names it.

use std::collections::HashMap;

use crate::ruleset::RuleSet;

pub struct Notation {
    // (digit, ASCII letter) -> declared kind, at `digit * 128 + letter` (NONE: no such kind); read for
    // every tile of every hand, so a table rather than a map
    by_digit_letter: Vec<u32>,
    letter: [bool; 128], // the ASCII letters some digit is written with
    ascii_char: [u32; 128], // a kind written by one ASCII character (NONE: none)
    by_char: Vec<(char, u32)>, // a kind written by one other character, sorted by the character
}

const NONE: u32 = u32::MAX;

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
        // the maps give each key its last kind, as before; then laid out for reading
        let mut table = vec![NONE; 10 * 128];
        let mut letter = [false; 128];
        for (&(d, l), &i) in &by_digit_letter {
            table[(d as usize - '0' as usize) * 128 + l as usize] = i as u32;
            letter[l as usize] = true;
        }
        let mut ascii_char = [NONE; 128];
        let mut others: Vec<(char, u32)> = Vec::new();
        for (&c, &i) in &by_char {
            if c.is_ascii() {
                ascii_char[c as usize] = i as u32;
            } else {
                others.push((c, i as u32));
            }
        }
        others.sort_unstable();
        Notation { by_digit_letter: table, letter, ascii_char, by_char: others }
    }

    fn char_kind(&self, c: char) -> Option<usize> {
        let k = if c.is_ascii() {
            self.ascii_char[c as usize]
        } else {
            let i = self.by_char.binary_search_by_key(&c, |&(x, _)| x).ok()?;
            self.by_char[i].1
        };
        (k != NONE).then_some(k as usize)
    }

    /// The declared kinds written in `text`, in order; `None` on any mistake.
    pub fn parse(&self, text: &str) -> Option<Vec<usize>> {
        self.parse_within(text, usize::MAX)
    }

    /// `parse` of a text of at most `max_chars` characters (`None` for a longer one), in one pass over
    /// its characters with nothing made but the answer: the digits waiting for their letter are held
    /// in the answer itself and replaced by their kinds when it comes. Whitespace separates tokens
    /// (`str.split()`), so a digit before whitespace, a comma or another character is a mistake.
    pub fn parse_within(&self, text: &str, max_chars: usize) -> Option<Vec<usize>> {
        const NO_DIGITS: usize = usize::MAX;
        let mut out = Vec::with_capacity(text.len() / 2);
        let mut digits = NO_DIGITS; // where the digits waiting for their letter start in `out`
        for (n, c) in text.chars().enumerate() {
            if n >= max_chars {
                return None;
            }
            if c.is_ascii_digit() {
                if digits == NO_DIGITS {
                    digits = out.len();
                }
                out.push(c as usize - '0' as usize);
                continue;
            }
            if c.is_ascii_alphabetic() && self.letter[c as usize] {
                if digits == NO_DIGITS {
                    return None;
                }
                for d in &mut out[digits..] {
                    let k = self.by_digit_letter[*d * 128 + c as usize];
                    if k == NONE {
                        return None;
                    }
                    *d = k as usize;
                }
                digits = NO_DIGITS;
                continue;
            }
            if digits != NO_DIGITS {
                return None;
            }
            if c == ',' || c == '，' || py_space(c) {
                continue;
            }
            out.push(self.char_kind(c)?);
        }
        (digits == NO_DIGITS).then_some(out)
    }
}
