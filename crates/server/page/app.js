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

async function route() {
  const path = location.pathname;
  const game = path.match(/^\/g\/([A-Za-z0-9_-]+)$/);
  const review = path.match(/^\/g\/([A-Za-z0-9_-]+)\/review$/);
  try {
    if (game) await showGame(main, game[1], online);
    else if (review) await showReview(main, review[1]);
    else await showStart(main);
  } catch (e) {
    main.replaceChildren(h("section", { class: "card" },
      h("h1", {}, e.code === "no_game" ? "No such game" : "Something went wrong"),
      h("p", {}, e.message ?? String(e)),
      h("p", {}, h("a", { href: "/" }, "Start a new game"))));
  }
}

route();
