//! JSON values in the order they were written, and a writer whose bytes are exactly those of Python's
//! `json.dumps(obj, ensure_ascii=False)` (the CLI's output): separators `, ` and `: `, only `"`, `\` and
//! the control characters escaped (`\n`, `\r`, `\t`, `\b`, `\f`, else `\u00XX`), floats as `repr(float)`
//! writes them (the shortest text that reads back the same, `1e-05`, `1e+16`, `-0.0`), non-finite ones as
//! `NaN`, `Infinity`, `-Infinity`, integers of any size. A lone surrogate, which Python would hold in a
//! str but no UTF-8 stream can carry, is written as its `\udXXX` escape: the line stays UTF-8 and reads
//! back as the same str (runtime/batch.py `output_line` does the same on the Python path).

use super::text::PyText;

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i64),
    /// An integer outside i64, as its decimal digits (with a leading `-` when negative).
    BigInt(String),
    Float(f64),
    Str(PyText),
    Arr(Vec<Json>),
    /// The members in the order of their first appearance (a repeated key keeps its first place and
    /// takes the last value, as a Python dict built from them does).
    Obj(Vec<(PyText, Json)>),
}

/// `json.dumps(v, ensure_ascii=False)` of `v`, appended to `out`.
pub fn write(out: &mut Vec<u8>, v: &Json) {
    match v {
        Json::Null => out.extend_from_slice(b"null"),
        Json::Bool(true) => out.extend_from_slice(b"true"),
        Json::Bool(false) => out.extend_from_slice(b"false"),
        Json::Int(i) => write_int(out, *i),
        Json::BigInt(digits) => out.extend_from_slice(digits.as_bytes()),
        Json::Float(f) => out.extend_from_slice(float_json(*f).as_bytes()),
        Json::Str(s) => write_str(out, s),
        Json::Arr(items) => {
            out.push(b'[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                write(out, x);
            }
            out.push(b']');
        }
        Json::Obj(members) => {
            out.push(b'{');
            for (i, (k, x)) in members.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                write_str(out, k);
                out.extend_from_slice(b": ");
                write(out, x);
            }
            out.push(b'}');
        }
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The decimal digits of `n` (a leading `-` when negative), as `str(n)` writes them, without allocating.
pub fn write_int(out: &mut Vec<u8>, n: i64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut m = n.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if n < 0 {
        out.push(b'-');
    }
    out.extend_from_slice(&buf[i..]);
}

fn write_str(out: &mut Vec<u8>, s: &PyText) {
    write_wtf8(out, s.wtf8(), s.has_surrogates());
}

/// A Rust str as `json.dumps(ensure_ascii=False)` writes it (for writers of values not held as `Json`).
pub fn write_text(out: &mut Vec<u8>, s: &str) {
    write_wtf8(out, s.as_bytes(), false);
}

/// Whether a byte cannot be copied as it is: the quote, the backslash and the control characters (escaped), and 0xED,
/// the first byte of a surrogate's WTF-8 (looked at only in a text holding surrogates).
const SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[0xED] = true;
    t
};

fn write_wtf8(out: &mut Vec<u8>, b: &[u8], surrogates: bool) {
    out.reserve(b.len() + 2);
    out.push(b'"');
    let mut i = 0;
    while i < b.len() {
        // the bytes copied as they are, a run at a time
        let start = i;
        while i < b.len() && !SPECIAL[b[i] as usize] {
            i += 1;
        }
        out.extend_from_slice(&b[start..i]);
        if i >= b.len() {
            break;
        }
        let c = b[i];
        let esc: Option<&[u8]> = match c {
            b'"' => Some(b"\\\""),
            b'\\' => Some(b"\\\\"),
            b'\n' => Some(b"\\n"),
            b'\r' => Some(b"\\r"),
            b'\t' => Some(b"\\t"),
            0x08 => Some(b"\\b"),
            0x0C => Some(b"\\f"),
            _ => None,
        };
        if let Some(e) = esc {
            out.extend_from_slice(e);
            i += 1;
        } else if c < 0x20 {
            out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(c >> 4) as usize], HEX[(c & 0xF) as usize]]);
            i += 1;
        } else if c == 0xED && surrogates && b.get(i + 1).is_some_and(|&x| x >= 0xA0) && i + 2 < b.len() {
            // a surrogate code point, three bytes of WTF-8: its escape
            let cp = 0xD000 | ((b[i + 1] as u32 & 0x3F) << 6) | (b[i + 2] as u32 & 0x3F);
            out.extend_from_slice(b"\\u");
            for k in (0..4).rev() {
                out.push(HEX[((cp >> (4 * k)) & 0xF) as usize]);
            }
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out.push(b'"');
}

