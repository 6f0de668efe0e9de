// The replay viewer of `paili serve` (dsl/templates/serve_replay.html.j2): a game log read from a file
// or pasted, sent to POST /api/replays (which checks it as `paili replay` does and answers each hand as
// steps, the table as an onlooker sees it), then stepped through move by move. Plain script, no library.
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  const errorBox = $("replay-error"), view = $("replay-view");
  let log = null, kinds = new Map(), hand = 0, step = 0;

  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };

  function showError(text) {
    errorBox.textContent = text;
    errorBox.hidden = false;
  }

  const tileEl = name => window.pailiTile(kinds, name);

  function backs(n) {  // concealed tiles an onlooker does not see: their number
    const span = el("span", undefined, "replay-backs");
    for (let i = 0; i < Math.min(n, 40); i++) span.appendChild(el("span", undefined, "tile back"));
    span.appendChild(el("small", " " + n + " 张暗牌"));
    return span;
  }

  function tiles(names) {
    const span = el("span", undefined, "tiles");
    for (const n of names) span.appendChild(tileEl(n));
    return span;
  }

  // an exact amount as the engine's `_exact` keys give it, shown exactly (tiles.js)
  const money = v => window.pailiAmount(v);

  // a seat as the rules name it (the view's `name`: `table { seat_names }`), else by its number
  function seatName(i) {
    const d = log.hands[hand].steps[0].view.seats[i];
    return d && d.name ? d.name : "座位 " + i;
  }

  const ACTIONS = {discard: "打出", pass: "过"};
  function moveText(s) {
    if (s.seat === null) return "开局：发牌完毕";
    const m = s.move, name = ACTIONS[m.action] || m.action;
    let out = seatName(s.seat) + "：" + name;
    if (m.tiles && m.tiles.length) out += " " + m.tiles.join("、");
    if (m.meld) out += "（" + m.meld + "）";
    if (m.choice !== undefined && m.choice !== null) out += " = " + m.choice;
    return out;
  }

  function seatBox(d, toAct) {
    const box = el("div", undefined, "replay-seat" + (toAct.includes(d.seat) ? " to-act" : ""));
    const head = box.appendChild(el("h3"));
    head.append(el("span", seatName(d.seat)), d.dealer ? el("span", "庄", "replay-dealer") : "",
                el("span", "余额 " + money(d.balance_exact), "replay-balance"));
    if (d.auto) head.appendChild(el("span", "托管", "replay-auto"));
    const row = (label, content) => {
      const p = box.appendChild(el("p", undefined, "replay-row"));
      p.append(el("span", label, "replay-label"), content);
    };
    row("手牌", d.hand ? tiles(d.hand) : backs(d.hand_size));
    if (d.drawn) row("摸到", tiles([d.drawn]));
    if (d.melds.length) {
      const span = el("span", undefined, "replay-melds");
      for (const m of d.melds) {
        const g = span.appendChild(el("span", undefined, "group" + (m.exposed ? " exposed" : "")));
        const t = g.appendChild(tiles(m.tiles));
        if (m.hidden) t.appendChild(backs(m.hidden));
        g.appendChild(el("span", m.kind, "kind"));
      }
      row("副露", span);
    }
    if (d.aside.length) row("置于一旁", tiles(d.aside));
    row("弃牌", d.discards.length ? tiles(d.discards) : el("small", "（无）"));
    return box;
  }

  function result(r) {
    const box = el("div");
    box.appendChild(el("h3", "结算"));
    // the winners, neutrally: each one's line below says the variant's own word for the win (sc.action)
    if (r.winners.length) box.appendChild(el("p", "赢家：" + r.winners.map(seatName).join("、")));
    else if (r.exhausted) box.appendChild(el("p", log.exhaust_word));  // the variant's own word for it
    for (const [seat, sc] of Object.entries(r.scores || {})) {
      const p = box.appendChild(el("p"));
      p.textContent = seatName(Number(seat)) + "：" + (sc.action || "") + (sc.tile ? " " + sc.tile : "")
        + (sc.self_drawn ? "（自己摸到）" : "") + "，得分 " + money(sc.score_exact);
      if (sc.fans && sc.fans.length) {
        box.appendChild(el("p", sc.fans.map(f => f.name + " " + money(f.value_exact ?? f.value) + (f.count > 1 ? "×" + f.count : "")).join("　"),
                           "replay-fans"));
      }
    }
    if (r.payments.length) {
      const table = box.appendChild(el("table", undefined, "replay-payments"));
      const head = el("tr");
      for (const h of ["项目", "付款", "收款", "金额"]) head.appendChild(el("th", h));
      table.appendChild(el("thead")).appendChild(head);
      const body = table.appendChild(el("tbody"));
      for (const p of r.payments) {
        const tr = body.appendChild(el("tr"));
        tr.append(el("td", p.name), el("td", seatName(p.payer)), el("td", seatName(p.payee)),
                  el("td", money(p.amount_exact), "num"));
      }
    } else box.appendChild(el("p", "没有付款。"));
    box.appendChild(el("p", "输赢：" + r.deltas_exact.map((d, i) => seatName(i) + " " + (d[0] !== "-" && d !== "0" ? "+" : "") + money(d)).join("，")));
    box.appendChild(el("p", "余额：" + r.balances_exact.map((b, i) => seatName(i) + " " + money(b)).join("，")));
    return box;
  }

  function show() {
    const h = log.hands[hand], s = h.steps[step], last = h.steps.length - 1;
    $("replay-pos").textContent = "第 " + step + " / " + last + " 步";
    $("replay-slider").max = String(last);
    $("replay-slider").value = String(step);
    $("replay-move").textContent = moveText(s);
    const v = s.view;
    $("replay-info").textContent = "牌墙剩 " + v.wall_left + " 张" + (v.task ? "　任务：" + v.task : "")
      + (v.over ? "　本手结束" : (v.to_act.length ? "　待行动：" + v.to_act.map(seatName).join("、") : ""));
    const table = $("replay-table");
    table.replaceChildren(...v.seats.map(d => seatBox(d, v.over ? [] : v.to_act)));
    $("replay-result").replaceChildren(step === last ? result(h.result) : "");
    $("replay-first").disabled = $("replay-prev").disabled = step === 0;
    $("replay-next").disabled = $("replay-last").disabled = step === last;
  }

  const go = k => { step = Math.max(0, Math.min(k, log.hands[hand].steps.length - 1)); show(); };
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-prev").addEventListener("click", () => go(step - 1));
  $("replay-next").addEventListener("click", () => go(step + 1));
  $("replay-last").addEventListener("click", () => go(Infinity));
  $("replay-slider").addEventListener("input", e => go(Number(e.target.value)));
  $("replay-hand").addEventListener("change", e => { hand = Number(e.target.value); go(0); });
  document.addEventListener("keydown", e => {
    if (!log || e.target.closest("textarea, input, select")) return;
    if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
  });

  $("replay-file").addEventListener("change", async e => {
    const f = e.target.files[0];
    if (!f) return;
    $("replay-file-name").textContent = f.name;
    $("replay-text").value = await f.text();
  });

  $("replay-form").addEventListener("submit", async e => {
    e.preventDefault();
    errorBox.hidden = true;
    const text = $("replay-text").value;
    if (!text.trim()) { showError("请先选择或粘贴一份对局记录。"); return; }
    const rules = $("replay-rules").value;
    let resp, answer;
    try {
      resp = await fetch("/api/replays" + (rules ? "?rules=" + encodeURIComponent(rules) : ""),
                         {method: "POST", headers: {"content-type": "application/x-ndjson"}, body: text});
      answer = await resp.json();
    } catch (err) {
      showError("无法连接本服务：" + err.message);
      return;
    }
    if (!resp.ok) { view.hidden = true; showError("无法打开这份记录：" + (answer.error || ("请求失败（" + resp.status + "）"))); return; }
    const faces = await (await fetch("/api/variants/" + encodeURIComponent(answer.rules) + "/tiles")).json();
    $("replay-sprite").innerHTML = faces.sprite;  // the service's own SVG symbols (names escaped there)
    kinds = new Map(faces.kinds.map(k => [k.name, k]));
    log = answer;
    hand = 0;
    $("replay-title").textContent = answer.title + "（" + answer.hands.length + " 手）";
    $("replay-hand").replaceChildren(...answer.hands.map((h, i) => {
      const o = el("option", String(h.hand));
      o.value = String(i);
      return o;
    }));
    view.hidden = false;
    go(0);
  });
})();
