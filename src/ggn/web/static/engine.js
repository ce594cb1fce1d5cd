// The ggn explorer's engine panel (ggn serve --engine PATH): for each position shown, the
// engine's best move as an arrow on the board, its score as lichess shows it (from the first
// player's side: +1.20 is white's advantage, #3 a mate in three for white, #-3 for black) and
// its principal variation in the game's own notation, beside the panel of the possibilities
// (must/deny) behind each move. Every answer is the server's (POST /api/analyse): this script
// asks and draws, through the page's interface window.ggn (app.js).
//
// What tests rely on: #engine-answer carries data-bestmove (the engine's UCI move, "" when there
// is none) and data-score (its JSON); #engine-score data-cp or data-mate (the first player's
// view); the arrow is g.engine-arrow[data-move="FROM-TO"] in the board's picture ("*" for a drop).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const SVG_NS = "http://www.w3.org/2000/svg";
  const KEPT = 256;          // the analyses kept, by position: stepping back asks nothing again
  const engine = {
    settings: null,          // the explorer's engine ({name, protocol, movetime}), or null
    asked: 0,                // the number of the last analysis asked for: older answers are dropped
    shown: null,             // the analysis shown ({found, view}), its arrow redrawn with the picture
    known: new Map(),        // position key -> analysis
  };

  function key(view) {
    return `${view.game} ${view.fen || view.feen} ${view.halfmove} ${view.fullmove}`;
  }

  // The score from the first player's side, as lichess writes it: "+0.35", "-1.20", "#3", "#-2".
  function firstView(score, active) {
    if (!score) return null;
    const sign = active === "first" ? 1 : -1;
    if (score.mate !== undefined && score.mate !== null) {
      // (a mate of 0: the player to move is mated, and lichess writes #0 alike for both sides)
      const mate = score.mate === 0 ? 0 : sign * score.mate;
      return {mate, text: `#${mate}`};
    }
    const cp = sign * score.cp;
    return {cp, text: `${cp >= 0 ? "+" : "-"}${(Math.abs(cp) / 100).toFixed(2)}`};
  }

  function describe(score) {
    if (!score) return "no score";
    if (score.mate !== undefined && score.mate !== null) {
      if (score.mate > 0) return `mate in ${score.mate}`;
      return score.mate < 0 ? `mated in ${-score.mate}` : "mated";
    }
    return `${score.cp >= 0 ? "+" : ""}${(score.cp / 100).toFixed(2)}`;
  }

  // The line with its move numbers, as a game's record numbers it: "12... Nf6 13. e5".
  function numbered(moves, view) {
    let number = view.fullmove;
    let second = view.active === "second";
    const words = [];
    moves.forEach((move, index) => {
      if (!second) words.push(`${number}.`);
      else if (index === 0) words.push(`${number}...`);
      words.push(move);
      if (second) number++;
      second = !second;
    });
    return words.join(" ");
  }

  function svgElement(tag, attributes) {
    const element = document.createElementNS(SVG_NS, tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
    return element;
  }

  // A square's centre and size in the picture's coordinates: the square's hit rect (centred on
  // a xiangqi intersection), else the square's own rect.
  function box(svg, cell) {
    const square = svg.querySelector(`rect.square[data-square="${CSS.escape(cell)}"]`) ||
      svg.querySelector(`rect[data-cell="${CSS.escape(cell)}"]`);
    if (!square) return null;
    const found = square.getBBox();
    return {x: found.x + found.width / 2, y: found.y + found.height / 2, size: Math.min(found.width, found.height)};
  }

  function handBox(svg, side, piece) {
    const held = svg.querySelector(`[data-hand="${CSS.escape(side)}"][data-piece="${CSS.escape(piece)}"]`);
    if (!held || typeof held.getBBox !== "function") return null;
    const found = held.getBBox();
    if (!found.width) return null;
    return {x: found.x + found.width / 2, y: found.y + found.height / 2, size: Math.min(found.width, found.height)};
  }

  function removeArrows(svg) {
    for (const old of (svg || document).querySelectorAll(".engine-arrow")) old.remove();
  }

  // The best move on the board's picture: an arrow from its square (or from the piece in hand,
  // for a drop; a ring on the destination where the hand is not drawn) to its destination,
  // under the squares' layer so that it takes no click.
  function drawArrow(found, view) {
    const svg = window.ggn && window.ggn.board();
    if (!svg) return;
    removeArrows(svg);
    if (!found || !found.bestmove || !found.destination) return;
    const to = box(svg, found.destination);
    if (!to) return;
    const group = svgElement("g", {"class": "engine-arrow", "data-move": `${found.source}-${found.destination}`,
                                   "pointer-events": "none"});
    const title = svgElement("title", {});
    title.textContent = `the engine's best move: ${found.san || found.bestmove}`;
    group.append(title);
    const colour = "#15781b";
    let from = null;
    if (found.source === "*") {
      const piece = (found.move || "").split(" ")[0];
      from = handBox(svg, view.active, piece);
    } else {
      from = box(svg, found.source);
    }
    if (!from) {
      group.append(svgElement("circle", {cx: to.x, cy: to.y, r: to.size * 0.42, fill: "none", stroke: colour,
                                         "stroke-width": to.size * 0.09, "stroke-opacity": 0.8}));
    } else {
      const dx = to.x - from.x, dy = to.y - from.y;
      const length = Math.hypot(dx, dy) || 1;
      const ux = dx / length, uy = dy / length, px = -uy, py = ux;
      const size = to.size;
      const head = Math.min(size * 0.45, length * 0.6), wide = size * 0.22, shaft = size * 0.08;
      const bx = to.x - ux * head, by = to.y - uy * head;
      const points = [
        [from.x + px * shaft, from.y + py * shaft], [bx + px * shaft, by + py * shaft],
        [bx + px * wide, by + py * wide], [to.x, to.y], [bx - px * wide, by - py * wide],
        [bx - px * shaft, by - py * shaft], [from.x - px * shaft, from.y - py * shaft],
      ];
      group.append(svgElement("polygon", {points: points.map((p) => p.join(",")).join(" "), fill: colour,
                                          "fill-opacity": 0.75}));
    }
    const squares = svg.querySelector("g.squares");
    if (squares) svg.insertBefore(group, squares);
    else svg.append(group);
  }

  function show(found, view) {
    const answer = $("engine-answer");
    const score = $("engine-score");
    const line = $("engine-pv");
    engine.shown = {found, view};
    answer.setAttribute("data-bestmove", found.bestmove || "");
    answer.setAttribute("data-score", JSON.stringify(found.score));
    const first = firstView(found.score, view.active);
    score.textContent = first ? first.text : "";
    const players = view.players || ["first player", "second player"];
    $("engine-side").textContent = first ? `(${players[0]}'s side)` : "";
    score.removeAttribute("data-cp");
    score.removeAttribute("data-mate");
    if (first && first.mate !== undefined) score.setAttribute("data-mate", String(first.mate));
    else if (first) score.setAttribute("data-cp", String(first.cp));
    score.title = first ? `${describe(found.score)} for the player to move (${view.active}); shown from the ` +
      "first player's side, as lichess shows it" : "";
    if (!found.bestmove) {
      answer.textContent = `no move (${describe(found.score)})`;
      line.textContent = "";
      drawArrow(null, view);
      return;
    }
    const named = found.san ? `${found.san} (${found.bestmove})` : `${found.bestmove} (${found.move})`;
    answer.textContent = `best ${named}` +
      (found.depth !== null && found.depth !== undefined ? `, depth ${found.depth}` : "");
    const moves = (found.pv_san || found.pv || []).slice(0, 12);
    line.textContent = moves.length ? numbered(moves, view) : "";
    line.title = found.pv_san ? "the engine's line, in the game's notation" : "the engine's line, in UCI";
    drawArrow(found, view);
  }

  function clearShown(text) {
    engine.shown = null;
    const answer = $("engine-answer");
    answer.textContent = text;
    answer.removeAttribute("data-bestmove");
    answer.removeAttribute("data-score");
    $("engine-score").textContent = "";
    $("engine-side").textContent = "";
    $("engine-pv").textContent = "";
    removeArrows(window.ggn && window.ggn.board());
  }

  async function analyse(view) {
    if (!engine.settings || !view) return;
    const number = ++engine.asked;
    if (!$("engine-on").checked) { clearShown(""); return; }
    if (view.game === null) { clearShown("(an engine plays games, not GGN documents)"); return; }
    const kept = engine.known.get(key(view));
    if (kept) { show(kept, view); return; }
    clearShown("thinking...");
    let found;
    try {
      const response = await fetch("/api/analyse", {
        method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({game: view.game, position: view.feen, halfmove: view.halfmove,
                              fullmove: view.fullmove}),
      });
      found = await response.json();
      if (!response.ok) throw new Error(found.error || `the server answered ${response.status}`);
    } catch (failure) {
      if (number === engine.asked) clearShown(`the engine failed: ${failure.message}`);
      return;
    }
    engine.known.set(key(view), found);
    if (engine.known.size > KEPT) engine.known.delete(engine.known.keys().next().value);
    if (number === engine.asked) show(found, view);  // else another position is shown now
  }

  async function start() {
    let config;
    try {
      config = await (await fetch("/api/config")).json();
    } catch (failure) {
      return;
    }
    if (!config.engine || !window.ggn) return;
    engine.settings = config.engine;
    $("engine").hidden = false;
    $("engine-name").textContent = `(${config.engine.name}, ${config.engine.movetime} ms a position)`;
    $("engine-on").addEventListener("change", () => analyse(window.ggn.state().view));
    // The page draws a new picture for each position, and may redraw it (a piece selected): the
    // arrow shown is drawn again on each new picture.
    new MutationObserver(() => {
      const svg = window.ggn.board();
      if (engine.shown && svg && !svg.querySelector(".engine-arrow") &&
          engine.shown.view.feen === (window.ggn.state().view || {}).feen) {
        drawArrow(engine.shown.found, engine.shown.view);
      }
    }).observe($("board"), {childList: true});
    window.ggn.onRender((view) => analyse(view));
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
