// The boards and the throws, drawn in SVG: the Royal Game of Ur's twenty
// squares (the standard board with its gap, or the long aseb board),
// rosettes, hands and homes; Senet's thirty houses
// on the S-shaped track with the named houses marked. Light's pieces are
// round (Ur) or cones (Senet); dark's are diamonds or spools.

import { reducedMotion, s, sideName } from "./dom.js";

const C = 100; // a square's side, in the drawing's units
const FILES = "abcdefghijkl";

/** Reads a position text into `{side, at: Map(place → side), hand, home}`. */
export function parsePosition(game, text, pieces) {
  const [board, side, ...counts] = text.trim().split(/\s+/);
  const at = new Map();
  const sideOf = (ch) => (ch === "l" ? "light" : ch === "d" ? "dark" : null);
  if (game === "ur") {
    // row3/row2/row1: a number is a run of empty squares, x a missing
    // one; L and D are pieces on their second visit (murray, skiriuk).
    board.split("/").forEach((row, i) => {
      const rank = 3 - i;
      let file = 0;
      for (const token of row.match(/\d+|./g) ?? []) {
        if (/^\d/.test(token)) file += Number(token);
        else {
          const who = sideOf(token.toLowerCase());
          if (who) at.set(`${FILES[file]}${rank}`, who);
          file += 1;
        }
      }
    });
    const [lh, lo, dh, dO] = counts.map(Number);
    return { side: sideOf(side), at, hand: { light: lh, dark: dh }, home: { light: lo, dark: dO } };
  }
  const houses = board.replaceAll("/", "");
  const on = { light: 0, dark: 0 };
  [...houses].forEach((ch, i) => {
    const who = sideOf(ch);
    if (who) {
      at.set(String(i + 1), who);
      on[who] += 1;
    }
  });
  return {
    side: sideOf(side),
    at,
    hand: { light: 0, dark: 0 },
    home: { light: pieces - on.light, dark: pieces - on.dark },
  };
}

/** The drawing's size: `[x, y, width, height]` (an Ur board is 8 or 12 files long). */
function frame(game, board) {
  return game === "ur" ? [-10, -10, (board.files ?? 8) * C + 20, 3 * C + 20] : [-10, -10, 10 * C + 20, 3 * C + 110];
}

/**
 * Where a place is drawn, its centre: a square (`c2`), a house (`17`),
 * or a side's `hand`, `home` (Ur) or `off` tray (Senet).
 */
export function placeXY(game, place, side, flip) {
  if (game === "ur") {
    let file;
    let rank;
    if (place === "hand" || place === "home") {
      file = place === "hand" ? 4 : 5;
      rank = side === "light" ? 1 : 3;
    } else {
      file = FILES.indexOf(place[0]);
      rank = Number(place[1]);
    }
    const row = flip ? rank - 1 : 3 - rank;
    return { x: file * C + C / 2, y: row * C + C / 2 };
  }
  if (place === "off") {
    return { x: side === "light" ? 2.5 * C : 7.5 * C, y: 3 * C + 55 };
  }
  const h = Number(place);
  const row = h <= 10 ? 0 : h <= 20 ? 1 : 2;
  const col = h <= 10 ? h - 1 : h <= 20 ? 20 - h : h - 21;
  return { x: col * C + C / 2, y: row * C + C / 2 };
}

