//! `paili score RULES --batch FILE --json` in Rust: the lines read and refused as runtime/batch.py
//! `score_lines` does (line.rs, parse.rs), each item handed to the scorers in turn, every output line
//! written by one buffered writer (json.rs: byte for byte what the Python path prints).
//!
//! The scorers are the seam between the reading and the scoring: the first one that takes an item
//! answers it. A native scorer of whole hands goes first; one answering `NotCovered` passes the item on,
//! and the last one is the Python reference (binding.rs `PyFallback`), which takes every item, so the
//! output never depends on which scorer answered; the run counts how many lines each one scored.

mod binding;
mod lane;
pub mod json;
pub mod line;
mod native;
mod setup;
pub mod parse;
pub mod text;
mod unicode;

use std::collections::HashMap;
use std::io::{self, BufRead};

use self::json::Json;
use self::line::{read_item, Item, Lines, Raw};
use self::parse::Limits;
use self::text::PyText;

pub use self::binding::register;

/// What a scorer makes of one item.
pub enum Outcome {
    /// The output line (the result's JSON text, UTF-8, no newline): what the reference gives, and what
    /// the native scorer of whole hands writes (src/hand/json.rs, byte for byte the reference's).
    Line(Vec<u8>),
    /// The one sentence that kept the hand from being scored (what a HandError says).
    Refused(PyText),
    /// Not an item this scorer takes: the next scorer answers it.
    NotCovered,
    /// Stop the run (the scorer keeps the reason: a Python exception that is not a refusal).
    Abort,
}

/// One way of scoring an item. `context` names the item's `set` values: equal values get the same
/// number while the batch keeps them (CONTEXTS_KEPT), so a scorer can keep what it builds per context
/// (the expression environment) under that number, as runtime/batch.py `Batch.env` does.
pub trait LineScorer {
    fn score(&mut self, item: &Item, context: u64) -> Outcome;
}

/// Distinct `set` objects seen, each numbered; at most `kept` at once (then forgotten, and numbered
/// anew: a number is never reused).
pub struct Contexts {
    ids: HashMap<Vec<u8>, u64>,
    next: u64,
    kept: usize,
    key: Vec<u8>, // the key being written, its buffer kept from line to line (copied only when new)
}

impl Contexts {
    pub fn new(kept: usize) -> Self {
        Contexts { ids: HashMap::new(), next: 1, kept, key: Vec::new() }
    }

    /// The number of a context; 0 for the empty one. The key writes each value with its type, as
    /// runtime/batch.py `_context_key` does: `true`, `1` and `1.0` are different settings.
    pub fn id(&mut self, members: &[(PyText, Json)]) -> u64 {
        if members.is_empty() {
            return 0;
        }
        let key = &mut self.key;
        key.clear();
        for (k, v) in members {
            key.extend_from_slice(k.wtf8());
            key.push(0xFF); // never in UTF-8 text: the separator
            key.push(match v {
                Json::Bool(_) => b'b',
                Json::Int(_) | Json::BigInt(_) => b'i',
                Json::Float(_) => b'f',
                _ => b's',
            });
            json::write(key, v);
            key.push(0xFF);
        }
        if let Some(&n) = self.ids.get(key.as_slice()) {
            return n;
        }
        if self.ids.len() >= self.kept {
            self.ids.clear();
        }
        let n = self.next;
        self.next += 1;
        self.ids.insert(key.clone(), n);
        n
    }
}

/// What a run did: lines read (blank ones too), lines that failed, and lines each scorer scored.
#[derive(Debug, Default)]
pub struct Stats {
    pub lines: usize,
    pub failed: usize,
    pub scored_by: Vec<usize>,
    pub aborted: bool,
}

pub struct Config {
    pub limits: Limits,
    pub max_line: usize,
    pub contexts_kept: usize,
}

/// An output sink taking whole lines (flushed in large pieces).
pub trait Sink {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()>;
}

const FLUSH_AT: usize = 1 << 16;

/// The whole batch: every line of `input` to `sink`, each item to the first scorer that takes it.
pub fn run(input: impl BufRead, sink: &mut dyn Sink, cfg: &Config, scorers: &mut [&mut dyn LineScorer]) -> io::Result<Stats> {
    let mut lines = Lines::new(input, cfg.max_line);
    let mut contexts = Contexts::new(cfg.contexts_kept);
    let mut stats = Stats { scored_by: vec![0; scorers.len()], ..Stats::default() };
    let mut out: Vec<u8> = Vec::with_capacity(FLUSH_AT + 4096);
    while let Some(raw) = lines.next_line()? {
        stats.lines += 1;
        let n = stats.lines;
        let got = match raw {
            Raw::TooLong => Err(PyText::from_str(&format!("the line is longer than {} bytes", cfg.max_line))),
            Raw::Text(bytes) => match read_item(&bytes, &cfg.limits) {
                Ok(None) => continue,
                Err(sentence) => Err(PyText::from_str(&sentence)),
                Ok(Some(item)) => {
                    let ctx = contexts.id(&item.context);
                    let mut answer = Outcome::NotCovered;
                    for (k, s) in scorers.iter_mut().enumerate() {
                        answer = s.score(&item, ctx);
                        if matches!(answer, Outcome::Line(_)) {
                            stats.scored_by[k] += 1;
                        }
                        if !matches!(answer, Outcome::NotCovered) {
                            break;
                        }
                    }
                    match answer {
                        Outcome::Line(bytes) => {
                            out.extend_from_slice(&bytes);
                            Ok(())
                        }
                        Outcome::Refused(sentence) => Err(sentence),
                        Outcome::NotCovered => Err(PyText::from_str("no scorer takes this hand")),
                        Outcome::Abort => {
                            stats.aborted = true;
                            break;
                        }
                    }
                }
            },
        };
        if let Err(sentence) = got {
            stats.failed += 1;
            write_error(&mut out, n, &sentence);
        }
        out.push(b'\n');
        if out.len() >= FLUSH_AT {
            sink.put(&out)?;
            out.clear();
        }
    }
    if !out.is_empty() {
        sink.put(&out)?;
    }
    Ok(stats)
}

/// `{"line": N, "error": "line N: …"}`, the reference's object for a line that failed.
fn write_error(out: &mut Vec<u8>, n: usize, sentence: &PyText) {
    let mut msg = format!("line {n}: ").into_bytes();
    msg.extend_from_slice(sentence.wtf8());
    let obj = Json::Obj(vec![
        (PyText::from_str("line"), Json::Int(n as i64)),
        (PyText::from_str("error"), Json::Str(PyText::from_wtf8(msg, sentence.has_surrogates()))),
    ]);
    json::write(out, &obj);
}

/// A JSON line that may hold lone surrogates (WTF-8) made UTF-8: each written as its `\udXXX` escape
/// (they can only stand inside strings, where the escape reads back as the same code point).
pub fn escape_surrogates(wtf8: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(wtf8.len() + 8);
    let mut i = 0;
    while i < wtf8.len() {
        if wtf8[i] == 0xED && wtf8.get(i + 1).is_some_and(|&b| b >= 0xA0) && i + 2 < wtf8.len() {
            let cp = 0xD000 | ((wtf8[i + 1] as u32 & 0x3F) << 6) | (wtf8[i + 2] as u32 & 0x3F);
            out.extend_from_slice(format!("\\u{cp:04x}").as_bytes());
            i += 3;
        } else {
            out.push(wtf8[i]);
            i += 1;
        }
    }
    out
}
