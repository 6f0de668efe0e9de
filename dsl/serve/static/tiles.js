// One tile of `paili serve`'s pages, shared by the calculator and the replay viewer: a span holding the
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