/** A piece of `side`, centred on 0,0, `r` its half-size. */
export function pieceShape(game, side, r = 32) {
  const k = r / 32;
  if (game === "ur") {
    if (side === "light") {
      return s("g", { class: "shape light" },
        s("circle", { r: 32 * k, class: "body" }),
        ...[[0, 0], [-13, -13], [13, -13], [-13, 13], [13, 13]].map(([x, y]) =>
          s("circle", { cx: x * k, cy: y * k, r: 4.5 * k, class: "mark" })));
    }
    return s("g", { class: "shape dark" },
      s("rect", { x: -24 * k, y: -24 * k, width: 48 * k, height: 48 * k, rx: 7 * k, transform: "rotate(45)", class: "body" }),
      s("rect", { x: -9 * k, y: -9 * k, width: 18 * k, height: 18 * k, rx: 2 * k, transform: "rotate(45)", class: "mark" }));
  }
  if (side === "light") {
    // A cone, seen from the side.
    return s("g", { class: "shape light" },
      s("path", { d: `M0 ${-34 * k} L${26 * k} ${24 * k} Q0 ${36 * k} ${-26 * k} ${24 * k} Z`, class: "body" }),
      s("circle", { cy: -34 * k, r: 5 * k, class: "body" }));
  }
  // A spool.
  return s("g", { class: "shape dark" },
    s("path", {
      d: `M${-26 * k} ${-30 * k} H${26 * k} Q${12 * k} 0 ${26 * k} ${30 * k} H${-26 * k} Q${-12 * k} 0 ${-26 * k} ${-30 * k} Z`,
      class: "body",
    }),
    s("line", { x1: -15 * k, x2: 15 * k, y1: -20 * k, y2: -20 * k, class: "mark-line" }),
    s("line", { x1: -15 * k, x2: 15 * k, y1: 20 * k, y2: 20 * k, class: "mark-line" }));
}

function rosette() {
  const petals = [];
  for (let i = 0; i < 8; i += 1) {
    petals.push(s("ellipse", { cx: 0, cy: -20, rx: 7, ry: 14, transform: `rotate(${i * 45})`, class: "petal" }));
  }
  return s("g", { class: "rosette", "aria-hidden": "true" },
    s("circle", { r: 36, class: "ring" }), ...petals, s("circle", { r: 8, class: "heart" }));
}

/** The glyph of one of Senet's named houses, centred on 0,0. */
function glyph(house) {
  const g = s("g", { class: "glyph", "aria-hidden": "true" });
  const line = (x1, y1, x2, y2) => s("line", { x1, y1, x2, y2 });
  switch (house) {
    case 15: // rebirth: an ankh
      g.append(s("ellipse", { cx: 0, cy: -18, rx: 10, ry: 13 }), line(0, -5, 0, 30), line(-16, 2, 16, 2));
      break;
    case 26: // happiness: nfr
      g.append(s("circle", { cx: 0, cy: 10, r: 16 }), line(0, -6, 0, -32), line(-10, -22, 10, -22));
      break;
    case 27: // the water
      for (const y of [-14, 0, 14]) {
        g.append(s("path", { d: `M-30 ${y} q7.5 -9 15 0 t15 0 t15 0 t15 0` }));
      }
      break;
    case 28:
      g.append(line(-16, -18, -16, 18), line(0, -18, 0, 18), line(16, -18, 16, 18));
      break;
    case 29:
      g.append(line(-9, -18, -9, 18), line(9, -18, 9, 18));
      break;
    case 30: // Horus: an eye
      g.append(
        s("path", { d: "M-30 0 Q0 -24 30 0 Q0 24 -30 0 Z" }),
        s("circle", { r: 8, class: "pupil" }),
        line(-4, 13, -10, 30),
      );
      break;
    default:
      break;
  }
  return g;
}

function describePlace(game, place, side) {
  if (game === "ur") {
    if (place === "hand") return `${sideName(side)}'s hand`;
    if (place === "home") return `${sideName(side)}'s home`;
    return `square ${place}`;
  }
  if (place === "off") return `off the board (${sideName(side).toLowerCase()})`;
  return `house ${place}`;
}

/** A tray: a side's hand or home (Ur) or pieces off the board (Senet). */
function tray(game, place, side, count, flip) {
  const { x, y } = placeXY(game, place, side, flip);
  const wide = game === "senet";
  const w = wide ? 4.8 * C : C - 14;
  const hgt = wide ? 80 : C - 14;
  const name = describePlace(game, place, side);
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
    g.append(s("g", { transform: "translate(-190 0)" }, pieceShape(game, side, count ? 26 : 22)));
    if (!count) g.lastChild.classList.add("faint");
    g.append(s("text", { x: -150, y: 11, class: "tray-text" }, label));
  } else {
    g.append(
      s("text", { x: 0, y: -28, class: "tray-label" }, place),
      s("g", { transform: "translate(-14 12)", class: count ? "" : "faint" }, pieceShape(game, side, 17)),
      s("text", { x: 20, y: 24, class: "tray-count" }, String(count)),
    );
  }
  return g;
}

