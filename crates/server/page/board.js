// The boards and the throws, drawn in SVG from the server's data: the
// rule set's layout (squares on a grid with their kinds, the rows) and a
// position's pieces by place with each side's counts. What differs
// between the games (pieces, marks, trays, dice, words) is in each game's
// module (games.js); nothing here reads a position's text.

import { h, reducedMotion, s, sideName } from "./dom.js";

const C = 100; // a square's side, in the drawing's units
const M = 6; // the frame's margin: small, so that a phone's squares stay 44 px wide

/** The drawing's size: `[x, y, width, height]`. */
function frame(game, layout) {
  const rows = layout.rows.length;
  return [-M, -M, layout.columns * C + 2 * M, rows * C + (game.trayBelow ? 110 : 2 * M)];
}

/**
 * Where a place is drawn, its centre: a square or house by its name, or a
 * side's tray (`hand`, `home`, `off`).
 */
function placeXY(game, layout, place, side, flip) {
  const rows = layout.rows.length;
  const at = (column, row) => ({ x: column * C + C / 2, y: (flip ? rows - 1 - row : row) * C + C / 2 });
  const tray = game.trays(layout).find((t) => t.place === place && t.side === side);
  if (tray) return game.trayBelow ? { x: tray.x * C, y: rows * C + 55 } : at(tray.column, tray.row);
  const sq = layout.squares.find((q) => q.name === place);
  return sq ? at(sq.column, sq.row) : { x: 0, y: 0 };
}

/** A tray: a side's hand or home (Ur) or pieces off the board (Senet). */
function tray(game, layout, t, count, flip) {
  const { place, side } = t;
  const { x, y } = placeXY(game, layout, place, side, flip);
  const wide = game.trayBelow;
  const w = wide ? 4.8 * C : C - 14;
  const hgt = wide ? 80 : C - 14;
  const name = game.describePlace(place, side);
  const g = s("g", {
    class: `tray ${side}`,
    "data-place": place,
    "data-side": side,
    transform: `translate(${x} ${y})`,
    "aria-label": `${name}: ${count} ${count === 1 ? "piece" : "pieces"}`,
    role: "img",
  });
  g.append(s("rect", { x: -w / 2, y: -hgt / 2, width: w, height: hgt, rx: 12, class: "tray-bg" }));
  if (wide) {
    const label = `${sideName(side)}: ${count} off`;
    g.append(s("g", { transform: "translate(-190 0)" }, game.pieceShape(side, count ? 26 : 22)));
    if (!count) g.lastChild.classList.add("faint");
    g.append(s("text", { x: -150, y: 11, class: "tray-text" }, label));
  } else {
    g.append(
      s("text", { x: 0, y: -28, class: "tray-label" }, place),
      s("g", { transform: "translate(-14 12)", class: count ? "" : "faint" }, game.pieceShape(side, 17)),
      s("text", { x: 20, y: 24, class: "tray-count" }, String(count)),
    );
  }
  return g;
}

/**
 * Draws a board. `opts`:
 * - `game` (the game's module), `layout` and `rulesBoard` (the rule
 *   set's), `placed` (`{pieces, counts}` from the state or a ply), `side`
 *   (the side to move), `flip`;
 * - `moves`: the legal moves to offer, `[{move, from, to, path, lands,
 *   notes}]` as the state gives them (none for a watcher or when it is not
 *   this browser's turn): hovering or focusing a piece draws its route;
 * - `selected`: the place whose moves are shown; `last`: `{from, to, side}`;
 * - `coordinates`: whether each square shows its name (where the game
 *   shows no number of its own);
 * - `arrows`: moves drawn as arrows, `[{move, from, to, side, kind}]`,
 *   `kind` a class (`played`, `best`);
 * - `hovered`: the place under the mouse, whose route is shown;
 * - `onPick(place, byKey)`, `onFocus(place)`, `onHover(place or null)`,
 *   `onPlay(move)`.
 *
 * Returns `{svg, select(place), focus(place)}`: `select` shows where the
 * piece on `place` can go without drawing the board again.
 */
