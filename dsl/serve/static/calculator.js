// The calculator of a player's page under `paili serve` (dsl/templates/serve_calculator.html.j2):
// tiles clicked (or typed in the rule set's notation) into the hand, a meld or the winning tile, the
// situation chosen, then scored by POST /api/variants/{id}/score. Plain script, no library.
"use strict";
(function () {
  const root = document.getElementById("calculator");
  if (!root) return;
  const data = JSON.parse(document.getElementById("calc-data").textContent);
  const byName = new Map(data.kinds.map(k => [k.name, k]));
  const byCode = new Map(), letters = new Set();
  for (const k of data.kinds) {
    if (k.char) byCode.set(k.char, k.name);
    if (!k.code) continue;
    byCode.set(k.code, k.name);
    if (k.code.length >= 2 && /^[0-9]+[A-Za-z]$/.test(k.code)) letters.add(k.code.slice(-1));
  }
  const $ = id => document.getElementById(id);
  const hand = $("calc-hand"), win = $("calc-win"), melds = $("calc-melds");
  const errorBox = $("calc-error"), resultBox = $("calc-result");
  let currentMeld = null;

  // The tiles a text names, as the runtime's notation reads it (digits then a suit letter, or one
  // character per tile); null when some part is not a tile (the service then says what is wrong).
  function parse(text) {
    const out = [];
    let digits = [];
    for (const c of text) {
      if (/\s|,|，/.test(c)) { if (digits.length) return null; continue; }
      if (/[0-9]/.test(c)) { digits.push(c); continue; }
      if (letters.has(c)) {
        if (!digits.length) return null;
        for (const d of digits) { const n = byCode.get(d + c); if (!n) return null; out.push(n); }
        digits = [];
        continue;
      }
      if (digits.length) return null;
      const n = byCode.get(c);
      if (!n) return null;
      out.push(n);
    }
    return digits.length ? null : out;
  }

  const tileEl = (name, extra) => window.pailiTile(byName, name, extra);

  function showRow(row, text, extra) {
    row.replaceChildren();
    const names = parse(text);
    if (names === null) { row.textContent = "（写法待核对，计算时由服务检查）"; return; }
    for (const n of names) row.appendChild(tileEl(n, extra));
  }

  function refresh() {
    showRow($("calc-hand-tiles"), hand.value);
    showRow($("calc-win-tiles"), win.value, "win");
    for (const li of melds.children) showRow(li.querySelector(".calc-row"), li.querySelector("input").value);
  }

  function addMeld(kind) {
    const li = document.createElement("li");
    li.dataset.kind = kind;
    const label = document.createElement("span");
    label.className = "calc-meld-kind";
    label.textContent = kind;
    const input = document.createElement("input");
    input.autocomplete = "off";
    input.spellcheck = false;
    input.setAttribute("aria-label", "副露 " + kind);
    input.addEventListener("input", refresh);
    input.addEventListener("focus", () => select(li));
    const row = document.createElement("span");
    row.className = "calc-row";
    const drop = document.createElement("button");
    drop.type = "button";
    drop.textContent = "删除";
    drop.addEventListener("click", () => { if (currentMeld === li) currentMeld = null; li.remove(); });
    li.append(label, input, row, drop);
    li.addEventListener("click", () => select(li));
    melds.appendChild(li);
    select(li);
    return li;
  }

  function select(li) {
    for (const x of melds.children) x.classList.toggle("current", x === li);
    currentMeld = li;
  }

  const append = (text, code) => (text.trim() + " " + code).trim();

  $("calc-palette").addEventListener("click", ev => {
    const btn = ev.target.closest("button[data-code]");
    if (!btn || btn.disabled) return;
    const code = btn.dataset.code;
    const target = root.querySelector('input[name="calc-target"]:checked').value;
    if (target === "win") win.value = code;
    else if (target === "meld") {
      const kind = $("calc-meld-kind");
      if (!kind) return;
      const li = currentMeld && currentMeld.isConnected ? currentMeld : addMeld(kind.value);
      const input = li.querySelector("input");
      input.value = append(input.value, code);
    } else hand.value = append(hand.value, code);
    refresh();
  });
  const add = $("calc-add-meld");
  if (add) add.addEventListener("click", () => {
    addMeld($("calc-meld-kind").value);
    root.querySelector('input[name="calc-target"][value="meld"]').checked = true;
  });
  root.querySelector(".calc-back").addEventListener("click", () => {
    const parts = hand.value.trim().split(/\s+/);
    const names = parse(hand.value);
    if (names && names.length) {
      names.pop();
      hand.value = names.map(n => byName.get(n).code).join(" ");
    } else { parts.pop(); hand.value = parts.join(" "); }
    refresh();
  });
  hand.addEventListener("input", refresh);
  win.addEventListener("input", refresh);
  $("calc-clear").addEventListener("click", () => {
    hand.value = win.value = "";
    melds.replaceChildren();
    currentMeld = null;
    $("calc-self-drawn").checked = false;
    refresh();
    errorBox.hidden = true;
    resultBox.replaceChildren();
  });

  // settings: only those changed from their default are sent
  const settings = [...root.querySelectorAll("[data-set]")];
  const initial = new Map(settings.map(el => [el, el.type === "checkbox" ? el.checked : el.value]));
  function chosen() {
    const out = {};
    for (const el of settings) {
      const now = el.type === "checkbox" ? el.checked : el.value;
      if (now === initial.get(el)) continue;
      const t = el.dataset.type;
      if (t === "bool") out[el.dataset.set] = now;
      else if (t === "int" || t === "seat") out[el.dataset.set] = now === "" ? now : Number(now);
      else out[el.dataset.set] = now;
    }
    return out;
  }

  function request() {
    const body = {hand: hand.value, melds: [], self_drawn: $("calc-self-drawn").checked, set: chosen()};
    for (const li of melds.children) {
      const t = li.querySelector("input").value.trim();
      if (t) body.melds.push(li.dataset.kind + ":" + t);
    }
    return body;
  }

  async function call(path, body) {
    errorBox.hidden = true;
    resultBox.replaceChildren();
    let resp, answer;
    try {
      resp = await fetch(path, {method: "POST", headers: {"content-type": "application/json"},
                                body: JSON.stringify(body)});
      answer = await resp.json();
    } catch (e) {
      showError("无法连接本服务：" + e.message);
      return null;
    }
    if (!resp.ok) { showError("无法计算：" + (answer.error || ("请求失败（" + resp.status + "）"))); return null; }
    return answer;
  }

  function showError(text) {
    errorBox.textContent = text;
    errorBox.hidden = false;
  }

  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };

  // An amount as its exact twin writes it (`score_exact`, `total_exact`, a fan's `value_exact`: docs/engine.md
  // "Money in JSON"), shown exactly (tiles.js): the plain key is a float when the amount is not whole.
  const amount = (exact, plain) => typeof exact === "string" ? window.pailiAmount(exact) : String(plain);

  function fanTable(fans) {
    const table = el("table", undefined, "calc-fans");
    const head = el("tr");
    for (const h of ["番种", "番数", "次数"]) head.appendChild(el("th", h));
    table.appendChild(el("thead")).appendChild(head);
    const body = table.appendChild(el("tbody"));
    for (const f of fans) {
      const tr = body.appendChild(el("tr"));
      tr.append(el("td", f.name), el("td", amount(f.value_exact, f.value), "num"), el("td", String(f.count), "num"));
    }
    return table;
  }

  $("calc-go").addEventListener("click", async () => {
    const body = request();
    body.win = win.value.trim() || null;
    const res = await call("/api/variants/" + encodeURIComponent(data.id) + "/score", body);
    if (!res) return;
    const box = el("div");
    // the variant's own word for the win (its winning action's name: data.win_words), by how the tile came
    const word = data.win_words[body.self_drawn ? "drawn" : "claimed"] || "和牌";
    box.appendChild(el("p", res.win ? word : "不能和牌：" + (res.reason || ""), res.win ? "calc-verdict ok" : "calc-verdict bad"));
    if (res.fans.length) box.appendChild(fanTable(res.fans));
    const sum = box.appendChild(el("p", undefined, "calc-sum"));
    sum.append(el("span", "合计 "), el("b", amount(res.total_exact, res.total), "calc-total"), el("span", "　得分 "),
               el("b", amount(res.score_exact, res.score), "calc-score"));
    if (res.trace && res.trace.reading) {
      box.appendChild(el("p", "拆法：" + res.trace.reading + (res.trace.form ? "（" + res.trace.form + "）" : ""), "calc-reading"));
    }
    resultBox.replaceChildren(box);
  });

  $("calc-waits").addEventListener("click", async () => {
    const res = await call("/api/variants/" + encodeURIComponent(data.id) + "/waits", request());
    if (!res) return;
    const box = el("div");
    if (!res.waits.length) { box.appendChild(el("p", "这手牌没有能和的牌。", "calc-verdict bad")); }
    else {
      box.appendChild(el("p", "听 " + res.waits.length + " 种牌：", "calc-verdict ok"));
      const list = box.appendChild(el("ul", undefined, "calc-waits"));
      for (const w of res.waits) {
        const li = list.appendChild(el("li"));
        li.append(tileEl(w.tile), el("span", " 得分 " + amount(w.score_exact, w.score)));
      }
    }
    resultBox.replaceChildren(box);
  });
  refresh();
})();
