// Check forms (templates/_form.html): add and remove rows of a list, show the name of the unit
// typed or picked, offer only that unit's steps; on a saved game's check, fill the fields from the
// board. The forms work without this script; it only saves typing. No framework, no build step.
"use strict";

function unitsData(form) {
  const input = form.querySelector("input.pick-unit");
  const id = input && (input.dataset.units || (input.getAttribute("list") || "").replace("units-", "units-data-"));
  const blob = id && document.getElementById(id);
  if (!blob) return {};
  if (!blob._parsed) blob._parsed = JSON.parse(blob.textContent);
  return blob._parsed;
}

function groupOf(element) {
  return element.closest("fieldset.row, .group, form");
}

const byName = new WeakMap();  // a units blob -> its units by their counters' names

function nameKey(text) {
  return text.trim().split(/\s+/).join(" ").toLowerCase();
}

function unitTyped(units, text) {
  // A unit typed by its id, or by the name its counter reads when only one counter reads it (the
  // server reads a request's units so too).
  const id = text.trim();
  if (Array.isArray(units[id])) return units[id];
  if (!byName.has(units)) {
    const names = new Map();
    for (const unit of Object.values(units)) {
      if (!unit[2]) continue;
      const key = nameKey(unit[2]);
      names.set(key, names.has(key) ? null : unit);  // identical counters: none of them
    }
    byName.set(units, names);
  }
  return byName.get(units).get(nameKey(text)) || undefined;
}

function refreshSteps(unitInput) {
  const units = unitsData(unitInput.form);
  const unit = unitTyped(units, unitInput.value);
  const name = document.getElementById(unitInput.id + "-name");
  if (name) name.textContent = unit ? unit[0] : (unitInput.value.trim() ? "not a unit of this game" : "");
  if (!unit) return;
  for (const select of groupOf(unitInput).querySelectorAll("select.pick-step, select.pick-sp")) {
    if (groupOf(select) !== groupOf(unitInput)) continue;
    const current = select.value;
    const sp = select.classList.contains("pick-sp");
    const options = sp ? unit[1].filter(s => s[2] !== null).map(s => [String(s[2]), s[2] + " SP"])
                       : [["", "full strength"]].concat(unit[1].map(s => [s[0], s[1] && s[1] !== s[0] ? s[0] + " (" + s[1] + ")" : s[0]]));
    if (!sp && options.some(o => o[0] === "full")) options.shift();  // the data names its full side
    select.replaceChildren(...options.map(([value, label]) => new Option(label, value, false, value === current)));
  }
}

function renumber(rows) {
  // A row's names start "<path>.<index>." and its ids "<rows id>-<index>-": rewrite both.
  const path = rows.dataset.path;
  [...rows.children].forEach((row, index) => {
    const old = row.dataset.index;
    const swap = (text, sep) => {
      const from = (sep === "." ? path : rows.id) + sep + old + sep;
      const to = (sep === "." ? path : rows.id) + sep + index + sep;
      return text && text.startsWith(from) ? to + text.slice(from.length) : text;
    };
    row.dataset.index = index;
    row.querySelectorAll(".row-number").forEach(n => { n.textContent = index + 1; });
    row.querySelectorAll("[name]").forEach(el => { el.name = swap(el.name, "."); });
    row.querySelectorAll("[id]").forEach(el => { el.id = swap(el.id, "-"); });
    row.querySelectorAll("label[for]").forEach(el => { el.htmlFor = swap(el.htmlFor, "-"); });
    row.querySelectorAll("[aria-describedby]").forEach(el => {
      el.setAttribute("aria-describedby", swap(el.getAttribute("aria-describedby"), "-"));
    });
  });
}