export function drawBoard(opts) {
  const { game, layout, rulesBoard, placed, flip, moves = [], selected, last } = opts;
  const [vx, vy, vw, vh] = frame(game, layout);
  const svg = s("svg", {
    viewBox: `${vx} ${vy} ${vw} ${vh}`,
    class: `board ${opts.word}`,
    role: "group",
    "aria-label": game.boardLabel,
  });
  const mover = opts.side;
  svg.append(s("rect", { x: vx + 2, y: vy + 2, width: vw - 4, height: layout.rows.length * C + 2 * M - 4, rx: 12, class: "frame" }));
  const squares = s("g", { class: "squares" });
  const marks = s("g", { class: "marks" });
  const pieces = s("g", { class: "pieces" });
  svg.append(squares, marks, pieces);

  const lastPlaces = last ? new Set([last.from, last.to]) : new Set();
  const cell = (place, extra) => {
    const { x, y } = placeXY(game, layout, place, mover, flip);
    const g = s("g", { class: `cell${lastPlaces.has(place) ? " last" : ""}`, transform: `translate(${x} ${y})`, "data-cell": place });
    g.append(s("rect", { x: -C / 2 + 1, y: -C / 2 + 1, width: C - 2, height: C - 2, rx: 8, class: "square" }));
    if (extra) g.append(extra);
    return g;
  };

  for (const sq of layout.squares) {
    const shown = game.square(sq, rulesBoard);
    const c = cell(sq.name, shown.mark);
    if (shown.named) c.classList.add("named");
    if (shown.number) c.append(s("text", { x: -40, y: -30, class: "house-no" }, shown.number));
    else if (opts.coordinates) c.append(s("text", { x: 42, y: 42, class: "coord" }, sq.name));
    // Each square names what stands on it.
    const on = placed.pieces.find((p) => p.square === sq.name);
    c.setAttribute("role", "img");
    c.setAttribute("aria-label", `${shown.title}: ${on ? `a ${on.side} piece` : "empty"}`);
    squares.append(c);
  }
  marks.append(...game.marks(C));
  for (const t of game.trays(layout)) {
    squares.append(tray(game, layout, t, t.count(placed.counts[t.side]), flip));
  }

  for (const { square: place, side } of placed.pieces) {
    const { x, y } = placeXY(game, layout, place, side, flip);
    const g = s("g", {
      class: `piece ${side}`,
      "data-place": place,
      "data-side": side,
      transform: `translate(${x} ${y})`,
      role: "img",
      "aria-label": `${sideName(side)} piece on ${game.describePlace(place, side)}`,
    });
    g.append(s("g", { class: "anim" }, game.pieceShape(side)));
    pieces.append(g);
  }

  if (opts.arrows?.length) svg.append(drawArrows(game, layout, opts.arrows, flip));

  // The moves on offer: each source is a button, each target of the
  // selected source too.
  const byFrom = new Map();
  for (const m of moves) {
    if (!byFrom.has(m.from)) byFrom.set(m.from, []);
    byFrom.get(m.from).push(m);
  }
  const sourceEl = (place) =>
    place === "hand"
      ? svg.querySelector(`.tray[data-place="hand"][data-side="${mover}"]`)
      : pieces.querySelector(`.piece[data-place="${place}"]`);
  const activate = (el, handler) => {
    el.addEventListener("click", (e) => {
      e.stopPropagation();
      handler();
    });
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        handler(true);
      }
    });
  };
  for (const [from, list] of byFrom) {
    const el = sourceEl(from);
    if (!el) continue;
    const dest = list.map((m) => game.describePlace(m.to, mover) + (m.notes.length ? ` (${m.notes.join(", ")})` : "")).join(" or ");
    el.classList.add("movable");
    if (from === selected) el.classList.add("selected");
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("data-move", list[0].move);
    // A tray keeps its count: "Light's hand: 7 pieces: move to square d4".
    el.setAttribute("aria-label", `${el.getAttribute("aria-label")}: move to ${dest}`);
    el.prepend(from === "hand" || from === "off"
      ? s("rect", { x: -46, y: -46, width: 92, height: 92, rx: 14, class: "halo" })
      : s("circle", { r: 44, class: "halo" }));
    activate(el, (key) => opts.onPick?.(from, key === true));
    // A piece reached by the keyboard shows its targets at once; one
    // reached by the mouse waits for the click. Either shows its route.
    el.addEventListener("focus", () => {
      showRoute(from);
      if (el.matches(":focus-visible")) opts.onFocus?.(from);
    });
    el.addEventListener("mouseenter", () => {
      opts.onHover?.(from);
      showRoute(from);
    });
    el.addEventListener("mouseleave", () => {
      opts.onHover?.(null);
      showRoute(shownPlace);
    });
    el.addEventListener("blur", () => showRoute(shownPlace));
  }
  // The routes lie under the targets, which lie over the pieces: a
  // capture's target covers the enemy.
  const routes = s("g", { class: "routes", "aria-hidden": "true" });
  const targets = s("g", { class: "targets" });
  svg.append(routes, targets);
  // The route of the piece on `place`: the squares it passes, each marked,
  // and where it lands marked with what landing does.
  let shownPlace = null;
  function showRoute(place) {
    routes.replaceChildren(...(byFrom.get(place) ?? []).map((m) => drawRoute(game, layout, m, mover, flip)));
  }
  // Shows where the piece on `place` can go (nothing for null).
  const select = (place) => {
    shownPlace = place;
    showRoute(place);
    for (const el of svg.querySelectorAll(".selected")) el.classList.remove("selected");
    if (place !== null) sourceEl(place)?.classList.add("selected");
    targets.replaceChildren();
    for (const m of byFrom.get(place) ?? []) {
      const { x, y } = placeXY(game, layout, m.to, mover, flip);
      const t = s("g", {
        class: "target",
        transform: `translate(${x} ${y})`,
        tabindex: "0",
        role: "button",
        "data-move": m.move,
        "aria-label": `Move from ${game.describePlace(m.from, mover)} to ${game.describePlace(m.to, mover)}`,
      });
      t.append(s("circle", { r: 40, class: "target-ring" }), s("circle", { r: 10, class: "target-dot" }));
      activate(t, () => opts.onPlay?.(m.move));
      targets.append(t);
    }
  };
  select(selected ?? null);
  // A board drawn again under the mouse keeps the route it showed.
  if (byFrom.has(opts.hovered)) showRoute(opts.hovered);
  svg.addEventListener("click", () => opts.onPick?.(null));
  // Arrow keys walk the movable pieces.
  svg.addEventListener("keydown", (e) => {
    const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (!(e.key in keys)) return;
    const all = [...svg.querySelectorAll(".movable")];
    const at = all.indexOf(document.activeElement);
    if (!all.length) return;
    e.preventDefault();
    const next = at < 0 ? 0 : (at + keys[e.key] + all.length) % all.length;
    all[next].focus();
  });
  return { svg, select, focus: (place) => sourceEl(place)?.focus() };
}

