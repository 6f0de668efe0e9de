//! One batch line's JSON read as runtime/batch.py `parse_line` reads it: Python's `json.loads` (its C
//! scanner, step for step: the same values, the same first error at the same column) with the batch's
//! hooks — NaN and Infinity refused, an integer of more than MAX_NUMBER_DIGITS digits refused — and the
//! nesting bound MAX_BATCH_DEPTH: an array or object opened deeper is refused at the point it opens
//! (what the Python reference decides with `json_depth_exceeded`). Positions are counted in bytes while
//! reading and turned into Python's column (code points after the last newline, plus one) only for an
//! error; every test on a character is on an ASCII one, so byte and code-point reading agree.

use std::collections::HashMap;

use super::json::Json;
use super::text::{push_code_point, PyText};

/// Why a line's JSON was refused: the sentence runtime/batch.py `parse_line` gives.
#[derive(Debug, PartialEq)]
pub struct Refusal(pub String);

pub struct Limits {
    pub max_depth: usize,
    pub max_digits: usize,
    /// Python 3.13's scanner names a trailing comma (`[1,]`) itself; earlier ones say "Expecting value".
    pub trailing_comma_errors: bool,
}

enum Stop {
    Decode(&'static str, usize), // a JSONDecodeError: its message and byte position
    Refused(String),             // a hook's ValueError, or the nesting bound
}

struct Scanner<'a> {
    s: &'a [u8],
    lim: &'a Limits,
}

const NESTED: &str = "the JSON is nested too deeply";

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// `json.loads(text, parse_constant=…, parse_int=…)` with the batch's bounds.
pub fn loads(text: &str, lim: &Limits) -> Result<Json, Refusal> {
    let sc = Scanner { s: text.as_bytes(), lim };
    match sc.document() {
        Ok(v) => Ok(v),
        Err(Stop::Refused(m)) => Err(Refusal(m)),
        Err(Stop::Decode(msg, pos)) => Err(Refusal(format!("not JSON ({msg} at column {})", column(text, pos)))),
    }
}

/// Python's JSONDecodeError.colno of a byte position: code points since the last newline before it, + 1.
fn column(text: &str, pos: usize) -> usize {
    let before = &text.as_bytes()[..pos];
    let from = before.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
    text[from..pos].chars().count() + 1
}