/// A float as `json.dumps` writes it: `repr(f)`, or NaN / Infinity / -Infinity.
pub fn float_json(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    float_repr(f)
}

/// Python's `repr(f)` of a finite float: the shortest digits that read back as `f` (`shortest_digits`),
/// laid out as Python does: positional when the decimal point falls within -4 < exponent + 1 <= 16, else
/// `d.ddde±XX` with at least two exponent digits.
pub fn float_repr(f: f64) -> String {
    let (digits, exp) = shortest_digits(f.abs());
    let decpt = exp + 1; // digits d1 d2 … stand for 0.d1d2… × 10^decpt
    let n = digits.len() as i32;
    let mut out = String::new();
    if f.is_sign_negative() {
        out.push('-');
    }
    if decpt <= -4 || decpt > 16 {
        out.push_str(&digits[..1]);
        if n > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let e = decpt - 1;
        out.push_str(&format!("e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs()));
    } else if decpt <= 0 {
        out.push_str("0.");
        out.push_str(&"0".repeat((-decpt) as usize));
        out.push_str(&digits);
    } else if decpt >= n {
        out.push_str(&digits);
        out.push_str(&"0".repeat((decpt - n) as usize));
        out.push_str(".0");
    } else {
        out.push_str(&digits[..decpt as usize]);
        out.push('.');
        out.push_str(&digits[decpt as usize..]);
    }
    out
}

fn split_sci(sci: &str) -> (String, i32) {
    let (mant, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    (mant.chars().filter(|c| c.is_ascii_digit()).collect(), exp.parse().unwrap_or(0))
}

/// The shortest significant digits that read back as `x` (x >= 0) and the decimal exponent of the first,
/// as Python's repr chooses them. Rust's `{:e}` finds the same shortest length, but where two candidates
/// of that length are exactly as near to `x` it rounds the half up and Python (David Gay's dtoa) to the
/// even digit: such a tie is recognised from the exact decimal expansion of `x` (every f64 has one of at
/// most 767 significant digits) and the even candidate taken when it reads back as `x` too.
fn shortest_digits(x: f64) -> (String, i32) {
    let (digits, exp) = split_sci(&format!("{x:e}"));
    let n = digits.len();
    let last = digits.as_bytes()[n - 1] - b'0';
    if x == 0.0 || last.is_multiple_of(2) {
        return (digits, exp);
    }
    let (exact, exact_exp) = split_sci(&format!("{x:.800e}"));
    let tail = &exact.as_bytes()[n..];
    if exact_exp != exp || tail[0] != b'5' || tail[1..].iter().any(|&c| c != b'0') {
        return (digits, exp);
    }
    // a tie between the n-digit truncation and the one above it: the other candidate, if it has the even digit
    let trunc = &exact[..n];
    let other = if digits == trunc {
        let mut b = digits.clone().into_bytes();
        b[n - 1] += 1; // odd, so below 9: no carry
        String::from_utf8(b).unwrap_or_default()
    } else {
        trunc.to_string()
    };
    let reads_back = format!("{other}e{}", exp - (n as i32 - 1)).parse::<f64>() == Ok(x);
    if reads_back && (other.as_bytes()[n - 1] - b'0').is_multiple_of(2) {
        (other, exp)
    } else {
        (digits, exp)
    }
}