/**
 * A move's route: a line from where the piece stands through each place
 * of its path, a dot on each place passed, and the landing place ringed
 * with what landing does (its `lands` as classes, its notes as words).
 */
function drawRoute(game, layout, m, side, flip) {
  const pts = [m.from, ...m.path].map((place) => placeXY(game, layout, place, side, flip));
  const g = s("g", { class: "route", "data-move": m.move, "data-path": m.path.join(" "), "data-lands": m.lands.join(" ") });
  g.append(s("polyline", { points: pts.map((p) => `${p.x},${p.y}`).join(" "), class: "route-line" }));
  m.path.slice(0, -1).forEach((place, i) => {
    g.append(s("circle", { cx: pts[i + 1].x, cy: pts[i + 1].y, r: 9, class: "route-step", "data-place": place }));
  });
  const end = pts.at(-1);
  const land = s("g", { class: `landing ${m.lands.join(" ")}`, transform: `translate(${end.x} ${end.y})`, "data-place": m.path.at(-1) });
  land.append(s("rect", { x: -C / 2 + 5, y: -C / 2 + 5, width: C - 10, height: C - 10, rx: 10, class: "landing-ring" }));
  if (m.notes.length) land.append(s("text", { y: C / 2 - 10, class: "landing-text" }, m.notes.join(", ")));
  g.append(land);
  return g;
}

/**
 * Moves drawn as arrows from the centre of one place to the centre of
 * another, each with its head at the target and its `kind` as a class.
 */
function drawArrows(game, layout, arrows, flip) {
  const g = s("g", { class: "arrows", "aria-hidden": "true" });
  for (const a of arrows) {
    const from = placeXY(game, layout, a.from, a.side, flip);
    const to = placeXY(game, layout, a.to, a.side, flip);
    const len = Math.hypot(to.x - from.x, to.y - from.y) || 1;
    const [ux, uy] = [(to.x - from.x) / len, (to.y - from.y) / len];
    // The line stops short of the target's centre, where the head ends.
    const tip = { x: to.x - ux * 18, y: to.y - uy * 18 };
    const base = { x: tip.x - ux * 30, y: tip.y - uy * 30 };
    const head = [tip, { x: base.x - uy * 18, y: base.y + ux * 18 }, { x: base.x + uy * 18, y: base.y - ux * 18 }];
    g.append(s("g", { class: `arrow ${a.kind}`, "data-move": a.move, "data-from": a.from, "data-to": a.to },
      s("line", { x1: from.x + ux * 18, y1: from.y + uy * 18, x2: base.x, y2: base.y, class: "shaft" }),
      s("polygon", { points: head.map((p) => `${p.x},${p.y}`).join(" "), class: "head" })));
  }
  return g;
}

const COORDINATES = "race.coordinates";

/** Whether the reader chose to see the squares' names (remembered). */
export function showCoordinates() {
  return localStorage.getItem(COORDINATES) === "on";
}

/** The switch for the squares' names; `redraw` draws the board again. */
export function coordinatesSwitch(redraw) {
  const box = h("input", { type: "checkbox", id: "coordinates", checked: showCoordinates() });
  box.addEventListener("change", () => {
    localStorage.setItem(COORDINATES, box.checked ? "on" : "off");
    redraw();
  });
  return h("label", { class: "switch small" }, box, " Square names");
}

/** Slides the piece that just moved from where it was. */
export function animateMove(svg, game, layout, last, flip) {
  if (!last || reducedMotion()) return;
  const piece = svg.querySelector(`.piece[data-place="${last.to}"][data-side="${last.side}"] .anim`);
  if (!piece) return;
  const from = placeXY(game, layout, last.from, last.side, flip);
  const to = placeXY(game, layout, last.to, last.side, flip);
  piece.style.transform = `translate(${from.x - to.x}px, ${from.y - to.y}px)`;
  piece.getBoundingClientRect();
  requestAnimationFrame(() => {
    piece.classList.add("sliding");
    piece.style.transform = "";
  });
  piece.addEventListener("transitionend", () => piece.classList.remove("sliding"), { once: true });
}

/** The throw as thrown: the game's dice or sticks, from the faces' digits. */
export function drawThrow(game, faces, roll) {
  return game.drawDice([...(faces ?? "")].map((c) => c === "1"), roll);
}
