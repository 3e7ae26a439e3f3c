// The review of a finished game: step through its positions; a graph of
// the viewer's side's chance to win after every ply when the server has a
// solved table for the rules (with each side's accuracy, grades, luck and
// luck-adjusted result, every ply's grade, the key moments and each
// side's mistakes, all as the server's analysis gives them), otherwise of
// the race count, each side's steps still to go.

import { gamePath, getJSON, loadSeat, ruleSet } from "./api.js";
import { coordinatesSwitch, drawBoard, drawThrow, showCoordinates } from "./board.js";
import { h, percent, s, sideName } from "./dom.js";
import { gameOf } from "./games.js";
import { rulesLine, rulesName, said } from "./words.js";

const W = 420;
const H = 230;
const PAD = { left: 44, right: 12, top: 14, bottom: 30 };

/** The graph: one point a ply, each a button to its position; with a
 * table, the chance of `side` (the viewer's, light for a watcher). */
function graph(story, side, show) {
  const n = story.plies.length;
  const a = story.analysis;
  const x = (i) => PAD.left + ((W - PAD.left - PAD.right) * i) / Math.max(n, 1);
  const svg = s("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "graph",
    id: "graph",
    role: "group",
    "aria-label": a ? `${sideName(side)}'s chance to win after every ply` : "Steps to go for each side after every ply",
  });
  const inner = H - PAD.top - PAD.bottom;
  let series;
  let y;
  if (a) {
    y = (v) => PAD.top + inner * (1 - v);
    const of = (light) => (side === "light" ? light : 1 - light);
    series = [{ cls: side, start: of(a.start), values: a.light_chances.map(of), label: (v) => `${side} ${percent(v)}` }];
    for (const v of [0, 0.5, 1]) {
      svg.append(
        s("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: v === 0.5 ? "axis mid" : "axis" }),
        s("text", { x: PAD.left - 6, y: y(v) + 5, class: "tick" }, `${v * 100}%`));
    }
  } else {
    const all = [story.start.race.light, story.start.race.dark, ...story.plies.flatMap((p) => [p.race.light, p.race.dark])];
    const top = Math.max(...all, 1);
    y = (v) => PAD.top + inner * (1 - v / top);
    series = ["light", "dark"].map((side) => ({
      cls: side,
      start: story.start.race[side],
      values: story.plies.map((p) => p.race[side]),
      label: (v) => `${side} ${v} to go`,
    }));
    for (const v of [0, Math.round(top / 2), top]) {
      svg.append(
        s("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: "axis" }),
        s("text", { x: PAD.left - 6, y: y(v) + 5, class: "tick" }, String(v)));
    }
  }
  svg.append(s("text", { x: W - PAD.right, y: H - 6, class: "tick end" }, `ply ${n}`));
  svg.append(s("text", { x: PAD.left, y: H - 6, class: "tick start" }, "start"));
  const cursor = s("line", { y1: PAD.top, y2: H - PAD.bottom, class: "cursor" });
  svg.append(cursor);
  series.forEach((ser, k) => {
    const pts = [[x(0), y(ser.start)], ...ser.values.map((v, i) => [x(i + 1), y(v)])];
    svg.append(s("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: `line ${ser.cls}` }));
    ser.values.forEach((v, i) => {
      const dot = s("circle", {
        cx: x(i + 1),
        cy: y(v),
        r: n > 120 ? 3 : 4.5,
        class: `${k === 0 ? "pt" : "dot"} ${ser.cls}`,
        "data-ply": i,
        "data-value": v,
      });
      dot.append(s("title", {}, `After ply ${i + 1}: ${ser.label(v)}`));
      dot.addEventListener("click", () => show(i + 1));
      svg.append(dot);
    });
  });
  return {
    svg,
    at: (i) => {
      cursor.setAttribute("x1", x(i));
      cursor.setAttribute("x2", x(i));
    },
  };
}

function totals(side, t) {
  return `${sideName(side)}: ${t.mistakes} ${t.mistakes === 1 ? "move" : "moves"} not the best in ${t.choices} throws with a choice, ${(t.lost * 100).toFixed(1)} points of winning chance lost; luck ${(t.luck * 100).toFixed(1)} points.`;
}

const GRADES = ["best", "good", "inaccuracy", "mistake", "blunder"];
const GRADE_WORDS = { best: "Best", good: "Good", inaccuracy: "Inaccuracy", mistake: "Mistake", blunder: "Blunder" };
const points = (x) => (x * 100).toFixed(2);

/**
 * Each side's figures as the analysis gives them: accuracy (100 × (1 −
 * mean chance lost per decision with a choice)), the grade counts, luck,
 * result and luck-adjusted result. Each figure keeps its exact number in
 * a `data-value` beside the rounded text.
 */
function scoreTable(a) {
  const cell = (value, text) => h("td", { "data-value": value ?? "" }, text);
  const row = (label, key, each) => h("tr", { "data-figure": key },
    h("th", { scope: "row" }, label),
    ...["light", "dark"].map((side) => each(a[side], side)));
  return h("table", { class: "scores", id: "scores" },
    h("thead", {}, h("tr", {}, h("td", {}), h("th", { scope: "col" }, "Light"), h("th", { scope: "col" }, "Dark"))),
    h("tbody", {},
      row("Accuracy", "accuracy", (t) => cell(t.accuracy, t.accuracy === null ? "–" : t.accuracy.toFixed(2))),
      row("Mean lost a choice (points)", "mean_lost", (t) => cell(t.mean_lost, t.mean_lost === null ? "–" : points(t.mean_lost))),
      ...GRADES.map((g) => row(GRADE_WORDS[g], `grades.${g}`, (t) => cell(t.grades[g], String(t.grades[g])))),
      row("Luck (points)", "luck", (t) => cell(t.luck, points(t.luck))),
      row("Result", "result", (t) => cell(t.result, `${points(t.result)}%`)),
      row("Luck-adjusted result", "luck_adjusted", (t) => cell(t.luck_adjusted, `${points(t.luck_adjusted)}%`))));
}

export async function showReview(main, id) {
  const st = await getJSON(gamePath(id));
  const game = gameOf(st.game);
  document.title = `Review: ${game.title}: race games`;
  if (st.status !== "over") {
    main.replaceChildren(h("section", { class: "card" },
      h("h1", {}, "This game is still on"),
      h("p", {}, "The review opens when the game ends. ", h("a", { href: `/g/${id}` }, "Go to the game"), ".")));
    return;
  }
  const [rules, story] = await Promise.all([ruleSet(st.game, st.rules), getJSON(`${gamePath(id)}/plies`)]);
  const n = story.plies.length;
  let index = n;
  // The viewer's side at the bottom, as on the game page.
  const mine = loadSeat(id)?.seat ?? null;
  const flip = game.flips && mine === "dark";
  // The graph follows the viewer's side (light for a watcher).
  const viewer = mine === "dark" ? "dark" : "light";

  const caption = h("p", { class: "turn", id: "review-caption", role: "status", "aria-live": "polite" });
  const dice = h("div", { class: "dice" });
  const boardBox = h("div", { class: "board-box", id: "board" });
  const range = h("input", { type: "range", min: 0, max: n, value: n, id: "step", "aria-label": "Ply" });
  // Step buttons with drawn icons: bars for the ends, triangles between.
  const icon = (bar, flip) => s("svg", { viewBox: "0 0 16 16", "aria-hidden": "true" },
    s("g", { transform: flip ? "translate(16 0) scale(-1 1)" : null },
      s("path", { d: "M12 2 L4 8 L12 14 Z" }),
      bar ? s("rect", { x: 2, y: 2, width: 2, height: 12 }) : null));
  const button = (label, bar, flip, go) => h("button", { type: "button", class: "quiet step", "aria-label": label, onclick: go }, icon(bar, flip));
  const g = graph(story, viewer, (i) => show(i));

  const turns = story.analysis?.turns ?? [];
  // The move a ply played and, with a table, the best move when another:
  // arrows for the board and words for the caption.
  const drawn = (k) => {
    const p = story.plies[k];
    const arrows = [];
    let words = "";
    // The throw's offers give each move's places.
    const offer = (move) => p.offered.find((o) => o.move === move);
    if (p.move) arrows.push({ move: p.move, kind: "played", side: p.side, from: p.from, to: p.to });
    const best = turns[k]?.best;
    if (best && best !== p.move && offer(best)) {
      arrows.push({ move: best, kind: "best", side: p.side, from: offer(best).from, to: offer(best).to });
      words = ` The best move was ${best} (the dashed arrow).`;
    } else if (best) words = " It was the best move.";
    return { arrows, words };
  };
  // Shows again what is shown, after a setting changed.
  let again = () => show(n);
  const chance = (i) => {
    const light = i ? story.analysis.light_chances[i - 1] : story.analysis.start;
    return percent(viewer === "light" ? light : 1 - light);
  };

  /**
   * Shows ply `k + 1`. With `before`, the board it was played on, its
   * throw and the move drawn on it; otherwise the board after it. The
   * step counts the positions: `k` before the ply, `k + 1` after it.
   */
  function showPly(k, before) {
    again = () => showPly(k, before);
    const p = story.plies[k];
    index = before ? k : k + 1;
    range.value = String(index);
    const at = before ? (k > 0 ? story.plies[k - 1] : story.start) : p;
    const { arrows, words } = drawn(k);
    boardBox.replaceChildren(drawBoard({
      game, word: st.game, layout: rules.layout, rulesBoard: rules.board, placed: at, side: p.side, flip, arrows, coordinates: showCoordinates(),
      last: !before && p.move ? { from: p.from, to: p.to, side: p.side } : null,
    }).svg);
    dice.replaceChildren(...(p.faces ? [drawThrow(game, p.faces, p.roll), h("span", { class: "roll" }, String(p.roll))] : []));
    const grade = turns[k]?.grade;
    let text = `Ply ${k + 1} of ${n}: ${said(p, mine)}${words}`;
    if (grade) text += ` Grade: ${GRADE_WORDS[grade].toLowerCase()}.`;
    if (story.analysis) text += ` ${sideName(viewer)}'s chance to win ${before ? "before it" : "after it"}: ${chance(index)}.`;
    else text += ` Steps to go${before ? " before it" : ""}: light ${at.race.light}, dark ${at.race.dark}.`;
    caption.textContent = text;
    g.at(index);
    for (const el of main.querySelectorAll(".current")) el.classList.remove("current");
    // The point under the cursor, and the ply shown in the list.
    main.querySelector(`.pt[data-ply="${index - 1}"]`)?.classList.add("current");
    const item = main.querySelector(`.ply-item[data-ply="${k}"]`);
    if (item) {
      item.classList.add("current");
      // Into the list's view, scrolling the list alone (never the page).
      const list = item.closest(".ply-list");
      const r = item.getBoundingClientRect();
      const l = list.getBoundingClientRect();
      if (r.top < l.top) list.scrollTop -= l.top - r.top;
      else if (r.bottom > l.bottom) list.scrollTop += r.bottom - l.bottom;
    }
    history.replaceState(null, "", `#ply=${k + 1}`);
  }

  /** Shows the position after `i` plies (the start for 0). */
  function show(i) {
    i = Math.max(0, Math.min(n, i));
    if (i > 0) {
      showPly(i - 1, false);
      return;
    }
    again = () => show(0);
    index = 0;
    range.value = "0";
    boardBox.replaceChildren(drawBoard({
      game, word: st.game, layout: rules.layout, rulesBoard: rules.board, placed: story.start, side: null, flip, coordinates: showCoordinates(),
    }).svg);
    dice.replaceChildren();
    let text = `The start: ${n} plies follow.`;
    if (story.analysis) text += ` ${sideName(viewer)}'s chance to win: ${chance(0)}.`;
    else text += ` Steps to go: light ${story.start.race.light}, dark ${story.start.race.dark}.`;
    caption.textContent = text;
    g.at(0);
    for (const el of main.querySelectorAll(".current")) el.classList.remove("current");
    history.replaceState(null, "", location.pathname);
  }

  range.addEventListener("input", () => show(Number(range.value)));

  const judged = h("div", { class: "mistakes", id: "mistakes" });
  const judgedPlies = [];
  if (story.analysis) {
    const a = story.analysis;
    judgedPlies.push(
      h("h3", {}, "Accuracy and luck"),
      scoreTable(a),
      h("h3", {}, "Key moments"),
      h("p", { class: "small" }, "The plies whose mover's chance swung most, from before the throw to after the move."),
      h("ol", { class: "key-moments", id: "key-moments" }, a.key_moments.map((ply) => {
        const t = a.turns[ply];
        return h("li", {}, h("button", {
          type: "button",
          class: `key-moment ${t.side}`,
          "data-ply": ply,
          onclick: () => showPly(ply, true),
        }, h("span", { class: "m-ply" }, `Ply ${ply + 1}`),
        ` ${sideName(t.side)} ${t.swing >= 0 ? "+" : "−"}${points(Math.abs(t.swing))} points`));
      })),
      h("h3", {}, "Every ply"),
      h("ol", { class: "ply-list", id: "review-plies" }, story.plies.map((p, k) => {
        const grade = a.turns[k]?.grade;
        return h("li", { value: k + 1 }, h("button", {
          type: "button",
          class: `ply-item ${p.side}${grade ? ` grade-${grade}` : ""}`,
          "data-ply": k,
          "data-grade": grade ?? "",
          onclick: () => showPly(k, true),
        }, h("span", { class: "m-ply" }, `Ply ${k + 1}`), said(p, mine),
        grade ? h("span", { class: `grade g-${grade}` }, ` ${GRADE_WORDS[grade]}`) : null));
      })));
    for (const side of ["light", "dark"]) {
      const list = a.turns.filter((t) => t.side === side && t.lost > 1e-9);
      judged.append(
        h("h3", {}, `${sideName(side)}'s mistakes`),
        h("p", { class: "small" }, totals(side, a[side])),
        list.length
          ? h("ol", { class: "mistake-list" }, list.map((t) =>
            h("li", {}, h("button", {
              type: "button",
              class: `mistake ${side}`,
              "data-ply": t.ply,
              "data-lost": t.lost,
              onclick: () => showPly(t.ply, true),
            }, h("span", { class: "m-ply" }, `Ply ${t.ply + 1}`),
            ` threw ${t.roll}, played ${t.move}; best ${t.best}. `,
            h("strong", {}, `−${(t.lost * 100).toFixed(2)} points`)))))
          : h("p", { class: "small" }, "None: every move was the best."));
    }
  } else {
    judged.append(h("p", { class: "small" }, game.unjudged));
  }

  const result = st.result.winner
    ? `${sideName(st.result.winner)} won${st.result.how === "resign" ? " by resignation" : ""} after ${n} plies.`
    : `A draw after ${n} plies.`;
  main.replaceChildren(h("section", { class: "review" },
    h("div", { class: "game-head" },
      h("h1", {}, "Review: ", game.title, " ", h("span", { class: "rules" }, rulesName(st.rules))),
      rulesLine(st.rules),
      h("p", { class: "players" }, result, " ", h("a", { href: `/g/${id}` }, "The game page"), ".")),
    h("div", { class: "play-area" },
      h("div", { class: "table" },
        h("div", { class: "status" }, h("div", { class: "status-text" }, caption), dice),
        boardBox,
        h("div", { class: "steps" },
          button("First position", true, false, () => show(0)),
          button("One ply back", false, false, () => show(index - 1)),
          range,
          button("One ply on", false, true, () => show(index + 1)),
          button("Last position", true, true, () => show(n))),
        coordinatesSwitch(() => again())),
      h("aside", { class: "side-panel card" },
        h("h2", {}, story.analysis ? `${sideName(viewer)}'s chance to win` : "The race: steps to go"),
        g.svg,
        story.analysis ? null : h("p", { class: "legend small" }, h("span", { class: "key light" }), " light  ", h("span", { class: "key dark" }), " dark"),
        ...judgedPlies,
        judged))));
  // The arrow keys step whatever has focus, but for a field being typed
  // in and the step slider, which steps by itself.
  const typing = (el) => el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || el?.isContentEditable
    || (el instanceof HTMLInputElement && el !== range && !["button", "checkbox", "radio", "submit", "reset"].includes(el.type));
  const gone = () => {
    if (main.contains(range)) return false;
    removeEventListener("keydown", onKey);
    removeEventListener("hashchange", onHash);
    return true;
  };
  const onKey = (e) => {
    if (gone()) return;
    if (e.target === range || typing(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    e.preventDefault();
    show(index + (e.key === "ArrowLeft" ? -1 : 1));
  };
  // `#ply=N` opens on ply N (as the log numbers it, from 1), as played:
  // the board it was played on, its throw and its moves; so does a link
  // to another ply followed on this page.
  const open = () => {
    const asked = Number(location.hash.match(/^#ply=(\d+)$/)?.[1] ?? 0);
    if (asked >= 1 && asked <= n) showPly(asked - 1, true);
    else show(n);
  };
  const onHash = () => {
    if (!gone()) open();
  };
  addEventListener("keydown", onKey);
  addEventListener("hashchange", onHash);
  open();
}
