// What the calculator and the replay viewer of `paili serve` share. One tile: a span holding the
// variant's own SVG face (`<use>` of the symbol the page defines), its name as the text alternative;
// a name the rule set does not list is shown as text. Plain script, no library.
"use strict";
window.pailiTile = function (kinds, name, extra) {
  const k = kinds.get(name);
  const span = document.createElement("span");
  span.className = (k ? k.classes : "tile") + (extra ? " " + extra : "");
  span.title = name;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", name);
  span.dataset.tile = name;
  if (k) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg"), use = document.createElementNS(ns, "use");
    use.setAttribute("href", "#" + k.face);
    svg.appendChild(use);
    span.appendChild(svg);
  } else span.textContent = name;
  return span;
};

// An exact amount as the engine's `_exact` keys give it ("-3", "237/80": docs/engine.md, "Money in JSON"),
// as `paili play` shows it: exactly, a decimal when it has a finite one (2.9625, never rounded), else the
// fraction (1/3). Anything else is shown as it is.
window.pailiAmount = function (exact) {
  const m = /^(-?)([0-9]+)(?:\/([0-9]+))?$/.exec(String(exact));
  if (!m) return String(exact);
  if (!m[3] || m[3] === "1") return m[1] + m[2];
  let d = BigInt(m[3]), twos = 0, fives = 0;
  while (d % 2n === 0n) { d /= 2n; twos++; }
  while (d % 5n === 0n) { d /= 5n; fives++; }
  if (d !== 1n) return m[1] + m[2] + "/" + m[3];
  const places = Math.max(twos, fives);
  const scaled = (BigInt(m[2]) * 10n ** BigInt(places) / BigInt(m[3])).toString().padStart(places + 1, "0");
  return m[1] + scaled.slice(0, -places) + "." + scaled.slice(-places);
};
