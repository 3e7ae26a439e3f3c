// Plies, levels and rule sets said in words.

import { h, sideName } from "./dom.js";

/** The bot's levels, said in words. */
export const LEVELS = {
  ur: {
    1: "Beginner: grabs captures and rosettes when it sees them",
    2: "Casual: looks two moves ahead",
    3: "Strong: looks three moves ahead",
    4: "Expert: looks four moves ahead",
    perfect: "Perfect: plays the solved game's best move every time",
  },
  senet: {
    1: "Beginner: a rule of thumb for each throw",
    2: "Casual: looks one throw ahead",
    3: "Strong: looks two throws ahead",
    4: "Expert: looks three throws ahead",
  },
};

export const GAME_TITLES = { ur: "Royal Game of Ur", senet: "Senet" };

/** A rule set's name, or "custom". */
export function rulesName(rules) {
  return rules.includes("=") ? "custom rules" : rules;
}

/** The fields of custom rules, in a line of their own (nothing for a named set). */
export function rulesLine(rules) {
  return rules.includes("=") ? h("p", { class: "small rules-text" }, h("code", {}, rules)) : null;
}

/** The named rule sets in a few words. */
export const RULE_NOTES = {
  finkel: "Irving Finkel's rules: four dice, rosettes are safe, a throw of nothing loses the turn.",
  masters: "Masters rules: three dice, a throw of nothing counts 4, the long route, rosettes are not safe.",
  blitz: "Blitz: five pieces, four dice, the long route, rosettes are not safe, and a capture throws again too.",
  aseb: "Aseb: the long board of twelve middle squares, five pieces, four dice, rosettes are safe.",
  finkel2p: "Finkel's rules with two pieces a side: a short game.",
  masters4d: "Masters rules with four dice, a throw of nothing losing the turn.",
  kendall: "Timothy Kendall's reconstruction: two in a row protect, three in a row block, the water sends back.",
  skyruk: "The gym-senet reconstruction: two in a row block, house 26 throws again, the water holds a piece.",
};

/** Who holds a seat, in words: "you", "your friend", "the bot (level 3)". */
export function holder(seats, side, mine) {
  const who = seats[side];
  if (mine === side) return "you";
  if (who.startsWith("bot:")) {
    const level = who.slice(4);
    return level === "perfect" ? "the perfect bot" : `the bot, level ${level}`;
  }
  if (who === "open") return "waiting for a friend";
  return mine ? "your friend" : "a person";
}

/** `[from, to]` of a move text: squares, houses, `hand`, `home`, `off`. */
export function ends(move) {
  const i = move.indexOf("-");
  return [move.slice(0, i), move.slice(i + 1)];
}

function urMove(from, to) {
  if (from === "hand") return `enters a piece on ${to}`;
  if (to === "home") return `brings the piece on ${from} home`;
  return `moves ${from} to ${to}`;
}

function senetMove(from, to) {
  if (to === "off") return `bears the piece on ${from} off`;
  return `moves ${from} to ${to}`;
}

/** What a throw was, in words: "threw 3", "threw nothing (0)". */
function threw(game, roll, faces) {
  if (game === "ur" && roll === 0) return "threw nothing (0)";
  if (game === "senet" && roll === 5 && faces) return "threw no light face: 5";
  return `threw ${roll}`;
}

/** Why a turn was lost. */
export function lostReason(game, roll) {
  if (game === "ur" && roll === 0) return "a throw of 0 moves nothing";
  return `no piece can move ${roll}`;
}

/**
 * One ply told in words, from the `plies` endpoint's entry:
 * "Light threw 3 and moves c2 to f2, capturing a dark piece."
 */
export function plyWords(game, p) {
  const who = sideName(p.side);
  const other = p.side === "light" ? "dark" : "light";
  const parts = [`${who} ${threw(game, p.roll, p.faces)}`];
  if (p.move === null) {
    parts.push(`: ${lostReason(game, p.roll)}, the turn is lost`);
    if (p.again) parts.push(`; ${who.toLowerCase()} throws again`);
    return `${parts.join("")}.`;
  }
  const [from, to] = ends(p.move);
  parts.push(` and ${game === "ur" ? urMove(from, to) : senetMove(from, to)}`);
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
