//! A Python `str` as the batch reader holds it, and the two things it must do to one exactly as Python
//! does: `repr` (error sentences quote a key with `{key!r}`) and `strip` (a line of only white space is
//! skipped). Python strings may hold lone surrogates (a JSON `"\ud800"` escape gives one); Rust strings
//! may not, so the text is kept as WTF-8 (UTF-8 that may also encode surrogate code points) with a flag.

use super::unicode::{NOT_PRINTABLE, SPACE};

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PyText {
    bytes: Bytes,
    surrogates: bool, // some code point is a lone surrogate (the bytes are then not UTF-8)
}

/// Text bytes, held in place when short (a batch line's keys and most of its values: no allocation
/// each), else on the heap.
#[derive(Clone)]
enum Bytes {
    Short(u8, [u8; SHORT]),
    Long(Vec<u8>),
}

const SHORT: usize = 22;

impl Bytes {
    fn of(b: &[u8]) -> Bytes {
        if b.len() <= SHORT {
            let mut buf = [0u8; SHORT];
            buf[..b.len()].copy_from_slice(b);
            Bytes::Short(b.len() as u8, buf)
        } else {
            Bytes::Long(b.to_vec())
        }
    }

    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Short(n, buf) => &buf[..*n as usize],
            Bytes::Long(v) => v,
        }
    }
}

impl Default for Bytes {
    fn default() -> Self {
        Bytes::Short(0, [0; SHORT])
    }
}

// equality, hashing and the debug form are those of the bytes, however they are held
impl PartialEq for Bytes {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Bytes {}

impl std::hash::Hash for Bytes {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_slice().hash(h)
    }
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl PyText {
    pub fn from_str(s: &str) -> PyText {
        PyText { bytes: Bytes::of(s.as_bytes()), surrogates: false }
    }

    /// From WTF-8 bytes (as written by `push`); `surrogates` says whether any code point is one.
    pub fn from_wtf8(bytes: Vec<u8>, surrogates: bool) -> PyText {
        let bytes = if bytes.len() <= SHORT { Bytes::of(&bytes) } else { Bytes::Long(bytes) };
        PyText { bytes, surrogates }
    }

    /// From WTF-8 bytes copied (kept in place when short).
    pub fn from_wtf8_slice(bytes: &[u8], surrogates: bool) -> PyText {
        PyText { bytes: Bytes::of(bytes), surrogates }
    }

    /// The text as UTF-8, or None when it holds a lone surrogate.
    pub fn as_str(&self) -> Option<&str> {
        if self.surrogates {
            None
        } else {
            std::str::from_utf8(self.bytes.as_slice()).ok()
        }
    }

    /// WTF-8 bytes; UTF-8 unless `has_surrogates`.
    pub fn wtf8(&self) -> &[u8] {
        self.bytes.as_slice()
    }

    pub fn has_surrogates(&self) -> bool {
        self.surrogates
    }

    /// The code points, lone surrogates included.
    pub fn code_points(&self) -> CodePoints<'_> {
        CodePoints { b: self.bytes.as_slice(), i: 0 }
    }
}

/// Appends one code point (a surrogate too) to WTF-8 bytes.
pub fn push_code_point(out: &mut Vec<u8>, c: u32) {
    if c < 0x80 {
        out.push(c as u8);
    } else if c < 0x800 {
        out.extend_from_slice(&[0xC0 | (c >> 6) as u8, 0x80 | (c & 0x3F) as u8]);
    } else if c < 0x10000 {
        out.extend_from_slice(&[0xE0 | (c >> 12) as u8, 0x80 | ((c >> 6) & 0x3F) as u8, 0x80 | (c & 0x3F) as u8]);
    } else {
        out.extend_from_slice(&[
            0xF0 | (c >> 18) as u8,
            0x80 | ((c >> 12) & 0x3F) as u8,
            0x80 | ((c >> 6) & 0x3F) as u8,
            0x80 | (c & 0x3F) as u8,
        ]);
    }
}

pub struct CodePoints<'a> {
    b: &'a [u8],
    i: usize,
}

impl Iterator for CodePoints<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        let b = self.b;
        let i = self.i;
        let first = *b.get(i)? as u32;
        let (n, init) = match first {
            0..=0x7F => (1, first),
            0xC0..=0xDF => (2, first & 0x1F),
            0xE0..=0xEF => (3, first & 0x0F),
            _ => (4, first & 0x07),
        };
        let mut c = init;
        for k in 1..n {
            c = (c << 6) | (*b.get(i + k).unwrap_or(&0x80) as u32 & 0x3F);
        }
        self.i = i + n;
        Some(c)
    }
}

fn in_ranges(table: &[(u32, u32)], c: u32) -> bool {
    // the ranges are sorted and disjoint: the last one starting at or below c is the only candidate
    let i = table.partition_point(|&(lo, _)| lo <= c);
    i > 0 && table[i - 1].1 >= c
}

/// Python's `str.isspace()` of one code point.
pub fn is_space(c: u32) -> bool {
    in_ranges(&SPACE, c)
}

/// Python's `str.isprintable()` of one code point.
pub fn is_printable(c: u32) -> bool {
    !in_ranges(&NOT_PRINTABLE, c)
}

/// Whether `str.strip()` of the text is empty.
pub fn is_blank(s: &str) -> bool {
    s.chars().all(|c| is_space(c as u32))
}

const HEX: &[u8; 16] = b"0123456789abcdef";

fn hex_escape(out: &mut String, prefix: char, c: u32, digits: u32) {
    out.push('\\');
    out.push(prefix);
    for k in (0..digits).rev() {
        out.push(HEX[((c >> (4 * k)) & 0xF) as usize] as char);
    }
}

/// Python's `repr()` of a str: single quotes unless the text holds one and no double quote, the
/// backslash escapes Python writes, and `\xNN`, `\uNNNN`, `\UNNNNNNNN` for what is not printable.
/// Every lone surrogate is written escaped, so the result is always UTF-8.
pub fn py_repr(t: &PyText) -> String {
    let has = |q: u32| t.code_points().any(|c| c == q);
    let quote = if has('\'' as u32) && !has('"' as u32) { '"' } else { '\'' };
    let mut out = String::with_capacity(t.wtf8().len() + 2);
    out.push(quote);
    for c in t.code_points() {
        match c {
            _ if c == quote as u32 || c == '\\' as u32 => {
                out.push('\\');
                out.push(char::from_u32(c).unwrap_or('?'));
            }
            0x09 => out.push_str("\\t"),
            0x0A => out.push_str("\\n"),
            0x0D => out.push_str("\\r"),
            _ if c < 0x20 || c == 0x7F => hex_escape(&mut out, 'x', c, 2),
            _ if c < 0x7F => out.push(c as u8 as char),
            _ if is_printable(c) => out.push(char::from_u32(c).unwrap_or('?')),
            _ if c <= 0xFF => hex_escape(&mut out, 'x', c, 2),
            _ if c <= 0xFFFF => hex_escape(&mut out, 'u', c, 4),
            _ => hex_escape(&mut out, 'U', c, 8),
        }
    }
    out.push(quote);
    out
}
