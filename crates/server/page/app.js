// The page: which view a path shows.

import { h } from "./dom.js";
import { showGame } from "./play.js";
import { showReview } from "./review.js";
import { showStart } from "./start.js";

const main = document.getElementById("main");
const net = document.getElementById("net");

function online(up) {
  net.hidden = up;
  net.textContent = up ? "" : "Offline: reconnecting…";
}

/** The card for a path the page does not have. */
function nothingHere() {
  document.title = "No such page: race games";
  main.replaceChildren(h("section", { class: "card", id: "missing" },
    h("h1", {}, "No such page"),
    h("p", {}, "There is nothing at this address."),
    h("p", {}, h("a", { href: "/" }, "Start a new game"))));
}

// The view shown, stopped when another takes its place; `shown` counts
// the views begun, so that one that finishes late stops itself.
let current = null;
let shown = 0;

async function route() {
  const n = ++shown;
  current?.stop();
  current = null;
  const path = location.pathname;
  const game = path.match(/^\/g\/([A-Za-z0-9_-]+)$/);
  const review = path.match(/^\/g\/([A-Za-z0-9_-]+)\/review$/);
  try {
    let view = null;
    if (game) view = await showGame(main, game[1], online);
    else if (review) await showReview(main, review[1]);
    else if (path === "/") await showStart(main);
    else nothingHere();
    if (n === shown) current = view;
    else view?.stop();
  } catch (e) {
    if (n !== shown) return;
    main.replaceChildren(h("section", { class: "card", id: "missing" },
      h("h1", {}, e.code === "no_game" ? "No such game" : "Something went wrong"),
      h("p", {}, e.message ?? String(e)),
      h("p", {}, h("a", { href: "/" }, "Start a new game"))));
  }
}

// An invite link opened in the tab that shows its game changes only the
// address's hash: the game is shown again, taking the seat.
addEventListener("hashchange", () => {
  if (location.hash.startsWith("#join=") && /^\/g\/[A-Za-z0-9_-]+$/.test(location.pathname)) route();
});

route();