impl Scanner<'_> {
    fn skip_ws(&self, mut i: usize) -> usize {
        while i < self.s.len() && is_ws(self.s[i]) {
            i += 1;
        }
        i
    }

    fn at(&self, i: usize) -> Option<u8> {
        self.s.get(i).copied()
    }

    fn document(&self) -> Result<Json, Stop> {
        if self.s.starts_with("\u{feff}".as_bytes()) {
            return Err(Stop::Decode("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0));
        }
        let start = self.skip_ws(0);
        let (v, end) = self.value(start, 0)?;
        let end = self.skip_ws(end);
        if end != self.s.len() {
            return Err(Stop::Decode("Extra data", end));
        }
        Ok(v)
    }

    /// One value at `i` (`scan_once`); "Expecting value" is Python's StopIteration there.
    fn value(&self, i: usize, depth: usize) -> Result<(Json, usize), Stop> {
        let s = self.s;
        let Some(c) = self.at(i) else {
            return Err(Stop::Decode("Expecting value", i));
        };
        let follows = |word: &[u8]| s.len() > i + word.len() && &s[i + 1..=i + word.len()] == word;
        match c {
            b'"' => return self.string(i + 1).map(|(t, e)| (Json::Str(t), e)),
            b'{' | b'[' => {
                if depth >= self.lim.max_depth {
                    return Err(Stop::Refused(NESTED.into()));
                }
                return if c == b'{' { self.object(i + 1, depth + 1) } else { self.array(i + 1, depth + 1) };
            }
            b'n' if follows(b"ull") => return Ok((Json::Null, i + 4)),
            b't' if follows(b"rue") => return Ok((Json::Bool(true), i + 4)),
            b'f' if follows(b"alse") => return Ok((Json::Bool(false), i + 5)),
            b'N' if follows(b"aN") => return Err(Stop::Refused("NaN is not a JSON number".into())),
            b'I' if follows(b"nfinity") => return Err(Stop::Refused("Infinity is not a JSON number".into())),
            b'-' if follows(b"Infinity") => return Err(Stop::Refused("-Infinity is not a JSON number".into())),
            _ => {}
        }
        self.number(i)
    }

    fn digit(&self, i: usize) -> bool {
        self.at(i).is_some_and(|c| c.is_ascii_digit())
    }

    /// `_match_number_unicode`, its look-ahead conditions as written there.
    fn number(&self, start: usize) -> Result<(Json, usize), Stop> {
        let s = self.s;
        let last = s.len() as isize - 1; // Python's end_idx
        let mut i = start;
        if s[i] == b'-' {
            i += 1;
            if i as isize > last {
                return Err(Stop::Decode("Expecting value", start));
            }
        }
        if (b'1'..=b'9').contains(&s[i]) {
            i += 1;
            while self.digit(i) {
                i += 1;
            }
        } else if s[i] == b'0' {
            i += 1;
        } else {
            return Err(Stop::Decode("Expecting value", start));
        }
        let mut float = false;
        if (i as isize) < last && s[i] == b'.' && s[i + 1].is_ascii_digit() {
            float = true;
            i += 2;
            while self.digit(i) {
                i += 1;
            }
        }
        if (i as isize) < last && (s[i] == b'e' || s[i] == b'E') {
            let e_start = i;
            i += 1;
            if (i as isize) < last && (s[i] == b'-' || s[i] == b'+') {
                i += 1;
            }
            while self.digit(i) {
                i += 1;
            }
            if s[i - 1].is_ascii_digit() {
                float = true;
            } else {
                i = e_start;
            }
        }
        // the text is ASCII digits, signs, '.', 'e': UTF-8
        let text = std::str::from_utf8(&s[start..i]).unwrap_or("0");
        if float {
            return Ok((Json::Float(text.parse::<f64>().unwrap_or(f64::NAN)), i));
        }
        let digits = text.trim_start_matches('-');
        if digits.len() > self.lim.max_digits {
            return Err(Stop::Refused(format!("a number has more than {} digits", self.lim.max_digits)));
        }
        let v = match text.parse::<i64>() {
            Ok(n) => Json::Int(n),
            Err(_) => Json::BigInt(text.to_string()), // at most max_digits digits, no leading zero
        };
        Ok((v, i))
    }

    fn hex4(&self, from: usize) -> Option<u32> {
        let mut c = 0u32;
        for k in 0..4 {
            let d = (self.at(from + k)? as char).to_digit(16)?;
            c = (c << 4) | d;
        }
        Some(c)
    }

    /// `scanstring_unicode`: the string whose opening quote is at `begin - 1`; (text, index after it).
    fn string(&self, begin: usize) -> Result<(PyText, usize), Stop> {
        let s = self.s;
        let len = s.len();
        let quote = begin - 1;
        let mut out: Vec<u8> = Vec::new();
        let mut surrogates = false;
        let mut end = begin;
        loop {
            let mut next = end;
            while next < len && s[next] != b'"' && s[next] != b'\\' {
                if s[next] <= 0x1F {
                    return Err(Stop::Decode("Invalid control character at", next));
                }
                next += 1;
            }
            if next >= len {
                return Err(Stop::Decode("Unterminated string starting at", quote));
            }
            if s[next] == b'"' && out.is_empty() {
                // no escape before the closing quote: the text is the bytes between (most keys and values)
                return Ok((PyText::from_wtf8_slice(&s[end..next], surrogates), next + 1));
            }
            out.extend_from_slice(&s[end..next]);
            if s[next] == b'"' {
                return Ok((PyText::from_wtf8(out, surrogates), next + 1));
            }
            next += 1; // past the backslash
            if next == len {
                return Err(Stop::Decode("Unterminated string starting at", quote));
            }
            let c = s[next];
            if c != b'u' {
                let ch = match c {
                    b'"' | b'\\' | b'/' => c,
                    b'b' => 0x08,
                    b'f' => 0x0C,
                    b'n' => b'\n',
                    b'r' => b'\r',
                    b't' => b'\t',
                    _ => return Err(Stop::Decode("Invalid \\escape", next - 1)),
                };
                out.push(ch);
                end = next + 1;
                continue;
            }
            let u = next; // the 'u'
            next += 1;
            end = next + 4;
            if end >= len {
                return Err(Stop::Decode("Invalid \\uXXXX escape", u));
            }
            let Some(mut cp) = self.hex4(next) else {
                return Err(Stop::Decode("Invalid \\uXXXX escape", u));
            };
            if (0xD800..0xDC00).contains(&cp) && end + 6 < len && s[end] == b'\\' && s[end + 1] == b'u' {
                let Some(low) = self.hex4(end + 2) else {
                    return Err(Stop::Decode("Invalid \\uXXXX escape", end + 1));
                };
                if (0xDC00..0xE000).contains(&low) {
                    cp = 0x10000 + (((cp - 0xD800) << 10) | (low - 0xDC00));
                    end += 6;
                }
            }
            surrogates |= (0xD800..0xE000).contains(&cp);
            push_code_point(&mut out, cp);
        }
    }

    fn object(&self, start: usize, depth: usize) -> Result<(Json, usize), Stop> {
        let mut members: Vec<(PyText, Json)> = Vec::new();
        let mut index: HashMap<PyText, usize> = HashMap::new(); // once there are many members
        let mut i = self.skip_ws(start);
        if self.at(i) != Some(b'}') {
            loop {
                if self.at(i) != Some(b'"') {
                    return Err(Stop::Decode("Expecting property name enclosed in double quotes", i));
                }
                let (key, next) = self.string(i + 1)?;
                i = self.skip_ws(next);
                if self.at(i) != Some(b':') {
                    return Err(Stop::Decode("Expecting ':' delimiter", i));
                }
                i = self.skip_ws(i + 1);
                let (v, next) = self.value(i, depth)?;
                i = next;
                let found = if members.len() < 8 {
                    members.iter().position(|(k, _)| *k == key)
                } else {
                    if index.is_empty() {
                        index = members.iter().enumerate().map(|(n, (k, _))| (k.clone(), n)).collect();
                    }
                    index.get(&key).copied()
                };
                match found {
                    Some(n) => members[n].1 = v,
                    None => {
                        if !index.is_empty() {
                            index.insert(key.clone(), members.len());
                        }
                        members.push((key, v));
                    }
                }
                i = self.skip_ws(i);
                if self.at(i) == Some(b'}') {
                    break;
                }
                if self.at(i) != Some(b',') {
                    return Err(Stop::Decode("Expecting ',' delimiter", i));
                }
                let comma = i;
                i = self.skip_ws(i + 1);
                if self.lim.trailing_comma_errors && self.at(i) == Some(b'}') {
                    return Err(Stop::Decode("Illegal trailing comma before end of object", comma));
                }
            }
        }
        Ok((Json::Obj(members), i + 1))
    }

    fn array(&self, start: usize, depth: usize) -> Result<(Json, usize), Stop> {
        let mut items = Vec::new();
        let mut i = self.skip_ws(start);
        if self.at(i) != Some(b']') {
            loop {
                let (v, next) = self.value(i, depth)?;
                items.push(v);
                i = self.skip_ws(next);
                if self.at(i) == Some(b']') {
                    break;
                }
                if self.at(i) != Some(b',') {
                    return Err(Stop::Decode("Expecting ',' delimiter", i));
                }
                let comma = i;
                i = self.skip_ws(i + 1);
                if self.lim.trailing_comma_errors && self.at(i) == Some(b']') {
                    return Err(Stop::Decode("Illegal trailing comma before end of array", comma));
                }
            }
        }
        Ok((Json::Arr(items), i + 1))
    }
}