/**
 * Draws a board. `opts`:
 * - `game`, `board` (the rule set's board), `position` (parsed), `flip`;
 * - `moves`: the legal moves to offer, `[{move, from, to}]` (none for a
 *   watcher or when it is not this browser's turn);
 * - `selected`: the place whose moves are shown; `last`: `{from, to, side}`;
 * - `onPick(place, byKey)`, `onFocus(place)`, `onPlay(move)`.
 *
 * Returns `{svg, select(place), focus(place)}`: `select` shows where the
 * piece on `place` can go without drawing the board again.
 */
export function drawBoard(opts) {
  const { game, board, position, flip, moves = [], selected, last } = opts;
  const [vx, vy, vw, vh] = frame(game, board);
  const svg = s("svg", {
    viewBox: `${vx} ${vy} ${vw} ${vh}`,
    class: `board ${game}`,
    role: "group",
    "aria-label": game === "ur" ? "The board of the Royal Game of Ur" : "The Senet board",
  });
  const mover = position.side;
  svg.append(s("rect", { x: vx + 2, y: vy + 2, width: vw - 4, height: (game === "ur" ? vh : 3 * C + 20) - 4, rx: 14, class: "frame" }));
  const squares = s("g", { class: "squares" });
  const marks = s("g", { class: "marks" });
  const pieces = s("g", { class: "pieces" });
  svg.append(squares, marks, pieces);

  const lastPlaces = last ? new Set([last.from, last.to]) : new Set();
  const cell = (place, extra) => {
    const { x, y } = placeXY(game, place, mover, flip);
    const g = s("g", { class: `cell${lastPlaces.has(place) ? " last" : ""}`, transform: `translate(${x} ${y})`, "data-cell": place });
    g.append(s("rect", { x: -C / 2 + 3, y: -C / 2 + 3, width: C - 6, height: C - 6, rx: 8, class: "square" }));
    if (extra) g.append(extra);
    return g;
  };

  if (game === "ur") {
    const rosettes = new Set(board.rosettes);
    for (const sq of board.squares) {
      const c = cell(sq, rosettes.has(sq) ? rosette() : null);
      c.append(s("title", {}, `square ${sq}${rosettes.has(sq) ? ", a rosette" : ""}`));
      squares.append(c);
    }
    for (const side of ["light", "dark"]) {
      squares.append(tray(game, "hand", side, position.hand[side], flip));
      squares.append(tray(game, "home", side, position.home[side], flip));
    }
  } else {
    for (let h = 1; h <= 30; h += 1) {
      const named = board.special[String(h)];
      const c = cell(String(h), named ? glyph(h) : null);
      if (named) c.classList.add("named");
      c.append(s("text", { x: -40, y: -30, class: "house-no" }, String(h)));
      c.append(s("title", {}, named ? `house ${h}, ${named}` : `house ${h}`));
      squares.append(c);
    }
    // The track's turns, so that the S can be followed.
    marks.append(
      s("path", { d: `M${9.5 * C} ${0.82 * C} v${0.36 * C}`, class: "turn" }),
      s("path", { d: `M${0.5 * C} ${1.82 * C} v${0.36 * C}`, class: "turn" }),
    );
    for (const side of ["light", "dark"]) {
      squares.append(tray(game, "off", side, position.home[side], flip));
    }
  }

  for (const [place, side] of position.at) {
    const { x, y } = placeXY(game, place, side, flip);
    const g = s("g", { class: `piece ${side}`, "data-place": place, "data-side": side, transform: `translate(${x} ${y})` });
    g.append(s("g", { class: "anim" }, pieceShape(game, side)));
    pieces.append(g);
  }

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
    const where = describePlace(game, from, mover);
    const dest = list.map((m) => describePlace(game, m.to, mover)).join(" or ");
    el.classList.add("movable");
    if (from === selected) el.classList.add("selected");
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("data-move", list[0].move);
    el.setAttribute("aria-label", `${sideName(mover)} piece on ${where}: move to ${dest}`);
    el.prepend(from === "hand" || from === "off"
      ? s("rect", { x: -46, y: -46, width: 92, height: 92, rx: 14, class: "halo" })
      : s("circle", { r: 44, class: "halo" }));
    activate(el, (key) => opts.onPick?.(from, key === true));
    // A piece reached by the keyboard shows its targets at once; one
    // reached by the mouse waits for the click.
    el.addEventListener("focus", () => {
      if (el.matches(":focus-visible")) opts.onFocus?.(from);
    });
  }
  // Targets lie over the pieces: a capture's target covers the enemy.
  const targets = s("g", { class: "targets" });
  svg.append(targets);
  // Shows where the piece on `place` can go (nothing for null).
  const select = (place) => {
    for (const el of svg.querySelectorAll(".selected")) el.classList.remove("selected");
    if (place !== null) sourceEl(place)?.classList.add("selected");
    targets.replaceChildren();
    for (const m of byFrom.get(place) ?? []) {
      const { x, y } = placeXY(game, m.to, mover, flip);
      const t = s("g", {
        class: "target",
        transform: `translate(${x} ${y})`,
        tabindex: "0",
        role: "button",
        "data-move": m.move,
        "aria-label": `Move from ${describePlace(game, m.from, mover)} to ${describePlace(game, m.to, mover)}`,
      });
      t.append(s("circle", { r: 40, class: "target-ring" }), s("circle", { r: 10, class: "target-dot" }));
      activate(t, () => opts.onPlay?.(m.move));
      targets.append(t);
    }
  };
  select(selected ?? null);
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

