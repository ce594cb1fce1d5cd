// The ggn explorer's page. Every rule of play is the library's: this script only asks the
// server's JSON API (/api/view, /api/play, and /api/analyse when the explorer has an engine)
// and shows its answers. It keeps the page's own
// state: what is played (a game or a pasted document), and the positions played so far, for
// undo and redo.
"use strict";

const page = {
  subject: null,     // {game: NAME} or {document: TEXT}
  history: [],       // [{position: FEEN, halfmove, fullmove, played: MOVE in the game's notation, move: GGN's}]
  at: -1,            // the index in history of the position shown
  view: null,        // the server's answer for that position
  selected: null,    // {source: CELL or "*", piece: QPI}
  pending: null,     // the move group waiting for a choice
  flipped: false,    // the board turned round: the second player at the bottom
  engine: null,      // the explorer's engine ({name, protocol, movetime}), or null
  asked: 0,          // the number of the last analysis asked for: older answers are dropped
};

const $ = (id) => document.getElementById(id);

function clear(element) {
  while (element.firstChild) element.removeChild(element.firstChild);
}

function make(tag, attributes, text) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) element.setAttribute(name, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

let answered = 0;  // the answers received, on <body data-answered> (what tests wait for)

async function ask(path, body) {
  let response, answer;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body),
    });
    answer = await response.json();
  } catch (failure) {
    throw new Error(`no answer from the explorer's server: ${failure.message}`);
  } finally {
    setTimeout(() => { document.body.setAttribute("data-answered", String(++answered)); });
  }
  if (!response.ok) {
    const error = new Error(answer.error || `the server answered ${response.status}`);
    error.violations = answer.violations || [];
    throw error;
  }
  return answer;
}

function showError(error) {
  $("errors").hidden = false;
  $("error").textContent = error.message;
  const list = $("violations");
  clear(list);
  for (const violation of error.violations || []) {
    const item = make("li", {"class": "violation"});
    item.append(make("code", {"class": "pointer"}, violation.path || "(document)"), " ",
                make("span", {"class": "message"}, violation.message));
    list.append(item);
  }
}

function hideError() {
  $("errors").hidden = true;
  $("error").textContent = "";
  clear($("violations"));
}

// -- the position ------------------------------------------------------------------------

function request(entry, more) {
  return Object.assign({}, page.subject, {
    position: entry.position, halfmove: entry.halfmove, fullmove: entry.fullmove, flipped: page.flipped,
  }, more || {});
}

// The request for a position of the history, with the moves that led to it from the position
// loaded: the server replays them to know the ends a history brings (a repetition, the n-move
// rule), which the position alone does not hold.
function requestWithHistory(entry, more) {
  const start = page.history[0];
  const moves = page.history.slice(1, page.history.indexOf(entry) + 1).map((played) => played.move);
  return request(entry, Object.assign({
    history: {start: start.position, halfmove: start.halfmove, fullmove: start.fullmove, moves: moves},
  }, more || {}));
}

async function load(event) {
  if (event) event.preventDefault();
  const mode = $("mode-document").checked ? "document" : "game";
  const subject = mode === "game" ? {game: $("game").value} : {document: $("document").value};
  const position = $("position").value.trim();
  try {
    const view = await ask("/api/view", Object.assign({}, subject, {position: position || null, flipped: page.flipped}));
    hideError();
    page.subject = subject;
    page.history = [{position: view.feen, halfmove: view.halfmove, fullmove: view.fullmove, played: null}];
    page.at = 0;
    show(view);
  } catch (error) {
    showError(error);
  }
}

async function goTo(index) {
  const entry = page.history[index];
  try {
    const view = await ask("/api/view", requestWithHistory(entry));
    hideError();
    page.at = index;
    show(view);
  } catch (error) {
    showError(error);
  }
}

