// A game: the board, the throw, whose turn, the moves on offer, the log in
// words; the invite while a friend is awaited; the end with the dice
// checked. A browser that holds no seat of the game watches.

import {
  createGame, gamePath, getJSON, joinGame, loadSeat, loadSettings, pendingJoin, Refused, request, ruleSet,
  sendMove, watch,
} from "./api.js";
import { animateMove, coordinatesSwitch, drawBoard, drawThrow, showCoordinates } from "./board.js";
import { h, sideName } from "./dom.js";
import { gameOf } from "./games.js";
import {
  createHotSeat, isTurnOf, markTab, notifyControl, notifyTurn, playersLine, rematchTogether, savedName, tabIcon,
} from "./people.js";
import { rulesLine, rulesName, said } from "./words.js";
import { howToPanel, legend } from "./teach.js";

const HOW = {
  home: "by bringing every piece home",
  resign: "by resignation",
  ply_cap: "by the ply limit",
};

/** Lowercase hex SHA-256 of the bytes a hex text spells, in the browser. */
async function sha256Hex(hex) {
  const bytes = new Uint8Array(hex.match(/../g).map((b) => parseInt(b, 16)));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** What a refused reply says: its error's message, or its status. */
function refusal(reply) {
  return reply.data?.error?.message ?? `the server answered ${reply.status}`;
}

/**
 * Takes the seat an invite link (`#join=TOKEN`) offers, after taking the
 * link off the address; or sends again a join whose reply was lost.
 */
async function joinFromLink(id, note) {
  const match = location.hash.match(/^#join=([A-Za-z0-9_-]+)$/);
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  if (loadSeat(id)) return;
  if (!match && !pendingJoin(id)) return;
  const reply = await joinGame(id, match?.[1], savedName() || undefined);
  if (!reply) {
    note("The server could not be reached to take your seat: reload the page to try again.");
  } else if (!reply.ok) {
    note(`This invite link opens no seat: ${refusal(reply)}. You are watching the game.`);
  }
}

/** Shows game `id` in `main`; resolves to `{stop}`, which stops following it. */
export async function showGame(main, id, net) {
  const notes = [];
  await joinFromLink(id, (t) => notes.push(t));
  const first = await getJSON(gamePath(id));
  // Everything the view shows, in one object that one render() draws.
  const ui = {
    /** The game's state as the server last sent it. */
    st: first,
    /** The game told ply by ply (`/plies`), for the log. */
    story: { start: null, plies: [] },
    /** The place whose targets are shown. */
    selected: null,
    /** The place under the mouse, whose route is shown. */
    hovered: null,
    /** The move sent and not yet answered. */
    pending: null,
    /** Whether the event stream is connected. */
    online: true,
    /** The board drawn last. */
    board: null,
    /** The last ply whose move was animated. */
    lastAnimated: -1,
    /** Whether `/plies` is being read. */
    loadingStory: false,
    /** What the page says happened, until the next change. */
    message: "",
    /** Whether the plies the page opened on are read: later ones are announced. */
    told: false,
    /** Who took the other seat while the page showed the game, and the ply then: said in the tab's title until a move. */
    joined: null,
  };  const rules = await ruleSet(ui.st.game, ui.st.rules);
  const seat = loadSeat(id);
  let mine = seat?.seat ?? null;
  const game = gameOf(ui.st.game);
  let flip = game.flips && mine === "dark";
  // Two players at this screen: the seat is the side to move's.
  const hotSeat = (st) => {
    if (!seat?.both || !st.side) return;
    mine = st.side;
    seat.token = seat.both[mine];
    if (seat.turn) flip = game.flips && mine === "dark";
  };
  hotSeat(ui.st);
  // Both seats held by people: a rematch is offered to the other seat.
  const together = mine && !seat.both && !ui.st.seats.light.startsWith("bot:") && !ui.st.seats.dark.startsWith("bot:")
    ? rematchTogether(id, seat, (t) => say(t))
    : null;
  markTab(ui.st, mine, game.title);

  // The parts of the page.
  const players = h("p", { class: "players" });
  const invite = h("section", { class: "invite card", id: "invite", hidden: true, "aria-labelledby": "invite-title" });
  const turn = h("p", { class: "turn", id: "turn", role: "status", "aria-live": "polite" });
  const notice = h("p", { class: "notice", id: "notice" });
  // Each ply said once, as it arrives, to a screen reader.
  const announce = h("p", { class: "sr-only", id: "announce", "aria-live": "polite" });
  const dice = h("div", { class: "dice", id: "dice" });
  const boardBox = h("div", { class: "board-box", id: "board" });
  const help = h("p", { class: "help" });
  const resign = h("button", { type: "button", class: "quiet", id: "resign", hidden: true }, "Resign");
  // Asking to be notified of one's turn, while turns are to come.
  const notify = mine && !seat.both ? notifyControl((t) => say(t)) : null;
  const log = h("ol", { class: "log", id: "log", reversed: true, "aria-label": "What happened, newest first" });
  const end = h("section", { class: "end card", id: "end", hidden: true, "aria-labelledby": "end-title" });
  const fair = h("details", { class: "fair" },
    h("summary", {}, "Fair dice"),
    h("p", {}, "The server throws the dice from a secret seed chosen for this game. Its SHA-256, shown here from the first move, binds the server to it; when the game ends the seed is revealed and this page checks it."),
    h("p", {}, "Commitment: ", h("code", { id: "commitment", class: "hex" }, ui.st.commitment)));

  const view = h("section", { class: "game", id: "game" },
      h("div", { class: "game-head" },
        h("h1", {}, game.title, " ", h("span", { class: "rules" }, rulesName(ui.st.rules))),
        rulesLine(ui.st.rules),
        players),
      ...notes.map((t) => h("p", { class: "notice" }, t)),
      invite,
      end,
      h("div", { class: "play-area" },
        h("div", { class: "table" },
          h("div", { class: "status" }, h("div", { class: "status-text" }, turn, notice, announce), dice),
          boardBox,
          legend(game, rules),
          h("div", { class: "under" }, help, coordinatesSwitch(renderBoard), notify, resign)),
        h("aside", { class: "side-panel card" }, howToPanel(rules), h("h2", {}, "Moves"), log, fair)));
  main.replaceChildren(view);

  const myTurn = () => mine && ui.st.status === "playing" && ui.st.side === mine && !ui.pending;

  // The moves on offer, each with its route and what landing does.
  const moves = () => (myTurn() ? ui.st.moves : []);

  async function play(move) {
    if (!myTurn() || !ui.st.legal.includes(move)) return;
    ui.pending = { ply: ui.st.ply, move };
    ui.selected = null;
    render();
    const reply = await sendMove(id, seat.token, ui.pending.ply, move, (failed) => {
      say(failed
        ? `The server failed (${refusal(failed)}): your move will be sent again.`
        : "Offline: your move will be sent again when the connection returns.");
    });
    ui.pending = null;
    ui.message = "";
    // The reply may be older than a state the stream brought already.
    const next = reply.ok ? reply.data : reply.data?.state;
    if (!next || !accept(next)) render();
    if (!reply.ok) say(`The move was refused: ${refusal(reply)}`);
  }

  /** Shows `text` where the page tells what happened, until the next change. */
  function say(text) {
    ui.message = text;
    notice.textContent = ui.message;
  }

  function pick(place, byKey) {
    const list = moves().filter((m) => m.from === place);
    if (place === null || !list.length) {
      ui.selected = null;
      ui.board?.select(null);
      return;
    }
    // A click shows where the piece goes; a second click, or the target,
    // plays it (a single move too is shown before it is played).
    if (byKey || ui.selected === place) {
      play(list[0].move);
      return;
    }
    ui.selected = place;
    ui.board.select(place);
  }

  function lastMove() {
    const entry = ui.st.log.at(-1);
    if (!entry?.move) return null;
    return { from: entry.from, to: entry.to, side: entry.side, ply: entry.ply };
  }

  function renderBoard() {
    const focusedPlace = boardBox.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-place") ?? ""
      : null;
    const last = lastMove();
    ui.board = drawBoard({
      game,
      word: ui.st.game,
      layout: rules.layout,
      rulesBoard: rules.board,
      placed: ui.st.board,
      side: ui.st.side,
      flip,
      coordinates: showCoordinates(),
      moves: moves(),
      selected: ui.selected,
      last,
      onPick: pick,
      onFocus: (place) => {
        ui.selected = place;
        ui.board.select(place);
      },
      hovered: ui.hovered,
      onHover: (place) => {
        ui.hovered = place;
      },
      onPlay: play,
    });
    boardBox.replaceChildren(ui.board.svg);
    if (last && last.ply > ui.lastAnimated) {
      ui.lastAnimated = last.ply;
      animateMove(ui.board.svg, game, rules.layout, last, flip);
    }
    if (focusedPlace !== null) {
      const again = focusedPlace && ui.board.svg.querySelector(`.movable[data-place="${focusedPlace}"]`);
      (again || ui.board.svg.querySelector(".movable"))?.focus();
    }
  }

  // What happened last, said to this reader: for a player, everything
  // since its own last move (the other side's chain of moves, a turn of
  // its own lost), or that move and the ones it made in a row; for one
  // who watches, the last side's plies in a row.
  function lately() {
    const plies = ui.story.plies;
    const last = plies.at(-1);
    if (!last) return "";
    const own = (p) => p.side === mine && p.move !== null;
    let i = plies.length;
    if (mine && !own(last)) {
      while (i > 0 && !own(plies[i - 1])) i -= 1;
    } else {
      while (i > 0 && plies[i - 1].side === last.side) i -= 1;
    }
    return plies.slice(i).map((p) => said(p, mine)).join(" ");
  }

  function renderTurn() {
    if (ui.st.status === "waiting") {
      turn.textContent = !mine ? "Waiting for a second player."
        : seat.invite ? "Waiting for your friend to open the link." : "Waiting for someone to take this open game.";
    } else if (ui.st.status === "over") {
      turn.textContent = "The game is over.";
    } else {
      const who = ui.st.side === mine ? "Your" : `${sideName(ui.st.side)}'s`;
      const tail = ui.pending ? " Sending your move…"
        : myTurn() ? (ui.st.moves.length === 1 ? " One move: choose it to see where it goes." : " Choose a piece.")
        : "";
      turn.textContent = `${who} turn: ${ui.st.side === mine ? "you" : sideName(ui.st.side).toLowerCase()} threw ${ui.st.roll}.${tail}`;
    }
    notice.textContent = ui.message || lately();
    dice.replaceChildren();
    if (ui.st.status === "playing" && ui.st.faces) {
      dice.append(drawThrow(game, ui.st.faces, ui.st.roll), h("span", { class: "roll", id: "roll" }, String(ui.st.roll)));
    }
    help.textContent = myTurn()
      ? "Click a piece to see where it goes, then click there. Keys: Tab or arrows choose a piece, Enter plays."
      : mine ? "" : "You are watching this game.";
    resign.hidden = !(mine && ui.st.status === "playing");
    if (notify) notify.hidden = ui.st.status === "over";
  }

  function renderPlayers() {
    players.replaceChildren(...playersLine(ui.st, mine));
    markTab(ui.st, mine, game.title, ui.joined?.name);
    together?.update(ui.st);
  }

  function renderInvite() {
    const show = ui.st.status === "waiting" && seat?.invite;
    invite.hidden = !show;
    if (!show || invite.childElementCount) return;
    const link = new URL(seat.invite, location.origin).href;
    const field = h("input", { type: "text", readonly: true, value: link, id: "invite-link", "aria-label": "The invite link" });
    const copied = h("span", { class: "copied", role: "status", "aria-live": "polite" });
    const copy = h("button", { type: "button", class: "primary", id: "copy", "aria-label": "Copy the invite link" }, "Copy");
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(link);
      } catch {
        field.select();
        document.execCommand("copy");
      }
      copied.textContent = "Copied.";
    });
    invite.append(
      h("h2", { id: "invite-title" }, "Waiting for your friend"),
      h("p", {}, "Send this link to the friend you want to play. Opening it takes the other seat; keep it to yourself otherwise."),
      h("div", { class: "copy-row" }, field, copy),
      copied);
  }

  async function renderEnd() {
    if (ui.st.status !== "over") return;
    if (end.dataset.ply === String(ui.st.ply)) return;
    end.dataset.ply = String(ui.st.ply);
    end.hidden = false;
    const r = ui.st.result;
    let title;
    if (!r.winner) title = "A draw";
    else if (mine && !seat.both) title = r.winner === mine ? "You won" : "You lost";
    else title = `${sideName(r.winner)} won`;
    const check = h("p", { class: "check", id: "check", "data-check": "pending" }, "Checking the dice…");
    const rematch = h("button", { type: "button", class: "primary", id: "rematch" }, "Rematch");
    rematch.addEventListener("click", async () => {
      rematch.disabled = true;
      const settings = loadSettings(id) ?? {
        game: ui.st.game,
        rules: ui.st.rules,
        opponent: ui.st.seats.light.startsWith("bot:") || ui.st.seats.dark.startsWith("bot:") ? "bot" : "friend",
        side: mine,
      };
      const bot = [ui.st.seats.light, ui.st.seats.dark].find((w) => w.startsWith("bot:"));
      if (bot) settings.level = bot === "bot:perfect" ? "perfect" : Number(bot.slice(4));
      try {
        const made = seat.both ? { id: await createHotSeat(settings, seat.turn) } : await createGame(settings);
        location.assign(`/g/${made.id}`);
      } catch (e) {
        rematch.disabled = false;
        check.after(h("p", { class: "notice" }, e.message ?? "The rematch could not start."));
      }
    });
    end.replaceChildren(
      h("h2", { id: "end-title" }, `${title} `, h("span", { class: "how" }, r.winner ? `${sideName(r.winner)} won ${HOW[r.how] ?? ""}` : "the ply limit was reached")),
      h("h3", {}, "Check the dice"),
      h("p", {}, "Seed, revealed now: ", h("code", { class: "hex", id: "seed" }, ui.st.seed)),
      h("p", {}, "Commitment, shown from the start: ", h("code", { class: "hex" }, ui.st.commitment)),
      check,
      h("div", { class: "actions" },
        h("a", { class: "button", id: "download", href: ui.st.record_url, download: `race-${id}.txt` }, "Download the record"),
        together ? together.el : mine ? rematch : h("a", { class: "button", href: "/" }, "New game"),
        h("a", { class: "button", id: "review-link", href: `/g/${id}/review` }, "Review the game")),
      h("p", { class: "small" }, "Anyone can replay every throw from the record with ", h("code", {}, `race replay race-${id}.txt`), "."));
    try {
      const digest = await sha256Hex(ui.st.seed);
      const ok = digest === ui.st.commitment;
      check.dataset.check = ok ? "match" : "mismatch";
      check.textContent = ok
        ? `✓ The SHA-256 of the seed is ${digest}: it matches the commitment, so the dice were fixed before the game began.`
        : `✗ The SHA-256 of the seed is ${digest}: it does not match the commitment.`;
      check.classList.add(ok ? "good" : "bad");
    } catch {
      check.dataset.check = "unavailable";
      check.textContent = "This browser cannot compute SHA-256 here (it needs a secure connection); check with race replay.";
    }
  }

  function renderLog() {
    const items = ui.story.plies.map((p) => h("li", { value: p.ply + 1, class: `ply ${p.side}` }, said(p, mine)));
    items.reverse();
    log.replaceChildren(...items);
  }

  async function refreshStory() {
    if (ui.loadingStory) return;
    ui.loadingStory = true;
    try {
      while (ui.story.plies.length < ui.st.ply) {
        const more = await getJSON(`${gamePath(id)}/plies?from=${ui.story.plies.length}`);
        ui.story.start = more.start;
        const known = ui.story.plies.length;
        const fresh = more.plies.filter((p) => p.ply >= known);
        ui.story.plies.push(...fresh);
        // The plies that arrive after the page has shown the game are
        // said once; those it opened on are in the log.
        if (ui.told && fresh.length) announce.textContent = fresh.map((p) => said(p, mine)).join(" ");
        if (!more.plies.length) break;
      }
      ui.told = true;
      renderLog();
      renderTurn();
    } catch (e) {
      // Offline: the next state tries again; a refusal is said.
      if (e instanceof Refused) say(`The moves could not be read: ${e.message}`);
    } finally {
      ui.loadingStory = false;
    }
  }

  function render() {
    view.dataset.ply = String(ui.st.ply);
    view.dataset.status = ui.st.status;
    view.dataset.seat = mine ?? "watcher";
    renderPlayers();
    renderInvite();
    renderTurn();
    renderBoard();
    renderEnd();
  }

  /** Shows a newer state; false for one older than the state shown. */
  function accept(next) {
    if (next.ply < ui.st.ply) return false;
    const changed = next.ply !== ui.st.ply || next.status !== ui.st.status;
    const before = ui.st;
    ui.st = next;
    hotSeat(next);
    if (mine && !seat.both) noticeFor(before, next);
    if (changed) {
      ui.selected = null;
      if (!ui.pending) ui.message = "";
    }
    render();
    refreshStory();
    return true;
  }

  // The other seat taken, and this seat's turn come, while the page shows
  // the game: the title says who came (until the next move), and a hidden
  // tab notifies the player of its turn if it asked.
  function noticeFor(before, next) {
    const other = mine === "light" ? "dark" : "light";
    if (before.status === "waiting" && next.status === "playing") {
      ui.joined = { name: next.names?.[other] ?? (seat.invite ? "Your friend" : "Someone"), ply: next.ply };
    } else if (ui.joined && next.ply > ui.joined.ply) {
      ui.joined = null;
    }
    if (isTurnOf(next, mine) && !isTurnOf(before, mine)) {
      notifyTurn(id, `${game.title}: ${ui.joined ? `${ui.joined.name} joined, and it` : "it"} is your turn (you threw ${next.roll}).`);
    }
  }

  resign.addEventListener("click", async () => {
    if (!seat || !confirm("Resign this game?")) return;
    const reply = await request("POST", `${gamePath(id)}/resign`, { body: {}, token: seat.token }).catch(() => null);
    const next = reply?.ok ? reply.data : reply?.data?.state;
    if (next) accept(next);
    if (!reply) say("The resignation could not be sent: the server cannot be reached.");
    else if (!reply.ok) say(`The resignation was refused: ${refusal(reply)}`);
  });

  render();
  refreshStory();
  const following = watch(id, {
    state: accept,
    rematch: Boolean(together),
    token: seat?.token,
    online: (up) => {
      if (up === ui.online) return;
      ui.online = up;
      net(up);
    },
  });
  return {
    stop() {
      following.stop();
      tabIcon(false);
    },
  };
}
