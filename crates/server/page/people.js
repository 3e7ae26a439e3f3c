// Playing people: the player's name, who is there, the games this browser
// holds a seat in, the games open to anyone, a rematch both players take,
// and the tab that says when it is the viewer's turn. Names are only ever
// set as text, never as markup.

import { createGame, gamePath, getJSON, loadSeat, Refused, request, saveSeat } from "./api.js";
import { h, sideName } from "./dom.js";
import { rulesName } from "./words.js";

/** The most characters a name may hold (the server's rule). */
export const NAME_MAX = 24;
/** The most games the list of "my games" asks the server for. */
const MY_GAMES_MAX = 50;

const NAME_KEY = "race.name";
const SEAT_PREFIX = "race.seat.";
const NOTIFY_KEY = "race.notify";
/** The tab's icon, and the one it shows while it is the viewer's turn. */
const ICON = "/page/icon.svg";
const TURN_ICON = "/page/icon-turn.svg";

/** The name this browser last gave, or "". */
export function savedName() {
  return localStorage.getItem(NAME_KEY) ?? "";
}

/** The name as sent: trimmed, or nothing; kept for the next form. */
export function nameToSend(text) {
  const name = text.trim();
  if (name) localStorage.setItem(NAME_KEY, name);
  return name || undefined;
}

/** A labelled name field filled with the saved name. */
export function nameField(id) {
  const input = h("input", {
    type: "text", id, name: "name", maxlength: NAME_MAX, autocomplete: "nickname",
    value: savedName(), placeholder: "optional",
  });
  return { input, el: h("label", { class: "select name-field" }, h("span", {}, "Your name"), input) };
}

/** The ids of every game this browser holds a seat in. */
export function heldGames() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key?.startsWith(SEAT_PREFIX)) ids.push(key.slice(SEAT_PREFIX.length));
  }
  return ids;
}

/** Forgets this browser's seat in game `id`. */
export function forgetGame(id) {
  localStorage.removeItem(`${SEAT_PREFIX}${id}`);
  localStorage.removeItem(`race.settings.${id}`);
}

/** A seat's name in the state, or what the page calls it. */
export function nameOf(st, side, mine) {
  const name = st.names?.[side];
  const seat = st.seats[side];
  if (mine === side) return name ? `you (${name})` : "you";
  if (seat.startsWith("bot:")) return `the bot (${name ?? seat.slice(4)})`;
  if (name) return name;
  if (seat === "open") return "nobody yet";
  return mine ? "your friend" : "a person";
}

/** `connected` / `away since 12:03` for a person's seat; nothing otherwise. */
export function presenceWords(st, side) {
  const word = st.presence?.[side];
  if (word !== "connected" && word !== "away") return "";
  const since = st.presence_since?.[side];
  if (word === "connected" || !since) return word;
  const at = new Date(since * 1000);
  return `away since ${at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
}

/** The players' line of a game's page: each seat's name and presence, and the watchers. */
export function playersLine(st, mine) {
  const seatPart = (side) => {
    const words = presenceWords(st, side);
    return h("span", { class: `player ${side}`, "data-side": side },
      `${sideName(side)}: `,
      h("span", { class: "player-name" }, nameOf(st, side, mine)),
      words ? h("span", { class: `presence ${st.presence[side]}`, "data-presence": st.presence[side] }, ` (${words})`) : null);
  };
  const watchers = st.watchers ? ` · ${st.watchers} watching` : "";
  return [seatPart("light"), " · ", seatPart("dark"), watchers];
}

/** Whether it is the turn of seat `mine` in state `st`. */
export function isTurnOf(st, mine) {
  return Boolean(mine) && st.status === "playing" && st.side === mine;
}

/**
 * The tab's title: says when it is the viewer's turn, and who just came
 * (`joined`, a name).
 */
export function titleFor(st, mine, title, joined = null) {
  const parts = [];
  if (isTurnOf(st, mine)) parts.push("Your turn");
  if (joined) parts.push(`${joined} joined`);
  return parts.length ? `${parts.join(" · ")} · ${title}` : `${title}: race games`;
}

/** Sets the tab's title (see `titleFor`) and its icon, the turn's while it is the viewer's. */
export function markTab(st, mine, title, joined = null) {
  document.title = titleFor(st, mine, title, joined);
  tabIcon(isTurnOf(st, mine));
}

/** Shows the tab's icon for the viewer's turn, or the page's own. */
export function tabIcon(turn) {
  const link = document.querySelector("link[rel='icon']");
  const href = turn ? TURN_ICON : ICON;
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** Whether the player asked to be notified of its turn, and the browser allows it. */
function notifying() {
  return localStorage.getItem(NOTIFY_KEY) === "on" && "Notification" in window
    && Notification.permission === "granted";
}

/**
 * The box that asks to be notified of one's turn while the tab is hidden:
 * the browser's leave is asked only when it is ticked, never before.
 * None where the browser has no notifications.
 */
export function notifyControl(say) {
  if (!("Notification" in window)) return null;
  const box = h("input", { type: "checkbox", id: "notify", checked: notifying() });
  box.addEventListener("change", async () => {
    if (!box.checked) {
      localStorage.removeItem(NOTIFY_KEY);
      return;
    }
    const answer = Notification.permission === "granted"
      ? "granted"
      : await Notification.requestPermission().catch(() => "denied");
    if (answer === "granted") {
      localStorage.setItem(NOTIFY_KEY, "on");
    } else {
      box.checked = false;
      say("This browser does not let the page notify you; its site settings can allow it.");
    }
  });
  return h("label", { class: "switch small notify" }, box, " Notify me of my turn");
}

/** Notifies the player that it is its turn in game `id`, when the tab is hidden and it asked. */
export function notifyTurn(id, body) {
  if (!document.hidden || !notifying()) return;
  const note = new Notification("Your turn", { body, tag: `race-${id}`, icon: TURN_ICON });
  note.addEventListener("click", () => {
    window.focus();
    note.close();
  });
}

/** How long ago Unix second `secs` was, in words, or its date when it is a week or more. */
export function ago(secs, now = Date.now() / 1000) {
  const passed = Math.max(0, Math.floor(now - secs));
  const unit = (n, word) => `${n} ${word}${n === 1 ? "" : "s"} ago`;
  if (passed < 60) return "just now";
  if (passed < 3600) return unit(Math.floor(passed / 60), "minute");
  if (passed < 86400) return unit(Math.floor(passed / 3600), "hour");
  if (passed < 7 * 86400) return unit(Math.floor(passed / 86400), "day");
  return `on ${new Date(secs * 1000).toLocaleDateString()}`;
}

/** Whose turn a state is, in words for the viewer. */
function statusWords(st, mine) {
  if (st.status === "waiting") return "waiting for a second player";
  if (st.status === "over") {
    if (!st.result?.winner) return "a draw";
    return st.result.winner === mine ? "you won" : "you lost";
  }
  return st.side === mine ? "your turn" : `${nameOf(st, st.side, mine)}'s turn`;
}