async function playMove(name) {
  // name: a move in any of the game's notations (SAN, UCI, USI, GGN's); the server reads it,
  // and answers it in the game's own notation (san), which the history shows.
  const entry = page.history[page.at];
  try {
    const view = await ask("/api/play", requestWithHistory(entry, {move: name}));
    hideError();
    page.history = page.history.slice(0, page.at + 1);
    page.history.push({position: view.feen, halfmove: view.halfmove, fullmove: view.fullmove, played: view.san, move: view.played});
    page.at = page.history.length - 1;
    show(view);
    return true;
  } catch (error) {
    showError(error);
    return false;
  }
}

async function typed(event) {
  event.preventDefault();
  const text = $("move").value.trim();
  if (!text || !page.view) return;
  if (await playMove(text)) $("move").value = "";
}

function show(view) {
  page.view = view;
  page.selected = null;
  closeChoices();
  $("feen").textContent = view.feen;
  $("fen").textContent = view.fen || "";
  $("fen").parentElement.hidden = view.fen === null;
  $("fen-label").hidden = view.fen === null;
  let status = `${view.active === "first" ? "First" : "Second"} player to move`;
  if (view.outcome) status = `Game over: ${view.outcome}`;
  else if (view.check) status += " (in check)";
  else if (view.moves.length === 0) status += ": no legal move";
  if (!view.outcome && view.claim) status += `; may claim: ${view.claim}`;
  $("status").textContent = status;
  // A document with no terminal piece in play: the generic rule makes no play illegal.
  $("note").hidden = !view.note;
  $("note").textContent = view.note ? `Note: ${view.note}.` : "";
  drawBoard(view);
  analyse();
  showMoves();
  showHistory();
  $("undo").disabled = page.at <= 0;
  $("redo").disabled = page.at >= page.history.length - 1;
}

// -- drawing ----------------------------------------------------------------------------

function drawBoard(view) {
  // The picture is the library's (ggn.svg): each square an element with data-cell, each piece
  // on the board one with data-square and data-piece, each kind of piece in a hand one with
  // data-hand, data-piece and data-count. Its text is escaped by the library.
  const board = $("board");
  if (view.svg === null) {
    clear(board);
    board.append(make("p", {"class": "unpictured"}, `The board is not drawn: ${view.unpictured}`));
    return;
  }
  board.innerHTML = view.svg;
}

// -- the engine ---------------------------------------------------------------------------

function describeScore(score) {
  if (!score) return "no score";
  if (score.mate !== undefined) {
    if (score.mate > 0) return `mate in ${score.mate}`;
    return score.mate < 0 ? `mated in ${-score.mate}` : "mated";
  }
  const pawns = (score.cp / 100).toFixed(2);
  return `${score.cp >= 0 ? "+" : ""}${pawns}`;
}

async function analyse() {
  if (!page.engine) return;
  const number = ++page.asked;
  const answer = $("engine-answer");
  if (!$("engine-on").checked || !page.view || page.view.game === null) {
    answer.textContent = page.view && page.view.game === null ? "(an engine plays games, not GGN documents)" : "";
    return;
  }
  answer.textContent = "thinking...";
  answer.removeAttribute("data-bestmove");
  try {
    const found = await ask("/api/analyse", request(page.history[page.at]));
    if (number !== page.asked) return;  // another position is shown now
    answer.setAttribute("data-bestmove", found.bestmove || "");
    answer.setAttribute("data-score", JSON.stringify(found.score));
    if (!found.bestmove) {
      answer.textContent = `no move (${describeScore(found.score)})`;
      return;
    }
    const line = (found.pv_san || found.pv).slice(0, 8).join(" ");
    const named = found.san ? `${found.san} (${found.bestmove})` : `${found.bestmove} (${found.move})`;
    answer.textContent = `best ${named}, score ${describeScore(found.score)}` +
      (found.depth !== null ? `, depth ${found.depth}` : "") + (line ? `; line: ${line}` : "");
    drawArrow(found.source, found.destination);
  } catch (error) {
    if (number === page.asked) answer.textContent = `the engine failed: ${error.message}`;
  }
}

