// What teaches the game beside the board: the rule set's rules in a few
// lines, and a legend of the board's special squares, both from the rule
// set's own data (so custom rules get their own text).

import { h, s } from "./dom.js";

const SEEN = "race.howto.seen";

/**
 * The how-to-play panel: open on this browser's first visit, closed after
 * (a click on its summary opens it again).
 */
export function howToPanel(rules) {
  const first = localStorage.getItem(SEEN) !== "yes";
  localStorage.setItem(SEEN, "yes");
  return h("details", { class: "how-to", id: "how-to", open: first },
    h("summary", {}, "How to play"),
    h("dl", {}, rules.how_to.flatMap((line) => [
      h("dt", {}, line.topic),
      h("dd", { "data-topic": line.topic }, line.text),
    ])));
}

/** The legend of the board's special squares, each with its mark as drawn. */
export function legend(game, rules) {
  if (!rules.legend.length) return null;
  return h("ul", { class: "legend-list", id: "legend", "aria-label": "What the marked squares do" },
    rules.legend.map((entry) => {
      const sq = rules.layout.squares.find((q) => q.name === entry.squares[0]);
      const mark = sq ? game.square(sq, rules.board).mark : null;
      return h("li", { "data-kind": entry.kind },
        s("svg", { viewBox: "-50 -50 100 100", class: "legend-mark", "aria-hidden": "true" },
          s("rect", { x: -47, y: -47, width: 94, height: 94, rx: 8, class: "square" }), mark),
        h("span", {}, h("strong", {}, `${entry.squares.join(", ")}: `), entry.about));
    }));
}
