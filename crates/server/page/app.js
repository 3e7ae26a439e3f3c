// On /g/ID, say which game this is and link to its state and record.
"use strict";
const match = location.pathname.match(/^\/g\/([A-Za-z0-9_-]+)$/);
if (match) {
  const id = match[1];
  document.getElementById("game-id").textContent = id;
  document.getElementById("state-link").href = `/api/games/${id}`;
  document.getElementById("record-link").href = `/api/games/${id}/record`;
  document.getElementById("game").hidden = false;
}
