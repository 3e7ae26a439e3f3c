// Senet's part of the page, behind the interface every game's module
// gives (see games.js): its pieces, the glyphs of its named houses, the
// strip where borne-off pieces go, its sticks, and its words.

import { s, sideName } from "./dom.js";

export const title = "Senet";
export const boardLabel = "The Senet board";
/** Both players see the track the same way up. */
export const flips = false;
/** Borne-off pieces go to a strip below the board. */
export const trayBelow = true;
/** What each side's pieces look like, for the start form. */
export const looks = { light: "cones; throws first", dark: "spools" };

/** A piece of `side`, centred on 0,0, `r` its half-size. */
export function pieceShape(side, r = 32) {
  const k = r / 32;
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

/** The glyph of a named house, by its kind, centred on 0,0. */
function glyph(kind) {
  const g = s("g", { class: "glyph", "aria-hidden": "true" });
  const line = (x1, y1, x2, y2) => s("line", { x1, y1, x2, y2 });
  switch (kind) {
    case "rebirth": // an ankh
      g.append(s("ellipse", { cx: 0, cy: -18, rx: 10, ry: 13 }), line(0, -5, 0, 30), line(-16, 2, 16, 2));
      break;
    case "happiness": // nfr
      g.append(s("circle", { cx: 0, cy: 10, r: 16 }), line(0, -6, 0, -32), line(-10, -22, 10, -22));
      break;
    case "water":
      for (const y of [-14, 0, 14]) {
        g.append(s("path", { d: `M-30 ${y} q7.5 -9 15 0 t15 0 t15 0 t15 0` }));
      }
      break;
    case "three_truths":
      g.append(line(-16, -18, -16, 18), line(0, -18, 0, 18), line(16, -18, 16, 18));
      break;
    case "re_atoum":
      g.append(line(-9, -18, -9, 18), line(9, -18, 9, 18));
      break;
    case "horus": // an eye
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

/**
 * What a house of the layout shows: `{mark, title, named, number}`; the
 * house's name is the rule set's (`board.special`), its glyph its kind's.
 */
export function square(sq, rulesBoard) {
  const named = sq.kind === "plain" ? null : rulesBoard.special[String(sq.number)];
  return {
    mark: named ? glyph(sq.kind) : null,
    title: named ? `house ${sq.name}, ${named}` : `house ${sq.name}`,
    named: Boolean(named),
    number: sq.name,
  };
}

/** A place in words. */
export function describePlace(place, side) {
  if (place === "off") return `off the board (${sideName(side).toLowerCase()})`;
  return `house ${place}`;
}

/** The trays: each side's pieces borne off, in a strip below the track. */
export function trays() {
  return ["light", "dark"].map((side) => ({
    place: "off",
    side,
    x: side === "light" ? 2.5 : 7.5,
    count: (c) => c.home,
  }));
}

/** The sticks as thrown: light side up or down. */
export function drawDice(bits, roll) {
  const w = 40;
  const svg = s("svg", {
    viewBox: `0 0 ${Math.max(bits.length, 1) * w} 96`,
    class: "throw senet",
    role: "img",
    "aria-label": `The sticks: ${bits.filter(Boolean).length} of ${bits.length} light side up, a roll of ${roll}`,
  });
  bits.forEach((up, i) => {
    const g = s("g", { transform: `translate(${i * w + w / 2} 48)`, class: `stick${up ? " up" : ""}` });
    g.append(s("rect", { x: -10, y: -42, width: 20, height: 84, rx: 9, class: "face" }));
    if (up) {
      for (const y of [-26, 26]) g.append(s("path", { d: `M-6 ${y - 4} L6 ${y + 4} M6 ${y - 4} L-6 ${y + 4}`, class: "edge" }));
    }
    svg.append(g);
  });
  return svg;
}

/** Why the review judges no move. */
export const unjudged = "Senet is not solved, so moves are not judged; the graph shows the race: each side's steps still to go.";

/** The track's turns, so that the S can be followed (`c`: a house's side). */
export function marks(c) {
  return [
    s("path", { d: `M${9.5 * c} ${0.82 * c} v${0.36 * c}`, class: "turn" }),
    s("path", { d: `M${0.5 * c} ${1.82 * c} v${0.36 * c}`, class: "turn" }),
  ];
}