function centre(svg, cell) {
  const square = svg.querySelector(`[data-cell="${CSS.escape(cell)}"]`);
  if (!square) return null;
  const box = square.getBBox();
  return {x: box.x + box.width / 2, y: box.y + box.height / 2, size: Math.min(box.width, box.height)};
}

function drawArrow(source, destination) {
  // The engine's move on the library's picture: an arrow from the source's square to the
  // destination's (a ring on the destination for a drop), drawn over the pieces.
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  for (const old of svg.querySelectorAll(".engine-arrow")) old.remove();
  const to = centre(svg, destination);
  if (!to) return;
  const ns = "http://www.w3.org/2000/svg";
  const group = document.createElementNS(ns, "g");
  group.setAttribute("class", "engine-arrow");
  group.setAttribute("data-move", `${source}-${destination}`);
  const colour = "rgba(30, 110, 220, 0.75)";
  const from = source === "*" ? null : centre(svg, source);
  if (!from) {
    const ring = document.createElementNS(ns, "circle");
    ring.setAttribute("cx", to.x); ring.setAttribute("cy", to.y); ring.setAttribute("r", to.size * 0.42);
    ring.setAttribute("fill", "none"); ring.setAttribute("stroke", colour);
    ring.setAttribute("stroke-width", to.size * 0.1);
    group.append(ring);
  } else {
    const dx = to.x - from.x, dy = to.y - from.y;
    const length = Math.hypot(dx, dy) || 1;
    const ux = dx / length, uy = dy / length;
    const head = to.size * 0.38, width = to.size * 0.14;
    const endX = to.x - ux * head, endY = to.y - uy * head;
    const line = document.createElementNS(ns, "line");
    line.setAttribute("x1", from.x); line.setAttribute("y1", from.y);
    line.setAttribute("x2", endX); line.setAttribute("y2", endY);
    line.setAttribute("stroke", colour); line.setAttribute("stroke-width", width);
    line.setAttribute("stroke-linecap", "round");
    const tip = document.createElementNS(ns, "polygon");
    const px = -uy * head * 0.6, py = ux * head * 0.6;
    tip.setAttribute("points", `${to.x},${to.y} ${endX + px},${endY + py} ${endX - px},${endY - py}`);
    tip.setAttribute("fill", colour);
    group.append(line, tip);
  }
  svg.append(group);
}

function showHistory() {
  const list = $("history");
  clear(list);
  page.history.slice(1).forEach((entry, k) => {
    const item = make("li", {}, entry.played);
    if (k + 1 === page.at) item.className = "current";
    if (k + 1 > page.at) item.className = "undone";
    list.append(item);
  });
}

// -- choosing and playing moves -----------------------------------------------------------

function groupsOf(selected) {
  if (!selected || !page.view) return [];
  return page.view.moves.filter((group) => group.source === selected.source && group.piece === selected.piece);
}

function describe(possibility) {
  const part = (conditions) => {
    const pairs = Object.entries(conditions);
    return pairs.length ? pairs.map(([cell, state]) => `${cell} ${state}`).join(", ") : "nothing";
  };
  return `must: ${part(possibility.must)}; deny: ${part(possibility.deny)}`;
}