/** The front page's list of the games this browser holds a seat in. */
export async function myGames() {
  const ids = heldGames().slice(0, MY_GAMES_MAX);
  const card = h("section", { class: "card my-games", id: "my-games", "aria-labelledby": "my-games-title" },
    h("h2", { id: "my-games-title" }, "Your games"));
  if (!ids.length) return null;
  let games = [];
  try {
    games = (await getJSON(`/api/games?ids=${ids.map(encodeURIComponent).join(",")}`)).games;
  } catch {
    card.append(h("p", { class: "notice" }, "Your games could not be read."));
    return card;
  }
  // The ones waiting for this browser first (a game of two players here
  // always does), then the latest changed.
  const waits = (st) => {
    const seat = loadSeat(st.id);
    return st.status === "playing" && Boolean(seat) && (Boolean(seat.both) || st.side === seat.seat);
  };
  games.sort((a, b) => Number(waits(b)) - Number(waits(a)) || (b.changed ?? 0) - (a.changed ?? 0));
  const list = h("ul", { class: "game-list" });
  for (const st of games) {
    const seat = loadSeat(st.id);
    const mine = seat?.seat ?? null;
    const other = mine === "light" ? "dark" : "light";
    const changed = st.changed
      ? h("time", { class: "changed", datetime: new Date(st.changed * 1000).toISOString() }, ago(st.changed))
      : null;
    const link = st.status === "over" ? `/g/${st.id}/review` : `/g/${st.id}`;
    const forget = h("button", { type: "button", class: "quiet forget", "aria-label": "Forget this game" }, "Forget");
    const item = h("li", { class: waits(st) ? "game-item waits" : "game-item", "data-id": st.id },
      h("a", { href: link },
        h("span", { class: "game-name" }, `${st.game === "ur" ? "Royal Game of Ur" : "Senet"}, ${rulesName(st.rules)}`),
        seat?.both ? " at this screen" : [" against ", h("span", { class: "opponent" }, nameOf(st, other, mine))],
        ": ",
        h("span", { class: "game-status" }, waits(st) ? "waits for you" : statusWords(st, mine))),
      changed ? [" · ", changed] : null,
      " ", forget);
    forget.addEventListener("click", () => {
      forgetGame(st.id);
      item.remove();
    });
    list.append(item);
  }
  card.append(list);
  return card;
}

/**
 * Takes the open seat of game `id` (listed as open) with this browser's
 * name; resolves to the reply, the seat kept on success.
 */
