//! Payments, natively (runtime/game/settle.py): for each payment on an event whose `when` holds (per
//! payer–payee pair, `payer` and `payee` bound), every pair its `from` and `to` words give — never a
//! player to themself — moves `amount` × every `factor` whose `when` holds; a negative amount flows the
//! other way, zero is skipped. A `cap balance` bounds the amount by the payer's (or the payee's) balance,
//! never below zero; the fees withhold their rate of it from what the payee receives. Money is exact
//! (`Money`, a fraction in lowest terms, as `Fraction` holds it; past 64 bits the run is refused).
//!
//! A payment whose words concern a winner is made once per winner at an event of the hand once its play
//! is over (with that winner's bindings, `Game.winner_binding`, given to the run), and only for the one
//! win at that win's events (`ONE_WIN`).

// the payments by event, asked at every event: the core's fast keyed hash (src/hash.rs), not SipHash
type HashMap<K, V> = std::collections::HashMap<K, V, crate::hash::Keyed>;

use std::borrow::Cow;

use serde_json::{Map, Value as J};

use super::event_rules::{text, Exprs};
use super::events::{slot, unbound, Bind, Deferred, Halt, Run, B_WINNER, H};
use super::scope::{B_PAYEE, B_PAYER};
use super::state::{Money, Payment as Paid};
use crate::program::V;
use crate::Error;

pub struct Factor {
    pub value: usize,
    pub when: Option<usize>,
}

pub struct Payment {
    pub name: String,
    pub payer: String,
    pub payee: String,
    pub amount: usize,
    pub when: Option<usize>,
    pub factors: Vec<Factor>,
    pub after: bool,
    /// Whether `when` may answer differently per payer–payee pair (engine/kept.rs `reads_pair`); else
    /// the first pair's answer is every pair's (set once the expressions are lowered).
    pub when_per_pair: bool,
}

/// The payments by event, the caps (true: the payer's balance bounds, false: the payee's), the fees.
pub struct Payments {
    pub on: HashMap<String, Vec<Payment>>,
    pub caps: Vec<bool>,
    pub fees: Vec<usize>,
}

const WORDS: [&str; 9] =
    ["each_loser", "discarder", "each", "robbed", "winner", "actor", "dealer", "each_in_play", "each_other"];

fn bad(what: &str) -> Error {
    Error::Input(format!("the rule set's {what} is malformed"))
}

fn objects<'a>(m: &'a Map<String, J>, key: &str) -> Result<Vec<&'a Map<String, J>>, Error> {
    match m.get(key) {
        None | Some(J::Null) => Ok(Vec::new()),
        Some(J::Array(a)) => a.iter().map(|x| x.as_object().ok_or_else(|| bad(key))).collect(),
        _ => Err(bad(key)),
    }
}

impl Payments {
    pub fn new(rs: &Map<String, J>, ex: &mut Exprs) -> Result<Payments, Error> {
        let mut on: HashMap<String, Vec<Payment>> = HashMap::default();
        for p in objects(rs, "payments")? {
            let (payer, payee) = (text(p, "payer", ""), text(p, "payee", ""));
            if !WORDS.contains(&payer.as_str()) || !WORDS.contains(&payee.as_str()) {
                return Err(bad("payment's words"));
            }
            let amount = ex.add(p.get("amount")).ok_or_else(|| bad("payment's amount"))?;
            let when = ex.add(p.get("when"));
            let mut factors = Vec::new();
            for f in objects(p, "factors")? {
                let value = ex.add(f.get("value")).ok_or_else(|| bad("factor"))?;
                factors.push(Factor { value, when: ex.add(f.get("when")) });
            }
            let after = p.get("after").and_then(J::as_array).is_some_and(|a| !a.is_empty());
            on.entry(text(p, "on", "")).or_default().push(Payment {
                name: text(p, "name", ""),
                payer,
                payee,
                amount,
                when,
                factors,
                after,
                when_per_pair: true,
            });
        }
        let caps = objects(rs, "caps")?.into_iter().map(|c| text(c, "of", "payer") == "payer").collect();
        let mut fees = Vec::new();
        for f in objects(rs, "fees")? {
            fees.push(ex.add(f.get("rate")).ok_or_else(|| bad("fee"))?);
        }
        Ok(Payments { on, caps, fees })
    }
}

fn too_large() -> Halt {
    Halt::Refused("the native engine does not execute an amount of money past 64 bits yet".into())
}

