// Each game's part of the page, one module per game, all with the same
// interface: `title`, `boardLabel`, `flips`, `trayBelow`, `looks`,
// `pieceShape(side, r)`, `square(sq, rulesBoard)`, `marks(c)`, `describePlace(place,
// side)`, `trays(layout)`, `drawDice(bits, roll)`, `unjudged`. The rest of the
// page chooses the module once, from the game's word, and never asks
// which game it is.

import * as senet from "./game-senet.js";
import * as ur from "./game-ur.js";

const GAMES = { ur, senet };

/** The module of the game `word` names (`ur`, `senet`). */
export function gameOf(word) {
  const game = GAMES[word];
  if (!game) throw new Error(`the page has no drawing for the game ${word}`);
  return game;
}