export async function takeOpenGame(id, name) {
  const body = name ? { name } : {};
  const reply = await request("POST", `${gamePath(id)}/join`, { body });
  if (reply.ok) saveSeat(id, { seat: reply.data.seat, token: reply.data.token });
  return reply;
}

/** The front page's list of the games open to anyone. */
export async function openGames(nameInput) {
  let listed;
  try {
    listed = await getJSON("/api/open");
  } catch (e) {
    // A private server lists none.
    if (e instanceof Refused) return null;
    throw e;
  }
  const card = h("section", { class: "card open-games", id: "open-games", "aria-labelledby": "open-games-title" },
    h("h2", { id: "open-games-title" }, "Open games"));
  const others = listed.games.filter((g) => !loadSeat(g.id));
  if (!others.length) {
    card.append(h("p", { class: "small" }, "Nobody is waiting for a game. Start one open to anyone below."));
    return card;
  }
  const status = h("p", { class: "form-status", role: "status", "aria-live": "polite" });
  const list = h("ul", { class: "game-list" });
  for (const g of others) {
    const play = h("button", { type: "button", class: "primary take" }, "Play");
    play.addEventListener("click", async () => {
      play.disabled = true;
      const reply = await takeOpenGame(g.id, nameToSend(nameInput.value)).catch(() => null);
      if (reply?.ok) {
        location.assign(`/g/${g.id}`);
        return;
      }
      status.textContent = reply ? `That game is gone: ${reply.data?.error?.message ?? reply.status}` : "The server cannot be reached.";
    });
    const since = new Date(g.since * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    list.append(h("li", { class: "game-item", "data-id": g.id },
      h("span", { class: "opponent" }, g.name ?? "Someone"),
      ` waits for a game of ${g.game === "ur" ? "the Royal Game of Ur" : "Senet"} (${rulesName(g.rules)}) since ${since} `,
      play));
  }
  card.append(list, status);
  return card;
}

/**
 * The rematch part of a finished friend game's end card: offer, withdraw,
 * accept or decline, drawn again by `update(st)` on every state.
 */
export function rematchTogether(id, seat, say) {
  const box = h("div", { class: "rematch-together", id: "rematch-together" });
  const send = async (method) => {
    const reply = await request(method, `${gamePath(id)}/rematch`, { body: {}, token: seat.token }).catch(() => null);
    if (!reply) say("The server cannot be reached.");
    else if (!reply.ok) say(reply.data?.error?.message ?? `the server answered ${reply.status}`);
    return reply?.ok ? reply.data : null;
  };
  const button = (label, cls, method) => {
    const b = h("button", { type: "button", class: cls, id: `rematch-${method === "POST" ? "offer" : "drop"}` }, label);
    b.addEventListener("click", async () => {
      b.disabled = true;
      const st = await send(method);
      if (st) update(st);
      b.disabled = false;
    });
    return b;
  };
  // A rematch started before the page was opened is a link; one started
  // while it is shown takes the page there.
  let first = true;
  function update(st) {
    const r = st.rematch;
    const shownFirst = first;
    first = false;
    if (r?.game) {
      // Both seats are held: this browser's token plays the other side there.
      if (!loadSeat(r.game)) saveSeat(r.game, { seat: seat.seat === "light" ? "dark" : "light", token: seat.token });
      if (shownFirst) box.replaceChildren(h("a", { class: "button", id: "rematch-link", href: `/g/${r.game}` }, "Go to the rematch"));
      else location.assign(`/g/${r.game}`);
      return;
    }
    if (!r) {
      box.replaceChildren(button("Rematch", "primary", "POST"));
    } else if (r.offered_by === seat.seat) {
      box.replaceChildren(h("p", { class: "notice" }, "Rematch offered: waiting for the answer."),
        button("Withdraw", "quiet", "DELETE"));
    } else {
      box.replaceChildren(h("p", { class: "notice", id: "rematch-offered" }, `${nameOf(st, r.offered_by, seat.seat)} offers a rematch.`),
        button("Accept", "primary", "POST"), button("Decline", "quiet", "DELETE"));
    }
  }
  return { el: box, update };
}

/**
 * Creates a game for two players at this screen: a friend game whose
 * other seat this browser takes at once, both tokens kept under the
 * game's id (`both`), the board turned to the side to move when `turn`.
 * Resolves to the game's id.
 */
export async function createHotSeat(settings, turn) {
  const made = await createGame({ ...settings, opponent: "friend" });
  const invite = made.invite.split("#join=")[1];
  const reply = await request("POST", `${gamePath(made.id)}/join`, { body: { invite } });
  if (!reply.ok) throw new Refused(reply);
  const both = { [made.seat]: made.token, [reply.data.seat]: reply.data.token };
  saveSeat(made.id, { seat: made.seat, token: made.token, both, turn });
  return made.id;
}