fn money(n: i128, d: i128) -> H<Money> {
    Money::new(n, d).ok_or_else(too_large)
}

fn add(a: Money, b: Money) -> H<Money> {
    let (an, ad, bn, bd) = (a.n as i128, a.d as i128, b.n as i128, b.d as i128);
    money(an * bd + bn * ad, ad * bd)
}

fn sub(a: Money, b: Money) -> H<Money> {
    add(a, Money { n: -b.n, d: b.d })
}

fn mul(a: Money, b: Money) -> H<Money> {
    money(a.n as i128 * b.n as i128, a.d as i128 * b.d as i128)
}

fn less(a: Money, b: Money) -> bool {
    (a.n as i128) * (b.d as i128) < (b.n as i128) * (a.d as i128)
}

/// A number as money (true/false and anything else are not amounts the native engine moves).
fn as_money(v: &V) -> H<Money> {
    match v {
        V::Int(i) => Ok(Money::whole(*i)),
        V::Rat(n, d) => Ok(Money { n: *n, d: *d }),
        _ => Err(Halt::Refused("the native engine does not execute a payment amount that is not a number yet".into())),
    }
}

impl Run<'_> {
    /// `Game.fee_rate`: the fees' rates summed (each read from the settings).
    fn fee_rate(&mut self) -> H<Money> {
        let mut rate = Money::ZERO;
        let fees = &self.p.pay.fees;
        for &f in fees {
            let v = self.eval(f, unbound(), "fee")?;
            let r = match v {
                V::Bool(b) => Money::whole(b as i64),
                v => as_money(&v)?,
            };
            rate = add(rate, r)?;
        }
        Ok(rate)
    }

    fn seat_bound(&self, b: &Bind, name: &str) -> H<Option<usize>> {
        match b.get(slot(name)) {
            None | Some(V::None) => Ok(None),
            Some(V::Seat(s)) => Ok(Some(*s as usize)),
            Some(_) => Err(Halt::Refused(format!("the native engine does not execute a `{name}` that is not a seat yet"))),
        }
    }

    fn in_play(&self, s: usize) -> bool {
        !(self.t.rules.table.winners_leave && self.st.winners.contains(&s))
    }

    /// `settle.payers`: the seats a word names under these bindings.
    fn payers(&self, word: &str, b: &Bind) -> H<Vec<usize>> {
        let n = self.st.n;
        Ok(match word {
            "each_loser" => match self.seat_bound(b, "winner")? {
                Some(w) => (0..n).filter(|&s| s != w && !self.st.winners.contains(&s)).collect(),
                None => Vec::new(),
            },
            "discarder" | "robbed" | "winner" | "actor" => self.seat_bound(b, word)?.into_iter().collect(),
            "each" => (0..n).collect(),
            "dealer" => vec![self.st.dealer],
            "each_in_play" => (0..n).filter(|&s| self.in_play(s)).collect(),
            _ => return Err(Halt::Refused(format!("the payer word {word:.30}"))),
        })
    }

    /// `settle.pairs`: (payer, payee) pairs, never a seat with itself.
    fn pairs(&self, payer: &str, payee: &str, b: &Bind) -> H<Vec<(usize, usize)>> {
        let n = self.st.n;
        Ok(match (payer == "each_other", payee == "each_other") {
            (true, true) => (0..n).flat_map(|p| (0..n).filter(move |&q| q != p).map(move |q| (p, q))).collect(),
            (true, false) => {
                let qs = self.payers(payee, b)?;
                qs.into_iter().flat_map(|q| (0..n).filter(move |&p| p != q).map(move |p| (p, q))).collect()
            }
            (false, true) => {
                let ps = self.payers(payer, b)?;
                ps.into_iter().flat_map(|p| (0..n).filter(move |&q| q != p).map(move |q| (p, q))).collect()
            }
            (false, false) => {
                let (ps, qs) = (self.payers(payer, b)?, self.payers(payee, b)?);
                ps.iter().flat_map(|&p| qs.iter().filter(move |&&q| q != p).map(move |&q| (p, q))).collect()
            }
        })
    }

    /// `settle.settle`: the payments on `event` (`deferred`: which of them).
    pub fn settle(&mut self, event: &str, b: &Bind, deferred: Deferred) -> H<()> {
        let p = self.p;
        let Some(pays) = p.pay.on.get(event) else { return Ok(()) };
        for pm in pays {
            if deferred.is_some_and(|d| pm.after != d) {
                continue;
            }
            let uses_winner = pm.payer == "winner" || pm.payee == "winner" || pm.payer == "each_loser";
            let st = &*self.st;
            let per_winner = uses_winner
                && !st.winners.is_empty()
                && st.finished
                && !b.one_win
                && (matches!(b.get(B_WINNER), None | Some(V::None)) || st.winners.len() > 1);
            let binds: Cow<[Bind]> = if per_winner {
                let given = self.winners.as_ref().filter(|w| w.len() == self.st.winners.len()).ok_or_else(|| {
                    Halt::Refused("the native engine does not execute a payment per winner without the winners' bindings yet".into())
                })?;
                Cow::Owned(
                    given
                        .iter()
                        .enumerate()
                        .map(|(i, over)| {
                            let mut nb = b.clone();
                            for (s, v) in over {
                                nb.given[*s] = Some(v.clone());
                            }
                            if let Some(Some(w)) = self.winner_wins.get(i) {
                                nb.win = w.clone();
                            }
                            nb
                        })
                        .collect(),
                )
            } else {
                Cow::Borrowed(std::slice::from_ref(b)) // (not copied per payment)
            };
            // (the stop's subject made only when a payment stops)
            let what = || format!("payment {}", pm.name);
            for wb in binds.iter() {
                let pairs = self.pairs(&pm.payer, &pm.payee, wb)?;
                if pairs.is_empty() {
                    continue;
                }
                // a `when` that reads no pair: asked once on these bindings, the pairs' copy of them made
                // only where it holds (at most events it does not: a payment asked at every discard)
                let mut known: Option<bool> = None; // (the first pair's answer, where every pair's is the same)
                if !pm.when_per_pair {
                    if !self.holds_with(pm.when, wb, what)? {
                        continue;
                    }
                    known = Some(true);
                }
                // one copy of the bindings per payment and winner: each pair writes its payer and payee
                let mut pb = wb.clone();
                for (payer, payee) in pairs {
                    pb.given[B_PAYER] = Some(V::Seat(payer as u16));
                    pb.given[B_PAYEE] = Some(V::Seat(payee as u16));
                    let holds = match known {
                        Some(h) => h,
                        None => self.holds_with(pm.when, &pb, what)?,
                    };
                    if !pm.when_per_pair {
                        known = Some(holds);
                    }
                    if !holds {
                        continue;
                    }
                    let mut amount = self.eval_with(pm.amount, &pb, what)?;
                    for f in &pm.factors {
                        if self.holds_with(f.when, &pb, what)? {
                            let v = self.eval_with(f.value, &pb, what)?;
                            amount = crate::program::arith(crate::program::Op::Mul, &amount, &v)
                                .map_err(|_| Halt::Stop(what()))?;
                        }
                    }
                    let mut amount = as_money(&amount)?;
                    let (mut from, mut to) = (payer, payee);
                    if amount.n < 0 {
                        (from, to) = (payee, payer);
                        amount = Money { n: -amount.n, d: amount.d };
                    }
                    self.transfer(&pm.name, event, from, to, amount)?;
                }
            }
        }
        Ok(())
    }

    /// `settle.transfer`: one payment, bounded by the caps, the fee withheld from the payee.
    pub fn transfer(&mut self, name: &str, event: &str, payer: usize, payee: usize, amount: Money) -> H<()> {
        let mut amount = amount;
        if amount.n == 0 {
            return Ok(());
        }
        for &of_payer in &self.p.pay.caps {
            let bound = self.st.seats[if of_payer { payer } else { payee }].balance;
            let bound = if bound.n < 0 { Money::ZERO } else { bound };
            if less(bound, amount) {
                amount = bound;
            }
        }
        if amount.n == 0 {
            return Ok(());
        }
        let rate = self.fee_rate()?;
        let fee = if rate.n != 0 { mul(amount, rate)? } else { Money::ZERO };
        let st = &mut self.st;
        st.seats[payer].balance = sub(st.seats[payer].balance, amount)?;
        st.seats[payee].balance = add(st.seats[payee].balance, sub(amount, fee)?)?;
        st.deltas[payer] = sub(st.deltas[payer], amount)?;
        st.deltas[payee] = add(st.deltas[payee], sub(amount, fee)?)?;
        st.fees = add(st.fees, fee)?;
        st.payments.push(Paid {
            name: name.to_owned(),
            event: event.to_owned(),
            payer: Some(payer),
            payee: Some(payee),
            amount,
            fee,
        });
        Ok(())
    }
}
