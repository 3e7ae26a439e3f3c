// Plies, levels and rule sets said in words.

import { h } from "./dom.js";

/** A rule set's name, or "custom". */
export function rulesName(rules) {
  return rules.includes("=") ? "custom rules" : rules;
}

/** The fields of custom rules, in a line of their own (nothing for a named set). */
export function rulesLine(rules) {
  return rules.includes("=") ? h("p", { class: "small rules-text" }, h("code", {}, rules)) : null;
}

/**
 * A ply as the server says it to this reader: to the player of its side
 * ("You threw 2 and moved a2 to b2, taking the dark piece there: ...")
 * or, for one who watches, in the third person.
 */
export function said(p, mine) {
  return p.said[mine ?? "watcher"];
}
