// Plies, levels and rule sets said in words.

import { h, sideName } from "./dom.js";


/** A rule set's name, or "custom". */
export function rulesName(rules) {
  return rules.includes("=") ? "custom rules" : rules;
}

/** The fields of custom rules, in a line of their own (nothing for a named set). */
export function rulesLine(rules) {
  return rules.includes("=") ? h("p", { class: "small rules-text" }, h("code", {}, rules)) : null;
}

/** `[from, to]` of a move text: squares, houses, `hand`, `home`, `off`. */
export function ends(move) {
  const i = move.indexOf("-");
  return [move.slice(0, i), move.slice(i + 1)];
}

/**
 * One ply told in words, from the `plies` endpoint's entry and the
 * game's module (games.js):
 * "Light threw 3 and moves c2 to f2, capturing a dark piece."
 */
export function plyWords(game, p) {
  const who = sideName(p.side);
  const other = p.side === "light" ? "dark" : "light";
  const parts = [`${who} ${game.threw(p.roll, p.faces)}`];
  if (p.move === null) {
    parts.push(`: ${game.lostReason(p.roll)}, the turn is lost`);
    if (p.again) parts.push(`; ${who.toLowerCase()} throws again`);
    return `${parts.join("")}.`;
  }
  const [from, to] = ends(p.move);
  parts.push(` and ${game.moveWords(from, to)}`);
  const notes = [];
  if (p.capture) notes.push(`captures a ${other} piece, sent back to its hand`);
  if (p.swap) notes.push(`swaps places with the ${other} piece there`);
  if (p.ends === "off") notes.push("and it goes off the board");
  else if (p.ends === "27") notes.push("but it is turned aside into the water");
  else if (p.ends && Number(p.ends) <= 15) {
    notes.push(`${to === "27" ? "it falls into the water and" : "it"} is reborn on ${p.ends}`);
  } else if (p.ends) notes.push(`and it ends on ${p.ends}`);
  if (p.rosette) notes.push("lands on a rosette");
  if (p.again) notes.push("throws again");
  if (notes.length) parts.push(`: ${notes.join(", ")}`);
  return `${parts.join("")}.`;
}
