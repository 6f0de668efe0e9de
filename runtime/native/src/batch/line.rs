//! A batch file's lines, and one line read into the arguments of a score, as runtime/batch.py
//! `score_lines`, `parse_line` and `item_args` read them: at most MAX_BATCH_LINE bytes a line (a longer
//! one is refused without being held), UTF-8, blank lines skipped, then the JSON and the keys and types of
//! a batch item, each refusal the reference's own sentence.

use std::io::{self, BufRead};

use super::json::Json;
use super::parse::{loads, Limits};
use super::text::{is_blank, py_repr, PyText};

/// The keys a batch line may have, in the order the reference names them (runtime/batch.py BATCH_KEYS).
pub const BATCH_KEYS: [&str; 5] = ["hand", "melds", "win", "self_drawn", "set"];

/// One line of the file, as `stream.readline(MAX_BATCH_LINE + 1)` gives it.
pub enum Raw {
    Text(Vec<u8>),
    TooLong,
}

/// Reads lines of at most `max` bytes (the newline not counted), like the reference's
/// `readline(max + 1)`: a longer line is skipped to its end in pieces and reported as `TooLong`.
pub struct Lines<R: BufRead> {
    r: R,
    max: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    pub fn new(r: R, max: usize) -> Self {
        Lines { r, max, buf: Vec::new() }
    }

    /// Up to `limit` bytes, ending after the first newline: Python's `readline(limit)`.
    fn readline(&mut self, limit: usize) -> io::Result<()> {
        self.buf.clear();
        while self.buf.len() < limit {
            let avail = match self.r.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                break;
            }
            let room = (limit - self.buf.len()).min(avail.len());
            let (take, done) = match avail[..room].iter().position(|&c| c == b'\n') {
                Some(i) => (i + 1, true),
                None => (room, false),
            };
            self.buf.extend_from_slice(&avail[..take]);
            self.r.consume(take);
            if done {
                break;
            }
        }
        Ok(())
    }

    /// The next line, or None at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Raw>> {
        self.readline(self.max + 1)?;
        if self.buf.is_empty() {
            return Ok(None);
        }
        if self.buf.len() > self.max && !self.buf.ends_with(b"\n") {
            loop {
                self.readline(self.max + 1)?;
                if self.buf.is_empty() || self.buf.ends_with(b"\n") {
                    break;
                }
            }
            return Ok(Some(Raw::TooLong));
        }
        Ok(Some(Raw::Text(std::mem::take(&mut self.buf))))
    }
}

/// One hand to score: the arguments of `Rules.score` (runtime/batch.py `item_args`).
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub hand: PyText,
    pub melds: Vec<PyText>,
    pub win: Option<PyText>,
    pub self_drawn: bool,
    /// The `set` members in order, each a string, a bool, an integer or a finite float.
    pub context: Vec<(PyText, Json)>,
}

/// A line's bytes -> None (a blank line), the item, or the sentence that refuses it.
pub fn read_item(raw: &[u8], lim: &Limits) -> Result<Option<Item>, String> {
    let text = match std::str::from_utf8(raw) {
        Ok(t) => t,
        Err(e) => return Err(format!("the line is not UTF-8 text (byte {})", e.valid_up_to() + 1)),
    };
    if is_blank(text) {
        return Ok(None);
    }
    let doc = loads(text, lim).map_err(|r| r.0)?;
    item_args(doc).map(Some)
}

fn is_str(v: &Json) -> bool {
    matches!(v, Json::Str(_))
}

/// The checks of runtime/batch.py `item_args`, in its order, with its sentences.
pub fn item_args(doc: Json) -> Result<Item, String> {
    let Json::Obj(members) = doc else {
        return Err("each line must be a JSON object".into());
    };
    if let Some((k, _)) = members.iter().find(|(k, _)| !BATCH_KEYS.iter().any(|b| k.wtf8() == b.as_bytes())) {
        return Err(format!("unknown key {} (a line may have: {})", py_repr(k), BATCH_KEYS.join(", ")));
    }
    let mut item = Item { hand: PyText::default(), melds: vec![], win: None, self_drawn: false, context: vec![] };
    let mut fields: [Option<Json>; 5] = Default::default();
    for (k, v) in members {
        if let Some(n) = BATCH_KEYS.iter().position(|b| k.wtf8() == b.as_bytes()) {
            fields[n] = Some(v);
        }
    }
    let [hand, melds, win, self_drawn, set] = fields;
    match hand {
        None => {}
        Some(Json::Str(t)) => item.hand = t,
        Some(_) => return Err("`hand` must be a string of tiles".into()),
    }
    match melds {
        None | Some(Json::Null) => {}
        Some(Json::Arr(xs)) if xs.iter().all(is_str) => {
            item.melds = xs.into_iter().filter_map(|x| if let Json::Str(t) = x { Some(t) } else { None }).collect()
        }
        Some(_) => return Err("`melds` must be a list of KIND:TILES strings".into()),
    }
    match win {
        None | Some(Json::Null) => {}
        Some(Json::Str(t)) => item.win = Some(t),
        Some(_) => return Err("`win` must be a string (one tile) or null".into()),
    }
    match self_drawn {
        None => {}
        Some(Json::Bool(b)) => item.self_drawn = b,
        Some(_) => return Err("`self_drawn` must be true or false (a JSON boolean)".into()),
    }
    match set {
        None | Some(Json::Null) => {}
        Some(Json::Obj(ms)) => {
            for (k, v) in &ms {
                let ok = match v {
                    Json::Str(_) | Json::Bool(_) | Json::Int(_) | Json::BigInt(_) => true,
                    Json::Float(f) => f.is_finite(),
                    _ => false,
                };
                if !ok {
                    return Err(format!("`set` value of {} must be a string, a number or a boolean", py_repr(k)));
                }
            }
            item.context = ms;
        }
        Some(_) => return Err("`set` must be an object of NAME: VALUE".into()),
    }
    Ok(item)
}