document.addEventListener("click", event => {
  const add = event.target.closest("button.add-row");
  if (add) {
    const rows = document.getElementById(add.dataset.rows);
    const template = document.getElementById(add.dataset.rows + "-template");
    rows.appendChild(template.content.cloneNode(true));
    renumber(rows);
    const first = rows.lastElementChild.querySelector("input, select");
    if (first) first.focus();
    return;
  }
  const remove = event.target.closest("button.remove-row");
  if (remove) {
    const row = remove.closest("fieldset.row");
    const rows = row.parentElement;
    const next = row.nextElementSibling || row.previousElementSibling;
    row.remove();
    renumber(rows);
    const focus = next ? next.querySelector("input, select") : rows.parentElement.querySelector("button.add-row");
    if (focus) focus.focus();
  }
});

document.addEventListener("change", event => {
  if (event.target.matches("input.pick-unit")) refreshSteps(event.target);
});

// The saved-game check page (templates/bridge_check.html): what the board (board.js) picks goes into
// the form's fields, as the "A click on the map picks" choice says: a stack's units (or the one counter
// picked from it) ticked or unticked as attackers, its hex as the hex attacked, the counter as the
// unit. The board then marks what the fields hold, whichever way they were filled in.
document.addEventListener("board-pick", event => {
  const mode = document.querySelector("input[name=_mode]:checked");
  const {map, hex, units, unit} = event.detail;
  if (!mode) return;
  if (mode.value === "attackers") {
    const boxes = units.map(u => document.getElementById("attacker-" + u)).filter(Boolean);
    const tick = !boxes.every(b => b.checked);
    boxes.forEach(b => { b.checked = tick; });
  } else if (mode.value === "target") {
    const field = document.getElementById("target-hex");
    if (field) field.value = hex;
    const chooser = document.getElementById("target-map");
    if (chooser) chooser.value = map;
  } else if (mode.value === "unit" && (unit || units.length)) {
    const field = document.getElementById("context-unit");
    if (field) field.value = unit || units[units.length - 1];
  }
  markPicks();
});

function markPicks() {
  if (!window.KoreaBoards || !document.getElementById("savedgame-check")) return;  // a page with no picks to make
  const attackers = [...document.querySelectorAll("input[name=_attackers]:checked")].map(b => b.value);
  const hex = document.getElementById("target-hex");
  const chooser = document.getElementById("target-map");
  const unit = document.getElementById("context-unit");
  for (const [map, board] of window.KoreaBoards) {
    board.markUnits("attacker", attackers);
    board.markUnits("chosen", unit && unit.value ? [unit.value] : []);
    const onThisMap = !chooser || !chooser.value || chooser.value === map;
    board.markHex("target", hex && onThisMap ? hex.value.trim() : "");
  }
}

document.addEventListener("change", event => {
  if (event.target.matches("input[name=_attackers], #target-map, #context-unit")) markPicks();
});
document.addEventListener("input", event => {
  if (event.target.matches("#target-hex")) markPicks();
});
// A page that opens with picks (a form sent back with its answer) shows them: the board centred on
// the hex attacked, or on the first attacking unit.
document.addEventListener("DOMContentLoaded", () => {
  markPicks();
  if (!window.KoreaBoards || !document.getElementById("savedgame-check")) return;
  const hex = document.getElementById("target-hex");
  const attacker = document.querySelector("input[name=_attackers]:checked");
  const spot = hex && hex.value.trim() ? hex.value.trim() : attacker && attacker.closest("[data-hex]") ?
    attacker.closest("[data-hex]").dataset.hex : "";
  const chooser = document.getElementById("target-map");
  for (const [map, board] of window.KoreaBoards) {
    if (spot && (!chooser || !chooser.value || chooser.value === map)) board.centreOnHex(spot);
  }
});

// The game's page shows its ledger a page at a time (the newest first): a link to a record of an
// older page (a chat line's "verify: .../games/<id>#record-12") opens the page that holds it.
function openRecordsPage() {
  const found = /^#record-(\d+)$/.exec(window.location.hash);
  if (!found || !document.getElementById("ledger") || document.getElementById("record-" + found[1])) return;
  if (!document.querySelector(".ledger-nav")) return;
  const url = new URL(window.location.href);
  url.searchParams.set("before", String(Number(found[1]) + 1));
  window.location.replace(url.toString());
}
openRecordsPage();
window.addEventListener("hashchange", openRecordsPage);