/** Slides the piece that just moved from where it was. */
export function animateMove(svg, game, last, flip) {
  if (!last || reducedMotion()) return;
  const piece = svg.querySelector(`.piece[data-place="${last.to}"][data-side="${last.side}"] .anim`);
  if (!piece) return;
  const from = placeXY(game, last.from, last.side, flip);
  const to = placeXY(game, last.to, last.side, flip);
  piece.style.transform = `translate(${from.x - to.x}px, ${from.y - to.y}px)`;
  piece.getBoundingClientRect();
  requestAnimationFrame(() => {
    piece.classList.add("sliding");
    piece.style.transform = "";
  });
  piece.addEventListener("transitionend", () => piece.classList.remove("sliding"), { once: true });
}

/**
 * The throw as thrown: Ur's tetrahedral dice (a white tip marked) or
 * Senet's four sticks (light face up or down).
 */
export function drawThrow(game, faces, roll) {
  const bits = [...(faces ?? "")].map((c) => c === "1");
  const w = game === "ur" ? 78 : 40;
  const svg = s("svg", {
    viewBox: `0 0 ${Math.max(bits.length, 1) * w} ${game === "ur" ? 72 : 96}`,
    class: `throw ${game}`,
    role: "img",
    "aria-label":
      game === "ur"
        ? `The dice: ${bits.filter(Boolean).length} of ${bits.length} marked, a roll of ${roll}`
        : `The sticks: ${bits.filter(Boolean).length} of ${bits.length} light side up, a roll of ${roll}`,
  });
  bits.forEach((up, i) => {
    const x = i * w + w / 2;
    if (game === "ur") {
      const g = s("g", { transform: `translate(${x} 40)`, class: `die${up ? " up" : ""}` });
      g.append(
        s("polygon", { points: "0,-32 31,22 -31,22", class: "face" }),
        s("path", { d: "M0 -32 L0 4 M31 22 L0 4 M-31 22 L0 4", class: "edge" }),
      );
      if (up) g.append(s("circle", { cx: 0, cy: 4, r: 9, class: "tip" }));
      svg.append(g);
    } else {
      const g = s("g", { transform: `translate(${x} 48)`, class: `stick${up ? " up" : ""}` });
      g.append(s("rect", { x: -10, y: -42, width: 20, height: 84, rx: 9, class: "face" }));
      if (up) {
        for (const y of [-26, 26]) g.append(s("path", { d: `M-6 ${y - 4} L6 ${y + 4} M6 ${y - 4} L-6 ${y + 4}`, class: "edge" }));
      }
      svg.append(g);
    }
  });
  return svg;
}
