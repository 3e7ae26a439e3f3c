// The start page: choose a game, its rules, an opponent and a side.

import { createGame, getJSON, ruleSet, Refused } from "./api.js";
import { h } from "./dom.js";
import { gameOf } from "./games.js";
import { createHotSeat, myGames, nameField, nameToSend, openGames } from "./people.js";

function radios(name, legend, options, checked, onChange, pair = false) {
  return h("fieldset", { class: "choice" },
    h("legend", {}, legend),
    h("div", { class: pair ? "options pair" : "options" }, options.map(([value, label, note]) =>
      h("label", { class: "option" },
        h("input", { type: "radio", name, value, checked: value === checked, onchange: () => onChange(value) }),
        h("span", { class: "option-text" }, h("span", { class: "option-label" }, label), note ? h("span", { class: "note" }, note) : null)))));
}

export async function showStart(main) {
  const catalogue = await getJSON("/api/rules");
  // Everything the form offers comes from the server's catalogue: the
  // games, their presets with a line about each, the custom fields, the
  // bot's levels with a line about each.
  const games = Object.fromEntries(catalogue.games.map((g) => [g.game, g]));
  const first = catalogue.games[0];
  const top = (g) => String(g.levels[g.levels.length - 1]);
  const levelNote = (g, level) => g.level_notes.find((n) => n.level === level)?.about;
  const form = {
    game: first.game,
    rules: first.default,
    custom: {},
    opponent: "bot",
    level: top(first),
    side: "random",
    turn: true,
  };
  let perfect = false;
  let checking = 0;

  const status = h("p", { class: "form-status", role: "status", "aria-live": "polite" });
  const body = h("div", { class: "start-body" });
  const start = h("button", { type: "submit", class: "primary", id: "start" }, "Start the game");
  const name = nameField("start-name");
  const el = h("form", { class: "start card", "aria-labelledby": "start-title" },
    h("h1", { id: "start-title" }, "Play a race game"),
    name.el,
    body,
    h("div", { class: "actions" }, start),
    status);
  main.replaceChildren(el);
  // The games this browser plays, and those open to anyone, beside the form.
  const lists = async () => {
    const [mineCard, openCard] = await Promise.all([myGames(), openGames(name.input).catch(() => null)]);
    for (const card of [openCard, mineCard]) if (card) el.before(card);
  };
  lists();

  const rulesText = () => {
    if (form.rules !== "custom") return form.rules;
    const g = games[form.game];
    return g.fields.map((f) => `${f.name}=${form.custom[f.name] ?? f.values[0]}`).join(" ");
  };

  const checkRules = async () => {
    const n = ++checking;
    // No start while the rules are being checked: the form is drawn again
    // once they are.
    start.disabled = true;
    try {
      const view = await ruleSet(form.game, rulesText());
      if (n !== checking) return;
      perfect = view.perfect;
      status.textContent = "";
      start.disabled = false;
    } catch (e) {
      if (n !== checking) return;
      perfect = false;
      status.textContent = e instanceof Refused ? e.message : "The server cannot be reached.";
      start.disabled = true;
    }
    if (!perfect && form.level === "perfect") form.level = top(games[form.game]);
    render();
  };

  const render = () => {
    const g = games[form.game];
    const parts = [
      radios("game", "Game", catalogue.games.map((c) => [c.game, c.title, c.about]), form.game, (v) => {
        form.game = v;
        form.rules = games[v].default;
        form.custom = {};
        form.level = top(games[v]);
        checkRules();
      }),
    ];
    const ruleOptions = g.named.map((n) => h("option", { value: n.name, selected: form.rules === n.name }, n.name));
    ruleOptions.push(h("option", { value: "custom", selected: form.rules === "custom" }, "custom…"));
    const rules = h("fieldset", { class: "choice" },
      h("legend", {}, "Rules"),
      h("label", { class: "select" }, h("span", {}, "Rule set"),
        h("select", { name: "rules", onchange: (e) => { form.rules = e.target.value; checkRules(); } }, ruleOptions)),
      h("p", { class: "note" }, g.named.find((n) => n.name === form.rules)?.about ?? "Choose each rule below."));
    if (form.rules === "custom") {
      rules.append(h("div", { class: "fields" }, g.fields.map((f) =>
        h("label", { class: "select" }, h("span", {}, f.name.replace("_", " ")),
          h("select", { name: `field-${f.name}`, onchange: (e) => { form.custom[f.name] = e.target.value; checkRules(); } },
            f.values.map((v) => h("option", { value: v, selected: (form.custom[f.name] ?? f.values[0]) === v }, v)))))));
    }
    parts.push(rules);
    parts.push(radios("opponent", "Opponent", [
      ["bot", "The bot", "plays at once, on this server"],
      ["friend", "A friend", "you get a link to send them"],
      ["open", "Anyone", "listed here until someone takes it"],
      ["here", "Two here", "both players at this screen"],
    ], form.opponent, (v) => { form.opponent = v; render(); }, true));
    if (form.opponent === "here") {
      parts.push(h("label", { class: "option turn-board" },
        h("input", { type: "checkbox", name: "turn", checked: form.turn, onchange: (e) => { form.turn = e.target.checked; } }),
        h("span", { class: "option-text" }, "Turn the board toward the side to move")));
    }
    if (form.opponent === "bot") {
      const levels = g.levels.map(String);
      if (perfect) levels.push("perfect");
      parts.push(radios("level", "The bot's level", levels.map((l) => [l, l === "perfect" ? "Perfect" : `Level ${l}`, levelNote(g, l)]),
        form.level, (v) => { form.level = v; }, true));
    }
    parts.push(radios("side", "Your side", [
      ["light", "Light", gameOf(form.game).looks.light],
      ["dark", "Dark", gameOf(form.game).looks.dark],
      ["random", "Either", "the server tosses a coin"],
    ], form.side, (v) => { form.side = v; }, true));
    // Keep the focus on the control that had it.
    const active = document.activeElement;
    const had = active && body.contains(active) && active.name ? active : null;
    body.replaceChildren(...parts);
    if (had) {
      const same = had.type === "radio"
        ? body.querySelector(`input[name="${had.name}"][value="${had.value}"]`)
        : body.querySelector(`[name="${had.name}"]`);
      same?.focus();
    }
  };

  el.addEventListener("submit", async (e) => {
    e.preventDefault();
    start.disabled = true;
    status.textContent = "Starting…";
    const settings = { game: form.game, rules: rulesText(), opponent: form.opponent, side: form.side };
    const given = nameToSend(name.input.value);
    if (given) settings.name = given;
    if (form.opponent === "bot") settings.level = form.level === "perfect" ? "perfect" : Number(form.level);
    try {
      const made = form.opponent === "here"
        ? { id: await createHotSeat(settings, form.turn) }
        : await createGame(settings);
      location.assign(`/g/${made.id}`);
    } catch (err) {
      status.textContent = err instanceof Refused ? err.message : "The server cannot be reached; try again.";
      start.disabled = false;
    }
  });
  render();
  await checkRules();
}
