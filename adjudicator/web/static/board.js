// The board (templates/_board.html, adjudicator/web/boardview.py): a map as the module draws it, with each
// piece its own counter picture where VASSAL puts it, stacked as the module stacks (each piece 4 px right
// and up of the one under it). Hovering a stack (or Tab to it) spreads its pieces side by side above it at
// their printed size, as VASSAL's mouse-over stack viewer does; the hex under the pointer is named in the
// toolbar and outlined; hex numbers are drawn over the hexes in view wherever the map's own print of them
// would read small (zoomed out, or a scanned board); the toolbar, Ctrl+wheel and + - 0 zoom, a drag or the
// scroll bars pan.
//
// A click on a stack (or Enter on it) picks the stack, a click on a piece of the spread (or ← → then
// Enter) picks that piece, a click on a hex with no stack picks the hex: the board sends a "board-pick"
// event ({map, hex, units, unit}) that the page's own script (forms.js: the check's form fields) acts on.
// Pages mark units and hexes back (`markUnits`, `markHex`); the replay draws its stacks as the player
// steps (`drawStack`, `removeStack`). Everything is placed with SVG attributes: the pages' policy allows
// no inline style. No framework, no build step.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const ZOOMS = [0.2, 0.25, 0.33, 0.5, 0.67, 0.75, 1, 1.25, 1.5, 2, 3];
  const SPREAD_GAP = 8;          // px between pieces of a spread stack, on screen
  const SPREAD_CAPTION = 16;     // px under each spread piece for its name
  const SPREAD_COLUMNS = 8;
  const LABEL_PX = 11;           // hex numbers, on screen
  const LABELS_FROM = 0.5;       // hex numbers are drawn from this zoom on (fewer pixels would be a blur)
  const DRAG_PX = 5;             // a press that moves less is a click
  const OPEN_ZOOM_AT_LEAST = 0.5; // a board opens zoomed out this far at most to show all its stacks

  function svgEl(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** What players read of a piece: its name (a unit as its counter reads); the id in `l` is for programs. */
  function called(look) {
    return look.n || look.l;
  }

  class Board {
    constructor(root, data) {
      this.root = root;
      this.data = data;
      this.map = data.map;
      this.zoom = 1;
      this.frame = root.querySelector(".board-frame");
      this.svg = root.querySelector("svg.board-svg");
      this.readout = root.querySelector(".board-readout");
      this.level = root.querySelector(".board-zoom-level");
      this.labelsBox = root.querySelector(".board-labels-toggle");
      this.centres = data.centres;
      this.hexes = Object.entries(data.centres);
      this.size = data.counter;
      this.stacks = new Map();        // hex -> its <g>
      this.unitMarks = new Map();     // class -> Set of unit ids
      this.layers = {};
      for (const name of ["marks", "labels", "hover", "paths", "pieces", "spread", "top"]) {
        this.layers[name] = this.svg.appendChild(svgEl("g", {"class": "board-" + name}));
      }
      this.layers.labels.setAttribute("aria-hidden", "true");
      this.layers.hover.setAttribute("aria-hidden", "true");
      this.layers.top.setAttribute("aria-hidden", "true");
      this.hoverHex = this.layers.hover.appendChild(svgEl("polygon", {"class": "hover-hex", points: ""}));
      this.hoverLabel = this.layers.top.appendChild(svgEl("text", {"class": "hover-label", "text-anchor": "middle"}));
      this.spreadOf = null;
      this.active = -1;               // the piece of the spread chosen from the keyboard
      this.labels = new Map();        // hex -> its number drawn over the map (drawLabels)
      this.labelSize = "";
      for (const [unitClass, units] of Object.entries(data.marks || {})) this.unitMarks.set(unitClass, new Set(units));
      for (const stack of data.stacks || []) this.drawStack(stack.hex, stack.pieces);
      for (const [hexClass, hex] of Object.entries(data.hex_marks || {})) this.markHex(hexClass, hex);
      this.bind();
      this.open();
    }

    /** The first view: on the hex the page marks at 100%; else on the stacks, zoomed out (to half size
     *  at most) until they all show; else the map's middle. */
    open() {
      const marked = Object.values(this.data.hex_marks || {}).find(hex => this.centres[hex]);
      const points = [...this.stacks.keys()].map(hex => this.centres[hex]).filter(Boolean);
      let zoom = 1, centre = [this.data.width / 2, this.data.height / 2];
      if (marked) {
        centre = this.centres[marked];
      } else if (points.length) {
        const xs = points.map(p => p[0]), ys = points.map(p => p[1]), room = this.size * 1.5;
        const box = this.frame.getBoundingClientRect();
        const width = Math.max(...xs) - Math.min(...xs) + room, height = Math.max(...ys) - Math.min(...ys) + room;
        zoom = Math.max(OPEN_ZOOM_AT_LEAST, Math.min(1, box.width / width, box.height / height));
        zoom = ZOOMS.filter(z => z <= zoom + 1e-6).pop();  // one of the toolbar's steps
        centre = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
      }
      this.setZoom(zoom);
      this.centreOn(centre);
    }

    // -- geometry ------------------------------------------------------------------------------------

    /** The map point (board pixels) under a point of the window. */
    toMap(clientX, clientY) {
      const box = this.svg.getBoundingClientRect();
      return [(clientX - box.left) / this.zoom, (clientY - box.top) / this.zoom];
    }

    /** The hex whose centre is nearest a map point, if the point lies in it (VASSAL's hexes are the
     *  regions nearest their centres). */
    hexAt(x, y) {
      let best = null, distance = Infinity;
      for (const [label, [cx, cy]] of this.hexes) {
        const d = (cx - x) * (cx - x) + (cy - y) * (cy - y);
        if (d < distance) { distance = d; best = label; }
      }
      const reach = this.data.hex_height * 0.6;
      return distance <= reach * reach ? best : null;
    }

    hexPoints(hex) {
      const [cx, cy] = this.centres[hex];
      return this.data.corners.map(([dx, dy]) => (cx + dx) + "," + (cy + dy)).join(" ");
    }

    // -- zoom and pan --------------------------------------------------------------------------------

    setZoom(zoom, anchor) {
      const frame = this.frame.getBoundingClientRect();
      const at = anchor || [frame.left + frame.width / 2, frame.top + frame.height / 2];
      const [mx, my] = this.toMap(at[0], at[1]);
      this.zoom = zoom;
      this.svg.setAttribute("width", String(Math.round(this.data.width * zoom)));
      this.svg.setAttribute("height", String(Math.round(this.data.height * zoom)));
      const box = this.svg.getBoundingClientRect();
      this.frame.scrollLeft += box.left + mx * zoom - at[0];
      this.frame.scrollTop += box.top + my * zoom - at[1];
      this.level.textContent = Math.round(zoom * 100) + "%";
      this.root.dataset.zoom = String(zoom);
      this.hideSpread();
      this.drawLabels();
    }

    /** The toolbar's next zoom in (direction 1) or out (-1) from the zoom shown, if there is one. */
    step(direction, anchor) {
      const next = direction > 0 ? ZOOMS.find(z => z > this.zoom + 1e-6)
                                 : [...ZOOMS].reverse().find(z => z < this.zoom - 1e-6);
      if (next !== undefined) this.setZoom(next, anchor);
    }

    whole() {
      const box = this.frame.getBoundingClientRect();
      this.setZoom(Math.min(box.width / this.data.width, box.height / this.data.height, 1));
    }

    centreOn([x, y]) {
      const box = this.frame.getBoundingClientRect();
      this.frame.scrollLeft = x * this.zoom - box.width / 2;
      this.frame.scrollTop = y * this.zoom - box.height / 2;
    }

    /** Centre the view on a hex (the page's own picks, when it opens with them). */
    centreOnHex(hex) {
      if (this.centres[hex]) this.centreOn(this.centres[hex]);
    }

    /** Scroll so that an element of the board is in sight (the replay follows what changed). */
    show(element) {
      const box = element.getBoundingClientRect(), view = this.frame.getBoundingClientRect();
      if (box.top >= view.top && box.bottom <= view.bottom && box.left >= view.left && box.right <= view.right) return;
      this.frame.scrollTop += box.top - view.top - (view.height - box.height) / 2;
      this.frame.scrollLeft += box.left - view.left - (view.width - box.width) / 2;
    }

    // -- hex numbers -----------------------------------------------------------------------------------

    /** The numbers of the hexes in view (and a hex's height around it): those scrolled into view are
     *  added, those out of it removed, the rest left as they are (a step of the replay that scrolls
     *  the map redraws a few). */
    drawLabels() {
      const layer = this.layers.labels;
      // A drawn map prints its own numbers where these go: they are drawn over it only where the print
      // reads smaller than LABEL_PX (zoomed out); a scanned board's numbers are always drawn.
      const printed = !this.data.scan && this.zoom * this.data.label_px >= LABEL_PX;
      if (!this.labelsBox.checked || this.zoom < LABELS_FROM || printed) {
        layer.replaceChildren();
        this.labels = new Map();
        return;
      }
      // As large as the map prints them, and never smaller on the screen than LABEL_PX.
      const size = Math.max(LABEL_PX / this.zoom, this.data.label_px).toFixed(2);
      if (size !== this.labelSize) { layer.replaceChildren(); this.labels = new Map(); this.labelSize = size; }
      const box = this.frame.getBoundingClientRect(), svg = this.svg.getBoundingClientRect();
      const left = (box.left - svg.left) / this.zoom, top = (box.top - svg.top) / this.zoom;
      const right = left + box.width / this.zoom, bottom = top + box.height / this.zoom;
      const margin = this.data.hex_height;
      const seen = new Set();
      for (const [label, [cx, cy]] of this.hexes) {
        if (cx < left - margin || cx > right + margin || cy < top - margin || cy > bottom + margin) continue;
        seen.add(label);
        if (!this.labels.has(label)) {
          const text = svgEl("text", {x: cx, y: cy + this.data.label_top, "font-size": size, "data-hex": label}, label);
          this.labels.set(label, text);
          layer.appendChild(text);
        }
      }
      for (const [label, text] of this.labels) {
        if (!seen.has(label)) { text.remove(); this.labels.delete(label); }
      }
    }

    // -- stacks --------------------------------------------------------------------------------------

    /** Draw (or draw again) the stack on `hex`: `looks` bottom first, each {l id (or a back's name),
     *  n the name players read (none: l is it), t title, i picture,
     *  k kind, h hidden, b/f colours}; `attrs` go on the stack's <g> (the replay's ids and data). */
    drawStack(hex, looks, attrs) {
      this.removeStack(hex);
      const centre = this.centres[hex];
      if (!centre || !looks.length) return null;
      const units = looks.filter(v => v.k === "unit" && !v.h).map(v => v.l);
      const names = looks.map(v => v.t).join("; ");
      const g = svgEl("g", Object.assign({
        "class": "stack", id: "stack-" + this.map + "-" + hex, "data-hex": hex, "data-map": this.map,
        "data-units": units.join(" "), "data-hidden": String(looks.filter(v => v.h).length),
        tabindex: "0", role: "button", "aria-label": "hex " + hex + ": " + names,
      }, attrs || {}));
      if (attrs && attrs["class"]) g.setAttribute("class", "stack " + attrs["class"]);
      g.appendChild(svgEl("title", {}, hex + ": " + names));
      const half = this.size / 2, offset = this.data.offset;
      looks.forEach((look, index) => {
        const x = centre[0] - half + offset * index, y = centre[1] - half - offset * index;
        g.appendChild(this.piece(look, x, y, index));
      });
      this.stacks.set(hex, g);
      this.layers.pieces.appendChild(g);
      this.applyMarks(g);
      return g;
    }

    removeStack(hex) {
      const old = this.stacks.get(hex);
      if (!old) return;
      if (this.spreadOf === old) this.hideSpread();
      old.remove();
      this.stacks.delete(hex);
    }

    /** One piece: its picture (or a plain square with its label when it has none) and a ring for marks. */
    piece(look, x, y, index, extra) {
      const size = this.size;
      const unit = look.k === "unit" && !look.h ? look.l : "";
      const g = svgEl("g", Object.assign({"class": "piece" + (look.h ? " hidden-piece" : ""), "data-index": String(index),
                                          "data-unit": unit || null, transform: "translate(" + x + " " + y + ")"}, extra || {}));
      if (look.i) {
        g.appendChild(svgEl("image", {"class": "counter", href: this.data.art + look.i, width: size, height: size,
                                      "data-unit": unit || null, "data-hidden": look.h ? "1" : null}));
      } else {
        g.appendChild(svgEl("rect", {"class": "counter", width: size, height: size, fill: look.b || "#ddd", stroke: "#000",
                                     "data-unit": unit || null}));
        g.appendChild(svgEl("text", {x: size / 2, y: size / 2 + 4, "font-size": 12, "text-anchor": "middle", fill: look.f || "#000"},
                            called(look).length > 10 ? called(look).slice(0, 9) + "…" : called(look)));
      }
      g.appendChild(svgEl("rect", {"class": "ring", x: -2, y: -2, width: size + 4, height: size + 4, rx: 3,
                                   id: unit && this.unitHas("out-of-supply", unit) && !extra ? "oos-" + unit : null}));
      g.appendChild(svgEl("title", {}, look.t));
      g.look = look;
      return g;
    }

    // -- marks ---------------------------------------------------------------------------------------

    unitHas(unitClass, unit) {
      const set = this.unitMarks.get(unitClass);
      return Boolean(set && set.has(unit));
    }

    /** Mark these units' pieces with `unitClass` (attackers picked, a unit out of supply). */
    markUnits(unitClass, units) {
      this.unitMarks.set(unitClass, new Set(units));
      for (const g of this.stacks.values()) this.applyMarks(g);
      if (this.spreadOf) this.applyMarks(this.layers.spread);
    }

    applyMarks(container) {
      for (const piece of container.querySelectorAll("g.piece")) {
        const unit = piece.getAttribute("data-unit");
        for (const unitClass of this.unitMarks.keys()) piece.classList.toggle(unitClass, Boolean(unit) && this.unitHas(unitClass, unit));
      }
    }

    /** Outline one hex with `hexClass` (the hex attacked), or none. */
    markHex(hexClass, hex) {
      for (const old of this.layers.marks.querySelectorAll("polygon." + hexClass)) old.remove();
      if (hex && this.centres[hex]) {
        this.layers.marks.appendChild(svgEl("polygon", {"class": "hex-mark " + hexClass, points: this.hexPoints(hex), "data-hex": hex}));
      }
    }

    // -- the spread ------------------------------------------------------------------------------------

    showSpread(stack) {
      if (this.spreadOf === stack) return;
      clearTimeout(this.hideTimer);
      const pieces = [...stack.querySelectorAll(":scope > g.piece")];
      const hex = stack.getAttribute("data-hex");
      const [cx, cy] = this.centres[hex];
      const size = this.size, n = pieces.length, columns = Math.min(n, SPREAD_COLUMNS), rows = Math.ceil(n / columns);
      const width = columns * (size + SPREAD_GAP) + SPREAD_GAP, height = rows * (size + SPREAD_CAPTION + SPREAD_GAP) + SPREAD_GAP;
      // Above the stack, or under it when there is no room above in sight; never past the frame's sides.
      const z = this.zoom, gap = 6 / z;
      const seenLeft = Math.max(0, this.frame.scrollLeft / z), seenTop = Math.max(0, this.frame.scrollTop / z);
      const seenRight = Math.min(this.data.width, (this.frame.scrollLeft + this.frame.clientWidth) / z);
      let ax = cx, ay = cy - size / 2 - this.data.offset * (n - 1) - gap, above = true;
      if (ay - height / z < seenTop) { ay = cy + size / 2 + gap; above = false; }
      ax = Math.max(seenLeft + width / 2 / z, Math.min(seenRight - width / 2 / z, ax));
      const layer = this.layers.spread;
      layer.replaceChildren();
      layer.setAttribute("transform", "translate(" + ax + " " + ay + ") scale(" + (1 / z) + ")");
      layer.setAttribute("data-hex", hex);
      const top = above ? -height : 0;
      layer.appendChild(svgEl("rect", {"class": "spread-back", x: -width / 2, y: top, width: width, height: height, rx: 6}));
      // The topmost piece first, as one reads a stack from the top down.
      [...pieces].reverse().forEach((original, order) => {
        const look = original.look;
        const x = -width / 2 + SPREAD_GAP + (order % columns) * (size + SPREAD_GAP);
        const y = top + SPREAD_GAP + Math.floor(order / columns) * (size + SPREAD_CAPTION + SPREAD_GAP);
        const copy = this.piece(look, x, y, Number(original.getAttribute("data-index")),
                                {"class": "piece spread-piece" + (look.h ? " hidden-piece" : ""),
                                 id: "spread-" + this.map + "-" + order, role: "button", "aria-label": look.t});
        const caption = look.h ? "hidden" : called(look);
        copy.appendChild(svgEl("text", {"class": "spread-caption", x: size / 2, y: size + 12, "text-anchor": "middle"},
                               caption.length > 14 ? caption.slice(0, 13) + "…" : caption));
        layer.appendChild(copy);
      });
      this.applyMarks(layer);
      this.spreadOf = stack;
      this.active = -1;
      stack.classList.add("spread");
      this.root.dataset.spread = hex;
    }

    hideSpread() {
      clearTimeout(this.hideTimer);
      if (this.spreadOf) this.spreadOf.classList.remove("spread");
      this.spreadOf = null;
      this.active = -1;
      this.layers.spread.replaceChildren();
      delete this.root.dataset.spread;
    }

    hideSoon() {
      clearTimeout(this.hideTimer);
      this.hideTimer = setTimeout(() => this.hideSpread(), 250);
    }

    choose(direction) {
      const pieces = [...this.layers.spread.querySelectorAll("g.spread-piece")];
      if (!pieces.length) return;
      this.active = (this.active + direction + pieces.length + (this.active < 0 && direction < 0 ? 1 : 0)) % pieces.length;
      pieces.forEach((p, i) => p.classList.toggle("active", i === this.active));
      this.spreadOf.setAttribute("aria-activedescendant", pieces[this.active].id);
      this.readout.textContent = "Hex " + this.spreadOf.getAttribute("data-hex") + ": " + pieces[this.active].look.t;
    }

    // -- picking -------------------------------------------------------------------------------------

    pick(hex, units, unit) {
      this.root.dispatchEvent(new CustomEvent("board-pick", {bubbles: true,
        detail: {map: this.map, hex: hex, units: units, unit: unit || null}}));
      const stack = this.stacks.get(hex);
      const flash = stack || this.layers.hover;
      flash.classList.add("picked");
      setTimeout(() => flash.classList.remove("picked"), 400);
    }

    pickStack(stack) {
      const units = (stack.getAttribute("data-units") || "").split(" ").filter(Boolean);
      this.pick(stack.getAttribute("data-hex"), units, null);
    }

    pickPiece(piece) {
      const unit = piece.getAttribute("data-unit");
      this.pick(this.layers.spread.getAttribute("data-hex"), unit ? [unit] : [], unit);
    }

    // -- events --------------------------------------------------------------------------------------

    bind() {
      const root = this.root;
      root.querySelector(".board-zoom-in").addEventListener("click", () => this.step(1));
      root.querySelector(".board-zoom-out").addEventListener("click", () => this.step(-1));
      root.querySelector(".board-zoom-actual").addEventListener("click", () => this.setZoom(1));
      root.querySelector(".board-zoom-whole").addEventListener("click", () => this.whole());
      this.labelsBox.addEventListener("change", () => this.drawLabels());
      let labelFrame = 0;
      const labelsLater = () => {
        cancelAnimationFrame(labelFrame);
        labelFrame = requestAnimationFrame(() => this.drawLabels());
      };
      this.frame.addEventListener("scroll", labelsLater, {passive: true});
      new ResizeObserver(labelsLater).observe(this.frame);  // a window made larger shows more hexes
      this.frame.addEventListener("wheel", event => {
        if (!event.ctrlKey && !event.metaKey) return;
        event.preventDefault();
        this.step(event.deltaY < 0 ? 1 : -1, [event.clientX, event.clientY]);
      }, {passive: false});
      this.frame.addEventListener("keydown", event => {
        if (event.target !== this.frame && !event.target.closest("g.stack")) return;
        const zoomKey = {"+": 1, "=": 1, "-": -1, "_": -1}[event.key];
        if (zoomKey && !event.ctrlKey && !event.metaKey) { event.preventDefault(); this.step(zoomKey); return; }
        if (event.key === "0" && !event.ctrlKey && !event.metaKey) { event.preventDefault(); this.setZoom(1); return; }
        const stack = event.target.closest("g.stack");
        if (!stack) return;
        if (event.key === "ArrowRight" || event.key === "ArrowDown") { event.preventDefault(); this.showSpread(stack); this.choose(1); }
        else if (event.key === "ArrowLeft" || event.key === "ArrowUp") { event.preventDefault(); this.showSpread(stack); this.choose(-1); }
        else if (event.key === "Escape") { this.hideSpread(); }
        else if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          const chosen = this.layers.spread.querySelectorAll("g.spread-piece")[this.active];
          if (this.spreadOf === stack && chosen) this.pickPiece(chosen); else this.pickStack(stack);
        }
      });
      this.svg.addEventListener("focusin", event => {
        const stack = event.target.closest && event.target.closest("g.stack");
        if (stack) { this.showSpread(stack); this.show(stack); }
      });
      this.svg.addEventListener("focusout", event => {
        if (event.target.closest && event.target.closest("g.stack")) this.hideSoon();
      });
      this.svg.addEventListener("pointerover", event => {
        const stack = event.target.closest("g.stack");
        if (stack) this.showSpread(stack);
        if (stack || event.target.closest(".board-spread")) clearTimeout(this.hideTimer);
      });
      this.svg.addEventListener("pointerout", event => {
        const from = event.target.closest("g.stack, .board-spread");
        const to = event.relatedTarget && event.relatedTarget.closest && event.relatedTarget.closest("g.stack, .board-spread");
        if (from && !to) this.hideSoon();
      });
      let hoverFrame = 0;
      this.svg.addEventListener("pointermove", event => {
        cancelAnimationFrame(hoverFrame);
        hoverFrame = requestAnimationFrame(() => this.hover(event.clientX, event.clientY));
        if (this.drag) this.dragTo(event);
      });
      this.svg.addEventListener("pointerleave", () => { this.hover(null); });
      this.svg.addEventListener("pointerdown", event => {
        if (event.button !== 0 || event.target.closest("g.stack, .board-spread")) return;
        this.drag = {x: event.clientX, y: event.clientY, left: this.frame.scrollLeft, top: this.frame.scrollTop, moved: false};
      });
      window.addEventListener("pointerup", () => { setTimeout(() => { this.drag = null; }, 0); });
      this.svg.addEventListener("click", event => {
        const spread = event.target.closest("g.spread-piece");
        if (spread) { this.pickPiece(spread); return; }
        const stack = event.target.closest("g.stack");
        if (stack) { this.pickStack(stack); return; }
        if (event.target.closest(".board-spread") || (this.drag && this.drag.moved)) return;
        const [x, y] = this.toMap(event.clientX, event.clientY);
        const hex = this.hexAt(x, y);
        if (hex) this.pick(hex, [], null);
      });
    }

    dragTo(event) {
      const drag = this.drag;
      const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < DRAG_PX) return;
      drag.moved = true;
      this.frame.scrollLeft = drag.left - dx;
      this.frame.scrollTop = drag.top - dy;
    }

    hover(clientX, clientY) {
      const hex = clientX === null ? null : this.hexAt(...this.toMap(clientX, clientY));
      if (hex === this.hovered) return;
      this.hovered = hex;
      this.root.dataset.hover = hex || "";
      if (!hex) {
        this.hoverHex.setAttribute("points", "");
        this.hoverLabel.textContent = "";
        if (this.active < 0) this.readout.textContent = "";
        return;
      }
      const [cx, cy] = this.centres[hex];
      this.hoverHex.setAttribute("points", this.hexPoints(hex));
      this.hoverLabel.setAttribute("x", cx);
      this.hoverLabel.setAttribute("y", cy + this.data.hex_height / 2 + LABEL_PX * 1.4 / this.zoom);
      this.hoverLabel.setAttribute("font-size", (LABEL_PX * 1.3 / this.zoom).toFixed(2));
      this.hoverLabel.textContent = hex;
      const stack = this.stacks.get(hex);
      this.readout.textContent = "Hex " + hex + (stack ? ": " + stack.getAttribute("aria-label").replace(/^hex \S+: /, "") : "");
    }
  }

  const boards = new Map();
  for (const root of document.querySelectorAll("figure.board")) {
    const blob = root.querySelector("script.board-data");
    boards.set(root.dataset.map, new Board(root, JSON.parse(blob.textContent)));
  }
  window.KoreaBoards = boards;
  window.boardsReadyAt = performance.now();  // ms from the navigation's start to every stack drawn (bench/savedgame.py)
  document.documentElement.dataset.boardsReady = "yes";
})();
