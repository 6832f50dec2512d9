// The replay page (templates/replay.html): step through a log on the map, forward and back.
//
// The page carries what it shows at once in <script type="application/json" id="replay-data">: the
// step count, the turns, the steps that hold a ruling; its maps are boards (board.js), on which this
// script draws the pieces, each its counter's picture as this viewer may see it. The steps come in
// pieces of `piece_steps` from the server (config.pieces + the piece's number), fetched as the
// player reaches them: each has the board after its first step ("board": [piece, state]), the
// looks of the pieces as this viewer may see them ("views"), its rulings, and for every step the
// pieces it changed as [piece, before, after] (a state is [view, map, hex, place off the maps],
// null when off the board). Going forward applies "after", going back applies "before" in reverse
// order, so a step costs what it changed; only the hexes and places it touched are drawn again. A
// jump to another piece draws that piece's board, then its steps up to the one asked. No framework,
// no build step, nothing from another site.
"use strict";

(function () {
  const blob = document.getElementById("replay-data");
  if (!blob) return;
  const data = JSON.parse(blob.textContent);
  const config = JSON.parse(document.getElementById("replay-config").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const views = new Map();     // view index -> look, from the pieces fetched
  const rulings = new Map();   // ruling index -> ruling, from the pieces fetched
  const pieces = new Map();    // piece number -> its promise (fetched once)
  const last = data.last_step;
  const size = data.piece_steps;
  const words = {verified: "✔ verified", altered: "✘ altered", forged: "✘ forged", "not-applied": "✘ not applied",
                 hidden: "✘ hidden", "re-roll": "✘ re-roll", "other-game": "✘ another game",
                 unverified: "not verified here", unrecorded: "computed"};

  const state = new Map();     // piece (a counter) -> state
  const byHex = new Map();     // "map|hex" -> Set of pieces
  const byPlace = new Map();   // place off the maps -> Set of pieces
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

  // -- drawing ----------------------------------------------------------------------------------------
  // The maps are boards (board.js): the pieces are drawn there, each its counter's picture as this viewer
  // may see it, and the paths of the moves on their own layer.

  const boards = window.KoreaBoards || new Map();
  const markers = new Set();   // maps whose board has the arrow head of the paths

  function arrowHead(board, map) {
    if (markers.has(map)) return;
    const defs = svgEl("defs");
    const marker = svgEl("marker", {id: "arrow-" + map, viewBox: "0 0 10 10", refX: "8", refY: "5",
                                    markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse"});
    marker.appendChild(svgEl("path", {d: "M 0 0 L 10 5 L 0 10 z", fill: "#e65100", stroke: "#fff", "stroke-width": "1"}));
    defs.appendChild(marker);
    board.svg.insertBefore(defs, board.svg.firstChild);
    markers.add(map);
  }

  function drawHex(key) {
    const [map, hex] = key.split("|");
    const board = boards.get(map);
    const set = byHex.get(key);
    if (!board) return;
    if (!set || !set.size) { board.removeStack(hex); drawn.delete(key); return; }
    const looks = [...set].map(p => views.get(state.get(p)[0]));
    const units = looks.filter(v => !v.h && v.k === "unit");
    const g = board.drawStack(hex, looks, {
      "class": "rstack" + (looks[looks.length - 1].h ? " hidden-piece" : ""), id: "rs-" + map + "-" + hex,
      "data-steps": units.map(v => v.l + "=" + (v.st || "")).join(" "), "data-labels": looks.map(v => v.l).join("|")});
    if (g) drawn.set(key, g); else drawn.delete(key);
  }

  // Off the hex maps, each place lists what lies there once per look, with how many: "Communist block ×20".
  const offmap = document.querySelector("#replay-offmap ul");
  const offItems = new Map();
  function drawPlace(name) {
    const old = offItems.get(name);
    const set = byPlace.get(name);
    if (!set || !set.size) { if (old) { old.remove(); offItems.delete(name); } return; }
    const item = el("li", {"data-place": name});
    item.appendChild(el("strong", {}, name + ": "));
    const looks = [...set].map(p => views.get(state.get(p)[0]));
    const groups = new Map();
    for (const look of looks) {
      // a unit by the name players read (identical counters, SPI's Chinese regiments, are one look with a count)
      const key = look.k === "unit" && !look.h ? "unit|" + (look.n || look.l) : look.l + "|" + (look.i || "");
      if (!groups.has(key)) groups.set(key, {look: look, count: 0});
      groups.get(key).count += 1;
    }
    const list = el("span", {"class": "off-looks"});
    for (const {look, count} of groups.values()) {
      const one = el("span", {"class": "off-look", title: look.t + (count > 1 ? " ×" + count : "")});
      if (look.i) one.appendChild(el("img", {src: data.art + look.i, alt: "", width: "30", height: "30"}));
      const words = look.k === "marker" ? look.t : (look.n || look.l);  // a marker by its name and face, a unit as its counter reads
      one.appendChild(document.createTextNode(words + (count > 1 ? " ×" + count : "")));
      list.appendChild(one);
    }
    item.appendChild(list);
    item.dataset.units = looks.filter(v => !v.h && v.k === "unit").map(v => v.l).join(" ");
    item.dataset.hidden = String(looks.filter(v => v.h).length);
    item.dataset.count = String(looks.length);
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
    for (const board of boards.values()) board.layers.paths.replaceChildren();
    for (const g of document.querySelectorAll("g.rstack.changed")) g.classList.remove("changed");
    for (const [, before, after] of step.d || []) {
      for (const s of [before, after]) {
        const g = s && s[1] ? drawn.get(hexKey(s)) : null;
        if (g) g.classList.add("changed");
      }
    }
    follow(document.querySelector("g.rstack.changed"));
    for (const [piece, map, path] of step.m || []) {
      const board = boards.get(map);
      if (!board) continue;
      const points = path.map(h => board.centres[h]).filter(Boolean);
      if (points.length < 2) continue;
      arrowHead(board, map);
      // A white casing under the line, so it stands out over the map's own red roads.
      const last = points.slice(-2).map(p => p.join(",")).join(" ");
      const earlier = points.length > 2 ? points.slice(0, -1).map(p => p.join(",")).join(" ") : "";
      if (earlier) {
        board.layers.paths.appendChild(svgEl("polyline", {"class": "move-casing", points: earlier}));
        board.layers.paths.appendChild(svgEl("polyline", {"class": "move-trail", points: earlier}));
      }
      board.layers.paths.appendChild(svgEl("polyline", {"class": "move-casing", points: last}));
      board.layers.paths.appendChild(svgEl("polyline", {"class": "move-path", points: last,
                                                        "marker-end": "url(#arrow-" + map + ")", "data-piece": String(piece),
                                                        "data-path": path.join(" ")}));
    }
  }

  // The map's frame scrolls to what changed when it is out of sight.
  function follow(target) {
    if (!target) return;
    const board = boards.get(target.getAttribute("data-map"));
    if (board) board.show(target);
  }

  // -- the step panel ----------------------------------------------------------------------------------

  const panel = document.getElementById("replay-step");
  const position = document.getElementById("replay-position");

  function rulingBox(index) {
    const r = rulings.get(index);
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
    const step = stepAt(current);
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

  // -- the steps, a piece at a time ------------------------------------------------------------------

  function pieceOf(index) { return Math.floor(index / size); }

  function load(number) {
    if (!pieces.has(number)) {
      pieces.set(number, fetch(config.pieces + number, {credentials: "same-origin"}).then(response => {
        if (!response.ok) throw new Error("piece " + number + ": " + response.status);
        return response.json();
      }).then(piece => {
        for (const [index, look] of Object.entries(piece.views)) views.set(Number(index), look);
        for (const [index, ruling] of Object.entries(piece.rulings)) rulings.set(Number(index), ruling);
        return piece;
      }).catch(error => { pieces.delete(number); throw error; }));
    }
    return pieces.get(number);
  }

  const loaded = new Map();  // piece number -> the piece, once fetched
  function stepAt(index) {
    const piece = loaded.get(pieceOf(index));
    return piece.steps[index - piece.first];
  }

  async function ensure(number) {
    if (!loaded.has(number)) loaded.set(number, await load(number));
    return loaded.get(number);
  }

  // -- moving --------------------------------------------------------------------------------------------

  let boardDrawn = false;  // whether a board is drawn (steps can be stepped through from it)

  function clearBoard() {
    for (const key of drawn.keys()) {
      const [map, hex] = key.split("|");
      if (boards.has(map)) boards.get(map).removeStack(hex);
    }
    drawn.clear();
    for (const item of offItems.values()) item.remove();
    offItems.clear();
    state.clear();
    byHex.clear();
    byPlace.clear();
  }

  async function goTo(target) {
    target = Math.max(0, Math.min(last, target | 0));
    const number = pieceOf(target);
    const piece = await ensure(number);
    const dirty = new Set();
    if (boardDrawn && Math.abs(target - current) <= size) {
      await ensure(pieceOf(current));  // the steps between are in these two pieces: step through them
    } else {  // far away: the target's piece's board, then its steps up to the target
      clearBoard();
      for (const [counter, s] of piece.board) setState(counter, s, dirty);
      current = piece.first;
      boardDrawn = true;
    }
    while (current < target) {
      current += 1;
      for (const [counter, , after] of stepAt(current).d || []) setState(counter, after, dirty);
    }
    while (current > target) {
      const changes = stepAt(current).d || [];
      for (let i = changes.length - 1; i >= 0; i--) setState(changes[i][0], changes[i][1], dirty);
      current -= 1;
    }
    redraw(dirty);
    drawPaths(stepAt(current));
    renderPanel();
    renderStepList(piece);
    updateControls();
    for (const near of [number + 1, number - 1]) {  // the pieces on either side, ready before they are reached
      if (near >= 0 && near < data.pieces) load(near).catch(() => {});
    }
  }

  // One move at a time, in order: a key pressed while a piece is on its way waits for it.
  let queue = Promise.resolve();
  function timed(action) {
    const started = performance.now();
    queue = queue.then(async () => {
      const begun = performance.now();
      await action();
      window.replayScript.push(performance.now() - begun);
      requestAnimationFrame(() => setTimeout(() => window.replayTimings.push(performance.now() - started), 0));
    }).catch(() => {
      position.textContent = "This replay has changed or is no longer kept here: reload the page.";
    });
    return queue;
  }

  const rulingSteps = data.ruling_steps;
  function nextRuling() { const s = rulingSteps.find(i => i > current); return s !== undefined ? goTo(s) : null; }
  function previousRuling() {
    const s = [...rulingSteps].reverse().find(i => i < current);
    return s !== undefined ? goTo(s) : null;
  }

  const stepList = document.querySelector("#replay-steplist ol");
  let listedPiece = -1;
  function renderStepList(piece) {  // the steps of the piece shown, in words
    if (listedPiece === piece.first) return;
    listedPiece = piece.first;
    stepList.start = piece.first;
    stepList.replaceChildren(...piece.steps.map((step, offset) => {
      const index = piece.first + offset;
      const item = el("li", {id: "step-" + index, "data-kind": step.k, "data-step": String(index)});
      item.appendChild(el("a", {href: "#step-" + index, "data-step": String(index)}, "Step " + index));
      item.appendChild(document.createTextNode((step.t ? " · " + step.t : "") + ": " + (step.x || []).join("; ")));
      for (const i of step.r || []) {
        const r = rulings.get(i);
        item.appendChild(el("span", {"class": "verdict verdict-" + r.status, "data-status": r.status},
                            " " + (words[r.status] || r.status)));
        item.appendChild(document.createTextNode(" " + r.headline));
      }
      if (!(step.x || []).length && !(step.r || []).length && (step.c || []).length) {
        item.appendChild(document.createTextNode("chat: " + step.c.join(" / ")));
      }
      return item;
    }));
  }

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
    if (turnBox) {  // the turn in force at this step (none before the tracker first shows one)
      let chosen = -1;
      [...turnBox.options].forEach((option, index) => { if (Number(option.value) <= current) chosen = index; });
      turnBox.selectedIndex = chosen;
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
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
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

  controls.hidden = false;
  const fromHash = /^#(?:at|step)-(\d+)$/.exec(location.hash);
  current = 0;
  timed(() => goTo(fromHash ? Number(fromHash[1]) : config.start)).then(() => {
    for (const board of boards.values()) board.open();  // on the pieces the step shows, all in sight
    follow(document.querySelector("g.rstack.changed"));
    window.replayReadyAt = performance.now();  // ms from the navigation's start (bench/replay.py reads it)
    document.body.dataset.replayReady = "yes";
  });
})();
