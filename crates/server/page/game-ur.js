// The Royal Game of Ur's part of the page, behind the interface every
// game's module gives (see games.js): its pieces, its rosettes, where its
// hands and homes sit, its dice, and its words.

import { s, sideName } from "./dom.js";

export const title = "Royal Game of Ur";
export const boardLabel = "The board of the Royal Game of Ur";
/** The board turns over for the dark player, whose near row is then at the bottom. */
export const flips = true;
/** The trays are squares in the board's gaps, not a strip below it. */
export const trayBelow = false;
/** What each side's pieces look like, for the start form. */
export const looks = { light: "round pieces", dark: "diamond pieces" };

/** A piece of `side`, centred on 0,0, `r` its half-size. */
export function pieceShape(side, r = 32) {
  const k = r / 32;
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

function rosette() {
  const petals = [];
  for (let i = 0; i < 8; i += 1) {
    petals.push(s("ellipse", { cx: 0, cy: -20, rx: 7, ry: 14, transform: `rotate(${i * 45})`, class: "petal" }));
  }
  return s("g", { class: "rosette", "aria-hidden": "true" },
    s("circle", { r: 36, class: "ring" }), ...petals, s("circle", { r: 8, class: "heart" }));
}

/** What a square of the layout shows: `{mark, title, named}`. */
export function square(sq) {
  const isRosette = sq.kind === "rosette";
  return { mark: isRosette ? rosette() : null, title: `square ${sq.name}${isRosette ? ", a rosette" : ""}`, named: false, number: null };
}

/** A place in words. */
export function describePlace(place, side) {
  if (place === "hand") return `${sideName(side)}'s hand`;
  if (place === "home") return `${sideName(side)}'s home`;
  return `square ${place}`;
}

/**
 * The trays: each side's hand and home, in the gap of its near row (the
 * files e and f), with the count the board's data gives.
 */
export function trays(layout) {
  const near = (side) => layout.rows.findIndex((r) => r.near === side);
  return ["light", "dark"].flatMap((side) => [
    { place: "hand", side, column: 4, row: near(side), count: (c) => c.hand ?? 0 },
    { place: "home", side, column: 5, row: near(side), count: (c) => c.home },
  ]);
}

/** The dice as thrown: tetrahedra, a white tip marked. */
export function drawDice(bits, roll) {
  const w = 78;
  const svg = s("svg", {
    viewBox: `0 0 ${Math.max(bits.length, 1) * w} 72`,
    class: "throw ur",
    role: "img",
    "aria-label": `The dice: ${bits.filter(Boolean).length} of ${bits.length} marked, a roll of ${roll}`,
  });
  bits.forEach((up, i) => {
    const g = s("g", { transform: `translate(${i * w + w / 2} 40)`, class: `die${up ? " up" : ""}` });
    g.append(
      s("polygon", { points: "0,-32 31,22 -31,22", class: "face" }),
      s("path", { d: "M0 -32 L0 4 M31 22 L0 4 M-31 22 L0 4", class: "edge" }),
    );
    if (up) g.append(s("circle", { cx: 0, cy: 4, r: 9, class: "tip" }));
    svg.append(g);
  });
  return svg;
}

/** Why the review judges no move. */
export const unjudged = "The server has no solved table for these rules, so moves are not judged; the graph shows the race instead.";

/** Marks drawn on the board besides the squares: none. */
export function marks() {
  return [];
}
