// The server's API: requests, the seat tokens kept in this browser, the
// live event stream, and moves sent until the server answers.

import { sleep } from "./dom.js";

/** A reply the server refused, with its JSON error. */
export class Refused extends Error {
  constructor(reply) {
    super(reply.data?.error?.message ?? `the server answered ${reply.status}`);
    this.reply = reply;
    this.code = reply.data?.error?.code ?? "unknown";
  }
}

/** One request; resolves to `{status, ok, data}`, rejects when offline. */
export async function request(method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, {
    method,
    headers,
    cache: "no-store",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = res.headers.get("content-type") ?? "";
  const data = type.includes("json") ? await res.json() : await res.text();
  return { status: res.status, ok: res.ok, data };
}

/** GET a JSON document; throws `Refused` for an error reply. */
export async function getJSON(path) {
  const reply = await request("GET", path);
  if (!reply.ok) throw new Refused(reply);
  return reply.data;
}

export const gamePath = (id) => `/api/games/${encodeURIComponent(id)}`;

/** The rule set `rules` of `game`, with its board. */
export function ruleSet(game, rules) {
  return getJSON(`/api/rules/${game}?rules=${encodeURIComponent(rules)}`);
}

// Seats: a game's token lives in localStorage under its id, never in a URL.
const seatKey = (id) => `race.seat.${id}`;

/** The seat this browser holds in game `id`: `{seat, token, invite?}`. */
export function loadSeat(id) {
  try {
    const v = JSON.parse(localStorage.getItem(seatKey(id)) ?? "null");
    if (v && typeof v.token === "string" && (v.seat === "light" || v.seat === "dark")) return v;
  } catch {
    // A damaged entry is no seat.
  }
  return null;
}

export function saveSeat(id, seat) {
  localStorage.setItem(seatKey(id), JSON.stringify(seat));
}

/** The settings a game was made with, for a rematch. */
export function saveSettings(id, settings) {
  localStorage.setItem(`race.settings.${id}`, JSON.stringify(settings));
}

export function loadSettings(id) {
  try {
    return JSON.parse(localStorage.getItem(`race.settings.${id}`) ?? "null");
  } catch {
    return null;
  }
}

// A join on its way: the invite and this browser's own join key, kept
// until the server answers, so that a join whose reply was lost (offline,
// a reload) is sent again with the same key and answered as the first.
const joinKey = (id) => `race.join.${id}`;

function newJoinKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

/** The join of game `id` sent but not answered yet: `{invite, key}`. */
export function pendingJoin(id) {
  try {
    const v = JSON.parse(localStorage.getItem(joinKey(id)) ?? "null");
    if (v && typeof v.invite === "string" && typeof v.key === "string") return v;
  } catch {
    // A damaged entry is no join.
  }
  return null;
}

/**
 * Takes the seat `invite` opens in game `id` under `name` (or, with no
 * invite, sends again the join left unanswered). Resolves to the reply, the seat kept
 * on success; to null when the server could not be reached or failed
 * (the join is kept, and sent again with the same key next time).
 */
export async function joinGame(id, invite, name) {
  let join = pendingJoin(id);
  if (invite && join?.invite !== invite) join = { invite, key: newJoinKey(), ...(name ? { name } : {}) };
  if (!join) return null;
  localStorage.setItem(joinKey(id), JSON.stringify(join));
  let pause = 400;
  for (let tries = 0; tries < 4; tries += 1) {
    try {
      const reply = await request("POST", `${gamePath(id)}/join`, { body: join });
      if (reply.status < 500) {
        localStorage.removeItem(joinKey(id));
        if (reply.ok) saveSeat(id, { seat: reply.data.seat, token: reply.data.token });
        return reply;
      }
    } catch {
      // Offline: try again.
    }
    await sleep(pause);
    pause *= 2;
  }
  return null;
}

/** Creates a game; resolves to the server's reply (id, seat, token, ...). */
export async function createGame(settings) {
  const reply = await request("POST", "/api/games", { body: settings });
  if (!reply.ok) throw new Refused(reply);
  const made = reply.data;
  saveSeat(made.id, { seat: made.seat, token: made.token, invite: made.invite ?? null });
  saveSettings(made.id, settings);
  return made;
}

/**
 * Follows a game's states: the event stream, read with `fetch` so that it
 * can carry the seat's `token` (the seat is then shown connected while
 * the stream is open), opened again 2 s after it breaks. With `rematch`,
 * a finished friend game is followed until a rematch starts. `online` is
 * told whether the stream is up.
 */
export function watch(id, { state, online, rematch = false, token = null }) {
  let control = null;
  let retry = null;
  let up = false;
  let stopped = false;
  const path = `${gamePath(id)}/events${rematch ? "?rematch=true" : ""}`;
  const headers = { Accept: "text/event-stream" };
  if (token) headers.Authorization = `Bearer ${token}`;
  // Each event's `state` data, in order; true once nothing more follows.
  const take = (event) => {
    const name = event.match(/^event: (.*)$/m)?.[1];
    const data = event.match(/^data: (.*)$/m)?.[1];
    if (name !== "state" || data === undefined) return false;
    const st = JSON.parse(data);
    state(st);
    return st.status === "over" && (!rematch || Boolean(st.rematch?.game));
  };
  const open = async () => {
    if (stopped) return;
    control = new AbortController();
    try {
      const res = await fetch(path, { headers, cache: "no-store", signal: control.signal });
      if (!res.ok || !res.body) throw new Error(`the server answered ${res.status}`);
      up = true;
      online(true);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (take(event)) {
            stop();
            return;
          }
        }
      }
    } catch {
      // Offline, refused, or stopped: below.
    }
    up = false;
    if (stopped) return;
    online(false);
    retry = setTimeout(open, 2000);
  };
  const back = () => {
    if (!stopped && !up) {
      control?.abort();
      clearTimeout(retry);
      open();
    }
  };
  const stop = () => {
    stopped = true;
    clearTimeout(retry);
    control?.abort();
    removeEventListener("online", back);
  };
  addEventListener("online", back);
  open();
  return { stop };
}

/**
 * Sends a move for `ply` until the server answers: a move sent while
 * offline is sent again, with the same ply, so that it is played once
 * (the server answers a repeat of a played ply with the state). Resolves
 * to the reply; `waiting` is called before each retry, with the server's
 * reply when it failed (5xx), with nothing when it could not be reached.
 */
export async function sendMove(id, token, ply, move, waiting) {
  let pause = 400;
  for (;;) {
    let failed = null;
    try {
      const reply = await request("POST", `${gamePath(id)}/moves`, { body: { ply, move }, token });
      if (reply.status < 500) return reply;
      failed = reply;
    } catch {
      // Offline: try again.
    }
    waiting(failed);
    await sleep(pause);
    pause = Math.min(pause * 2, 4000);
  }
}