function showMoves() {
  const box = $("moves");
  clear(box);
  for (const element of document.querySelectorAll("#board .selected, #board .target")) {
    element.classList.remove("selected", "target");
  }
  const selected = page.selected;
  if (!selected) {
    box.append(make("p", {"class": "hint"}, "Click a piece of the side to move."));
    return;
  }
  const groups = groupsOf(selected);
  if (selected.source === "*") {
    const held = `#board [data-hand="${page.view.active}"][data-piece="${CSS.escape(selected.piece)}"]`;
    for (const element of document.querySelectorAll(held)) element.classList.add("selected");
  } else {
    for (const element of document.querySelectorAll(`#board [data-cell="${CSS.escape(selected.source)}"]`)) {
      element.classList.add("selected");
    }
  }
  const where = selected.source === "*" ? "from the hand" : `on ${selected.source}`;
  box.append(make("p", {"class": "chosen"}, `${selected.piece} ${where}: ${groups.length} destination${groups.length === 1 ? "" : "s"}`));
  const list = make("ul", {"class": "destinations"});
  for (const group of groups) {
    for (const element of document.querySelectorAll(`#board [data-cell="${CSS.escape(group.destination)}"]`)) {
      element.classList.add("target");
    }
    const item = make("li", {"data-destination": group.destination});
    item.append(make("strong", {}, group.destination));
    const plays = group.plays.map((p) => p.move).join(" | ");
    item.append(" ", make("code", {}, plays));
    const reasons = make("ul", {"class": "possibilities"});
    for (const possibility of group.possibilities) {
      reasons.append(make("li", {"class": "possibility"}, describe(possibility)));
    }
    item.append(reasons);
    list.append(item);
  }
  box.append(list);
}

function openChoices(group) {
  page.pending = group;
  const buttons = $("choice-buttons");
  clear(buttons);
  for (const option of group.plays) {
    const button = make("button", {"type": "button", "class": "choice", "data-move": option.move},
                        option.choice || `${group.piece}, unchanged`);
    button.addEventListener("click", () => { closeChoices(); playMove(option.move); });
    buttons.append(button);
  }
  $("choices").hidden = false;
}

function closeChoices() {
  page.pending = null;
  $("choices").hidden = true;
  clear($("choice-buttons"));
}

function clicked(event) {
  if (!page.view) return;
  const target = event.target.closest("#board [data-square], #board [data-cell], #board [data-hand]");
  if (!target) return;
  closeChoices();
  if (target.hasAttribute("data-hand")) {
    const side = target.getAttribute("data-hand");
    page.selected = side === page.view.active ? {source: "*", piece: target.getAttribute("data-piece")} : null;
    showMoves();
    return;
  }
  const square = target.getAttribute("data-square") || target.getAttribute("data-cell");
  const group = groupsOf(page.selected).find((g) => g.destination === square);
  if (group) {
    if (group.plays.length > 1) openChoices(group);
    else playMove(group.plays[0].move);
    return;
  }
  const piece = page.view.board[square];
  page.selected = piece ? {source: square, piece: piece} : null;
  showMoves();
}

async function start() {
  const config = await (await fetch("/api/config")).json();
  const select = $("game");
  for (const name of config.games) select.append(make("option", {"value": name}, name));
  const initial = config.initial;
  if (config.engine) {
    page.engine = config.engine;
    $("engine").hidden = false;
    $("engine-name").textContent = `(${config.engine.name}, ${config.engine.movetime} ms a position)`;
    $("engine-on").addEventListener("change", () => {
      if (!$("engine-on").checked) {
        for (const old of document.querySelectorAll("#board .engine-arrow")) old.remove();
      }
      analyse();
    });
  }
  if (initial.document !== undefined) {
    $("mode-document").checked = true;
    $("document").value = initial.document;
  } else {
    select.value = initial.game;
  }
  $("position").value = initial.position || "";
  $("source").addEventListener("submit", load);
  $("game").addEventListener("change", () => { $("mode-game").checked = true; $("position").value = ""; });
  $("document").addEventListener("input", () => { $("mode-document").checked = true; });
  $("play").addEventListener("click", clicked);
  $("move-form").addEventListener("submit", typed);
  $("undo").addEventListener("click", () => goTo(page.at - 1));
  $("redo").addEventListener("click", () => goTo(page.at + 1));
  $("choice-cancel").addEventListener("click", closeChoices);
  $("flip").addEventListener("click", () => {
    page.flipped = !page.flipped;
    if (page.at >= 0) goTo(page.at);
  });
  await load();
  document.body.setAttribute("data-ready", "true");
}

document.addEventListener("DOMContentLoaded", start);
