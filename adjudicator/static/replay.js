// The replay page (templates/replay.html): step through a log on the map, forward and back.
//
// The server sends everything in <script type="application/json" id="replay-data">: the looks of
// the pieces as this viewer may see them ("views"), where each piece stands at the start
// ("initial"), and for every step the pieces it changed as [piece, before, after] (a state is
// [view, map, hex, place off the maps], null when off the board). Going forward applies "after",
// going back applies "before" in reverse order, so a step costs what it changed; only the hexes and
// places it touched are drawn again. No framework, no build step, nothing from the network.
"use strict";

(function () {
  const blob = document.getElementById("replay-data");
  if (!blob) return;
  const data = JSON.parse(blob.textContent);
  const config = JSON.parse(document.getElementById("replay-config").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const views = data.views;
  const steps = data.steps;
  const rulings = data.rulings;
  const last = steps.length - 1;
  const words = {verified: "✔ verified", altered: "✘ altered", forged: "✘ forged", "not-applied": "✘ not applied",
                 hidden: "✘ hidden", "re-roll": "✘ re-roll", "other-game": "✘ another game",
                 unverified: "not verified here", unrecorded: "computed"};

  const state = new Map();     // piece -> state
  const byHex = new Map();     // "map|hex" -> Set of pieces
  const byPlace = new Map();   // place off the maps -> Set of pieces
  const layers = new Map();    // map -> {pieces, paths} <g> layers
  const drawn = new Map();     // "map|hex" -> its <g>
  let current = 0;
  window.replayTimings = [];   // ms from a key or button to the step drawn (bench/replay.py reads it)
  window.replayScript = [];    // ms of it in this script (the rest: style, layout, paint, the frame's wait)

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function svgEl(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  }
  function hexKey(s) { return s[1] ? s[1] + "|" + s[2] : null; }

  function place(piece, s, dirty) {
    const key = hexKey(s);
    const index = key ? byHex : byPlace;
    const k = key || s[3];
    if (!index.has(k)) index.set(k, new Set());
    index.get(k).add(piece);
    dirty.add((key ? "h:" : "o:") + k);
  }
  function lift(piece, s, dirty) {
    const key = hexKey(s);
    const index = key ? byHex : byPlace;
    const k = key || s[3];
    const set = index.get(k);
    if (set) { set.delete(piece); if (!set.size) index.delete(k); }
    dirty.add((key ? "h:" : "o:") + k);
  }
  function setState(piece, s, dirty) {
    const old = state.get(piece);
    if (old) lift(piece, old, dirty);
    if (s) { state.set(piece, s); place(piece, s, dirty); } else state.delete(piece);
  }

  // -- drawing -----------------------------------------------------------------------------------------

  function layer(map) {
    if (!layers.has(map)) {
      // The pieces and paths go on their own layer over the terrain, which then never needs drawing again.
      const svg = document.querySelector('svg.replay-overlay[data-map="' + CSS.escape(map) + '"]');
      if (!svg) return null;
      const paths = svgEl("g", {"class": "replay-paths"});
      const pieces = svgEl("g", {"class": "replay-pieces"});
      const defs = svgEl("defs");
      const marker = svgEl("marker", {id: "arrow-" + map, viewBox: "0 0 10 10", refX: "8", refY: "5",
                                      markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse"});
      marker.appendChild(svgEl("path", {d: "M 0 0 L 10 5 L 0 10 z", fill: "#c62828"}));
      defs.appendChild(marker);
      svg.append(defs, paths, pieces);
      layers.set(map, {paths: paths, pieces: pieces, svg: svg});
    }
    return layers.get(map);
  }

  function drawHex(key) {
    const [map, hex] = key.split("|");
    const old = drawn.get(key);
    if (old) { old.remove(); drawn.delete(key); }
    const set = byHex.get(key);
    if (!set || !set.size) return;
    const info = data.maps[map];
    const target = layer(map);
    if (!info || !target || !info.centres[hex]) return;
    const [cx, cy] = info.centres[hex];
    const size = info.size;
    const pieces = [...set].map(p => views[state.get(p)[0]]);
    const top = pieces[pieces.length - 1];
    const names = pieces.map(v => v.t).join("; ");
    const g = svgEl("g", {"class": "rstack" + (top.h ? " hidden-piece" : ""), id: "rs-" + map + "-" + hex,
                          "data-hex": hex, "data-map": map, role: "img",
                          "data-units": pieces.filter(v => !v.h && v.k === "unit").map(v => v.l).join(" "),
                          "data-steps": pieces.filter(v => !v.h && v.k === "unit").map(v => v.l + "=" + (v.st || "")).join(" "),
                          "data-labels": pieces.map(v => v.l).join("|"),
                          "data-hidden": String(pieces.filter(v => v.h).length),
                          "aria-label": "hex " + hex + ": " + names});
    const title = svgEl("title");
    title.textContent = hex + ": " + names;
    g.appendChild(title);
    for (let i = Math.min(pieces.length - 1, 2); i > 0; i--) {  // the pieces under it, offset
      g.appendChild(svgEl("rect", {x: cx - size / 2 + 3 * i, y: cy - size / 2 - 3 * i, width: size, height: size,
                                   fill: pieces[pieces.length - 1 - i].b, stroke: "#000", "stroke-width": 1}));
    }
    g.appendChild(svgEl("rect", {x: cx - size / 2, y: cy - size / 2, width: size, height: size, fill: top.b,
                                 stroke: "#000", "stroke-width": 2}));
    const label = svgEl("text", {x: cx, y: cy + size * 0.12, "font-size": Math.max(size * 0.28, 7),
                                 "text-anchor": "middle", fill: top.f});
    label.textContent = top.l.length > 9 ? top.l.slice(0, 8) + "…" : top.l;
    g.appendChild(label);
    if (pieces.length > 1) {
      const count = svgEl("text", {x: cx + size / 2 - 2, y: cy - size / 2 + size * 0.3, "font-size": size * 0.3,
                                   "text-anchor": "end", fill: top.f});
      count.textContent = String(pieces.length);
      g.appendChild(count);
    }
    target.pieces.appendChild(g);
    drawn.set(key, g);
  }

  const offmap = document.querySelector("#replay-offmap ul");
  const offItems = new Map();
  function drawPlace(name) {
    const old = offItems.get(name);
    const set = byPlace.get(name);
    if (!set || !set.size) { if (old) { old.remove(); offItems.delete(name); } return; }
    const item = el("li", {"data-place": name});
    item.appendChild(el("strong", {}, name + ": "));
    const labels = [...set].map(p => views[state.get(p)[0]]);
    item.appendChild(document.createTextNode(labels.map(v => v.l).join(", ")));
    item.title = labels.map(v => v.t).join("; ");
    item.dataset.units = labels.filter(v => !v.h && v.k === "unit").map(v => v.l).join(" ");
    item.dataset.hidden = String(labels.filter(v => v.h).length);
    if (old) old.replaceWith(item); else {
      const after = [...offItems.keys()].sort().find(k => k > name);
      offmap.insertBefore(item, after ? offItems.get(after) : null);
    }
    offItems.set(name, item);
  }

  function redraw(dirty) {
    for (const key of dirty) {
      if (key.startsWith("h:")) drawHex(key.slice(2)); else drawPlace(key.slice(2));
    }
  }

  function drawPaths(step) {
    for (const l of layers.values()) l.paths.replaceChildren();
    for (const g of document.querySelectorAll("g.rstack.changed")) g.classList.remove("changed");
    for (const [, before, after] of step.d || []) {
      for (const s of [before, after]) {
        const g = s && s[1] ? drawn.get(hexKey(s)) : null;
        if (g) g.classList.add("changed");
      }
    }
    follow(document.querySelector("g.rstack.changed"));
    for (const [piece, map, path] of step.m || []) {
      const info = data.maps[map];
      const target = layer(map);
      if (!info || !target) continue;
      const points = path.map(h => info.centres[h]).filter(Boolean);
      if (points.length < 2) continue;
      const line = svgEl("polyline", {"class": "move-path", points: points.map(p => p.join(",")).join(" "),
                                      fill: "none", stroke: "#c62828", "stroke-width": 4,
                                      "marker-end": "url(#arrow-" + map + ")", "data-piece": String(piece),
                                      "data-path": path.join(" ")});
      const earlier = points.length > 2 ? svgEl("polyline", {"class": "move-trail", fill: "none", stroke: "#c62828",
        "stroke-width": 2, "stroke-dasharray": "6 4", points: points.slice(0, -1).map(p => p.join(",")).join(" ")}) : null;
      if (earlier) target.paths.appendChild(earlier);
      target.paths.appendChild(line);
    }
  }

  // The map's frame scrolls to what changed when it is out of sight (a large map, zoomed in).
  function follow(target) {
    if (!target) return;
    const frame = target.closest(".replay-mapframe");
    const box = target.getBoundingClientRect();
    const view = frame.getBoundingClientRect();
    if (box.top >= view.top && box.bottom <= view.bottom && box.left >= view.left && box.right <= view.right) return;
    frame.scrollTop += box.top - view.top - (view.height - box.height) / 2;
    frame.scrollLeft += box.left - view.left - (view.width - box.width) / 2;
  }

  const zoomBox = document.getElementById("replay-zoom");
  zoomBox.addEventListener("change", () => {
    for (const scale of document.querySelectorAll(".replay-mapscale")) scale.style.setProperty("--zoom", zoomBox.value);
    follow(document.querySelector("g.rstack.changed"));
  });

  // -- the step panel ----------------------------------------------------------------------------------

  const panel = document.getElementById("replay-step");
  const position = document.getElementById("replay-position");

  function rulingBox(index) {
    const r = rulings[index];
    const box = el("section", {"class": "ruling ruling-" + r.status, "data-status": r.status,
                               "data-seq": r.seq === null ? "" : String(r.seq), id: "ruling-" + index});
    const head = el("h3");
    head.appendChild(el("span", {"class": "verdict verdict-" + r.status}, words[r.status] || r.status));
    head.appendChild(document.createTextNode(" " + (r.seq !== null ? "#" + r.seq + " " : "") + r.headline));
    box.appendChild(head);
    if (r.why && r.status !== "verified") box.appendChild(el("p", {"class": "why"}, r.why));
    (r.notices || []).forEach((text) => box.appendChild(el("p", {"class": "notice"}, "notice: " + text)));
    if (r.time && (r.status === "hidden" || r.status === "re-roll")) box.appendChild(el("p", {}, "Recorded " + r.time));
    if (r.receipt) {
      const receipt = el("p", {"class": "receipt"});
      receipt.appendChild(el("code", {}, r.receipt));
      if (r.hash) receipt.appendChild(el("small", {}, " ledger hash " + r.hash));
      if (config.records && r.seq !== null && r.game_id === data.game && r.status !== "forged") {
        receipt.appendChild(document.createTextNode(" "));
        receipt.appendChild(el("a", {href: config.records + r.seq}, "the record"));
      }
      box.appendChild(receipt);
    }
    if (r.ledger_lines && r.status === "altered") {
      const compare = el("div", {"class": "compare"});
      for (const [title, lines] of [["The log says", r.lines], ["The ledger says", r.ledger_lines]]) {
        const column = el("div");
        column.appendChild(el("h4", {}, title));
        const list = el("ol");
        lines.forEach((line, i) => {
          const item = el("li", {}, line);
          const other = title === "The log says" ? r.ledger_lines[i] : r.lines[i];
          if (other !== line) item.className = "differs";
          list.appendChild(item);
        });
        column.appendChild(list);
        compare.appendChild(column);
      }
      box.appendChild(compare);
    } else if (r.lines && r.lines.length || r.ledger_lines && r.ledger_lines.length) {
      const details = el("details");
      details.appendChild(el("summary", {}, r.lines.length ? "The ruling's lines" : "The ledger's lines"));
      const list = el("ol");
      for (const line of (r.lines.length ? r.lines : r.ledger_lines)) list.appendChild(el("li", {}, line));
      details.appendChild(list);
      box.appendChild(details);
    }
    return box;
  }

  function renderPanel() {
    const step = steps[current];
    const parts = [];
    const head = el("h2", {}, "Step " + current + " of " + last);
    parts.push(head);
    const meta = el("p", {"class": "step-meta"});
    meta.textContent = (data.files.length > 1 ? (data.files[step.f] || "file " + (step.f + 1)) + " · " : "") +
      kindWords(step.k) + (turnAt(current) ? " · " + turnAt(current) : "");
    parts.push(meta);
    if (step.x && step.x.length) {
      const list = el("ul", {"class": "step-texts"});
      for (const t of step.x) list.appendChild(el("li", {}, t));
      parts.push(list);
    }
    for (const index of step.r || []) parts.push(rulingBox(index));
    if (step.n && step.n.length) {
      const list = el("ul", {"class": "step-marks"});
      for (const t of step.n) list.appendChild(el("li", {}, t));
      parts.push(list);
    }
    const chat = (step.c || []).filter(line => !/\[ADJ /.test(line) || !(step.r || []).length);
    if (chat.length) {
      const list = el("ul", {"class": "step-chat", "aria-label": "chat"});
      for (const t of chat) list.appendChild(el("li", {}, t));
      parts.push(list);
    }
    panel.replaceChildren(...parts);
    panel.dataset.step = String(current);
    panel.dataset.kind = step.k;
    position.textContent = "Step " + current + " of " + last + ": " + kindWords(step.k);
  }

  function kindWords(kind) {
    return {begin: "the log begins", ruling: "a ruling", draw: "a draw", move: "a move", remove: "a unit removed",
            add: "a unit placed", step: "a step change", turn: "a new turn", chat: "chat", player: "a player",
            other: "other commands", hidden: "a hidden ruling", "re-roll": "a re-roll"}[kind] || kind;
  }

  function turnAt(index) {
    let found = "";
    for (const [label, at] of data.turns) if (at <= index) found = label;
    return found;
  }

  // -- moving --------------------------------------------------------------------------------------------

  function goTo(target) {
    target = Math.max(0, Math.min(last, target | 0));
    const dirty = new Set();
    while (current < target) {
      current += 1;
      for (const [piece, , after] of steps[current].d || []) setState(piece, after, dirty);
    }
    while (current > target) {
      const changes = steps[current].d || [];
      for (let i = changes.length - 1; i >= 0; i--) setState(changes[i][0], changes[i][1], dirty);
      current -= 1;
    }
    redraw(dirty);
    drawPaths(steps[current]);
    renderPanel();
    updateControls();
  }

  function timed(action) {
    const started = performance.now();
    action();
    window.replayScript.push(performance.now() - started);
    requestAnimationFrame(() => setTimeout(() => window.replayTimings.push(performance.now() - started), 0));
  }

  const rulingSteps = [...new Set(rulings.map(r => r.step))].sort((a, b) => a - b);
  function nextRuling() { const s = rulingSteps.find(i => i > current); if (s !== undefined) goTo(s); }
  function previousRuling() { const s = [...rulingSteps].reverse().find(i => i < current); if (s !== undefined) goTo(s); }

  const controls = document.getElementById("replay-controls");
  const gotoBox = document.getElementById("replay-goto");
  const turnBox = document.getElementById("replay-turn");
  function updateControls() {
    gotoBox.value = String(current);
    document.getElementById("replay-back").disabled = current === 0;
    document.getElementById("replay-start").disabled = current === 0;
    document.getElementById("replay-forward").disabled = current === last;
    document.getElementById("replay-end").disabled = current === last;
    document.getElementById("replay-next-ruling").disabled = !rulingSteps.some(i => i > current);
    document.getElementById("replay-prev-ruling").disabled = !rulingSteps.some(i => i < current);
    if (turnBox) {
      let chosen = turnBox.options[0];
      for (const option of turnBox.options) if (Number(option.value) <= current) chosen = option;
      turnBox.value = chosen.value;
    }
    if (currentItem) currentItem.classList.remove("current");
    currentItem = document.getElementById("step-" + current);
    if (currentItem) currentItem.classList.add("current");
    // The address keeps the step (a refresh opens there), written once the player pauses: browsers
    // throttle a history change on every key press of a long replay. "#at-": no element's id, no jump.
    clearTimeout(addressTimer);
    addressTimer = setTimeout(() => history.replaceState(null, "", "#at-" + current), 300);
  }
  let currentItem = null;
  let addressTimer = 0;

  const actions = {
    "replay-start": () => goTo(0), "replay-back": () => goTo(current - 1), "replay-forward": () => goTo(current + 1),
    "replay-end": () => goTo(last), "replay-next-ruling": nextRuling, "replay-prev-ruling": previousRuling,
  };
  for (const [id, action] of Object.entries(actions)) {
    document.getElementById(id).addEventListener("click", () => timed(action));
  }
  gotoBox.addEventListener("change", () => timed(() => goTo(Number(gotoBox.value))));
  if (turnBox) turnBox.addEventListener("change", () => timed(() => goTo(Number(turnBox.value))));
  document.addEventListener("keydown", event => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const action = {ArrowRight: actions["replay-forward"], ArrowLeft: actions["replay-back"], Home: actions["replay-start"],
                    End: actions["replay-end"], n: nextRuling, N: nextRuling, p: previousRuling, P: previousRuling}[event.key];
    if (!action) return;
    event.preventDefault();
    timed(action);
  });
  document.addEventListener("click", event => {  // links to a step: the summary, the rulings, the step list
    const link = event.target.closest && event.target.closest("a[data-step]");
    if (!link) return;
    event.preventDefault();
    timed(() => goTo(Number(link.dataset.step)));
    controls.scrollIntoView({block: "start"});
  });

  // -- the after-action report's copy button ---------------------------------------------------------------

  const copy = document.getElementById("aar-copy");
  if (copy && navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener("click", () => {
      navigator.clipboard.writeText(document.getElementById("aar-markdown").value).then(
        () => { document.getElementById("aar-copied").textContent = "Copied."; },
        () => { document.getElementById("aar-copied").textContent = "Select the text and copy it."; });
    });
  }

  // -- start -----------------------------------------------------------------------------------------------

  const dirty = new Set();
  for (const [piece, s] of data.initial) setState(piece, s, dirty);
  redraw(dirty);
  controls.hidden = false;
  const fromHash = /^#(?:at|step)-(\d+)$/.exec(location.hash);
  current = 0;
  goTo(fromHash ? Number(fromHash[1]) : config.start);
  document.body.dataset.replayReady = "yes";
})();
