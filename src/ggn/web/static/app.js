// The ggn explorer's page. Every rule of play is the library's: this script only asks the
// server's JSON API (/api/view, /api/play) and shows its answers (records.js brings and takes
// records and keeps the link, engine.js shows the engine's move, through window.ggn). It keeps the page's own state: what is played (a game or a pasted
// document), the position the game started from and the moves played since (each in GGN's
// notation, which the server reads fastest, and in the game's own), and which of them is shown.
//
// The page's contract (what tests and the other scripts rely on; docs/explorer.md):
// - #board carries data-feen and data-fen (where the game has a FEN) of the position shown,
//   data-busy="true" while an answer is awaited (input is held meanwhile, never lost), and
//   data-result ("1-0", "0-1", "1/2-1/2") once the game is over;
// - the picture's squares (rect.square[data-square], else the squares' rect[data-cell]) carry
//   data-last="from"/"to" (the last move), data-check="true" (a royal piece in check) and
//   data-target="true" (where the selected or dragged piece may go);
// - #choices holds a button.choice for each option of a move with a choice (a promotion),
//   with the resulting piece's picture and an aria-label naming it;
// - #history holds a button.ply[data-ply=N] for each move, in SAN or the game's own notation;
// - window.ggn = {state(), load({subject, start, moves, at}), onRender(callback), board()}.
"use strict";

const page = {
  subject: null,     // {game: NAME} or {document: TEXT}
  start: null,       // the position the game started from: {position: FEEN, halfmove, fullmove, active}
  moves: [],         // the moves played from it: [{move: GGN's, san: the game's notation, feen: after it}]
  at: 0,             // how many of them lead to the position shown
  view: null,        // the server's answer for that position
  selected: null,    // {source: CELL or "*", piece: QPI}
  pending: null,     // the move group waiting for a choice
  flipped: false,    // the board turned round: the second player at the bottom
  letters: false,    // pieces written as letters, not drawn
  busy: 0,           // the answers of /api/view and /api/play awaited
  held: [],          // the input made while busy, done in order once the answer has come
  renderers: [],     // the callbacks of ggn.onRender
  drag: null,        // the piece being dragged, or about to be
  focused: null,     // the square that has the keyboard's focus (its cell)
};

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";

function clear(element) {
  while (element.firstChild) element.removeChild(element.firstChild);
}

function make(tag, attributes, text) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) element.setAttribute(name, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

function svgElement(tag, attributes) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes || {})) element.setAttribute(name, String(value));
  return element;
}

let answered = 0;  // the answers received, on <body data-answered> (what tests wait for)

// -- asking the server, and holding input meanwhile ---------------------------------------

function setBusy() {
  const busy = page.busy > 0;
  const board = $("board");
  if (busy) board.setAttribute("data-busy", "true");
  else board.removeAttribute("data-busy");
  $("busy").hidden = !busy;
  $("busy-label").textContent = page.held.length
    ? `Working... (${page.held.length} input${page.held.length === 1 ? "" : "s"} waiting)` : "Working...";
}

async function ask(path, body, options) {
  const holds = !options || options.holds !== false;
  if (holds) { page.busy++; setBusy(); }
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
    if (holds) { page.busy--; setBusy(); }
    setTimeout(() => { document.body.setAttribute("data-answered", String(++answered)); });
  }
  if (!response.ok) {
    const error = new Error(answer.error || `the server answered ${response.status}`);
    error.violations = answer.violations || [];
    throw error;
  }
  return answer;
}

// Input made while an answer is awaited is held, in order, and done when it has come: a click
// on the board just after "Load" selects on the board loaded, never on the old one.
function hold(action) {
  return new Promise((resolve, reject) => {
    // Run now (so that what it asks is awaited, and the board busy, at once), or when released.
    const run = () => {
      try {
        Promise.resolve(action()).then(resolve, reject);
      } catch (failure) {
        reject(failure);
      }
    };
    if (page.busy > 0 || page.held.length) {
      page.held.push(run);
      setBusy();
    } else {
      run();
    }
  });
}

function release() {
  // Called when an answer has been shown: the next input held, if nothing is awaited now.
  if (page.busy > 0 || !page.held.length) return;
  const next = page.held.shift();
  setBusy();
  next();
  // An input that asked nothing: the next one at once.
  setTimeout(release);
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

// -- the game -----------------------------------------------------------------------------

function historyOf(at) {
  return {
    start: page.start.position, halfmove: page.start.halfmove, fullmove: page.start.fullmove,
    moves: page.moves.slice(0, at).map((played) => played.move),
  };
}

// The request for the position after the first `at` moves: the server replays them from the
// start, and knows the ends a history brings (a repetition, the n-move rule), which the
// position alone does not hold.
function request(at, more) {
  return Object.assign({}, page.subject, {history: historyOf(at), flipped: page.flipped, letters: page.letters},
                       more || {});
}

function forget() {
  // What is shown of a game that is no more: a document error leaves no stale board beside it.
  page.view = null;
  page.subject = null;
  page.start = null;
  page.moves = [];
  page.at = 0;
  page.selected = null;
  closeChoices();
  const board = $("board");
  clear(board);
  for (const name of ["data-fen", "data-feen", "data-result"]) board.removeAttribute(name);
  $("status").textContent = "";
  $("result").textContent = "";
  $("result").hidden = true;
  $("feen").textContent = "";
  $("fen").textContent = "";
  clear($("moves"));
  clear($("history"));
  $("undo").disabled = true;
  $("redo").disabled = true;
}

// Open a game: `subject` ({game} or {document}), the position it starts from (`start`: FEEN,
// or the game's FEN; null: the game's start), the moves played from it (`moves`, each in any
// of the game's notations) and how many of them to show (`at`; default: all).
async function open(subject, start, moves, at) {
  let view;
  try {
    view = await ask("/api/view", Object.assign({}, subject, {
      history: {start: start || null, moves: moves || []}, line: true, flipped: page.flipped,
      letters: page.letters,
    }));
  } catch (error) {
    forget();
    showError(error);
    release();
    throw error;
  }
  hideError();
  page.subject = subject;
  page.start = {position: view.start.feen, halfmove: view.start.halfmove, fullmove: view.start.fullmove,
                active: view.start.active};
  page.moves = view.line.map((played) => ({move: played.move, san: played.san, feen: played.feen}));
  page.at = page.moves.length;
  show(view);
  if (at !== undefined && at !== null && at !== page.at) return goTo(Math.max(0, Math.min(at, page.moves.length)));
  release();
  return view;
}

function loadForm(event) {
  if (event) event.preventDefault();
  const mode = $("mode-document").checked ? "document" : "game";
  const subject = mode === "game" ? {game: $("game").value} : {document: $("document").value};
  const position = $("position").value.trim();
  return hold(() => open(subject, position || null, [], undefined)).catch(() => null);
}

async function goTo(at) {
  if (!page.start || at < 0 || at > page.moves.length) return page.view;
  try {
    const view = await ask("/api/view", request(at));
    hideError();
    page.at = at;
    show(view);
    return view;
  } catch (error) {
    showError(error);
    return null;
  } finally {
    release();
  }
}

async function playMove(name) {
  // name: a move in any of the game's notations (SAN, UCI, USI, GGN's); the server reads it,
  // and answers it in the game's own notation (san), which the history shows.
  if (!page.start) return false;
  try {
    const view = await ask("/api/play", request(page.at, {move: name}));
    hideError();
    page.moves = page.moves.slice(0, page.at);
    page.moves.push({move: view.played, san: view.san, feen: view.feen});
    page.at = page.moves.length;
    show(view);
    announce(`${capital(view.players[view.active === "first" ? 1 : 0])}: ${view.san}` +
             (view.result ? `. ${resultText(view)}` : ""));
    return true;
  } catch (error) {
    showError(error);
    if (page.view) show(page.view);  // the piece dragged goes back
    return false;
  } finally {
    release();
  }
}

function typed(event) {
  event.preventDefault();
  const text = $("move").value.trim();
  if (!text) return;
  hold(async () => {
    if (await playMove(text)) $("move").value = "";
  });
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function resultText(view) {
  return view.result ? `${view.result}, ${view.ending}` : "";
}

function announce(text) {
  $("announce").textContent = text;
}

function show(view) {
  page.view = view;
  page.selected = null;
  closeChoices();
  const board = $("board");
  board.setAttribute("data-feen", view.feen);
  if (view.fen !== null) board.setAttribute("data-fen", view.fen);
  else board.removeAttribute("data-fen");
  if (view.result) board.setAttribute("data-result", view.result);
  else board.removeAttribute("data-result");
  $("feen").textContent = view.feen;
  $("fen").textContent = view.fen || "";
  $("fen").parentElement.hidden = view.fen === null;
  $("fen-label").hidden = view.fen === null;
  const mover = capital(view.players[view.active === "first" ? 0 : 1]);
  let status = `${mover} to move`;
  if (view.outcome) {
    status = view.winner ? `Game over: ${view.players[view.winner === "first" ? 0 : 1]} wins by ${view.ending}`
      : `Game over: ${view.outcome}`;
  }
  else if (view.check) status += " (in check)";
  else if (view.moves.length === 0) status += ": no legal move";
  if (!view.outcome && view.claim) status += `; may claim: ${view.claim}`;
  $("status").textContent = status;
  $("result").hidden = !view.result;
  $("result").textContent = resultText(view);
  // A document with no terminal piece in play: the generic rule makes no play illegal.
  $("note").hidden = !view.note;
  $("note").textContent = view.note ? `Note: ${view.note}.` : "";
  drawBoard(view);
  showMoves();
  showHistory();
  $("undo").disabled = page.at <= 0;
  $("redo").disabled = page.at >= page.moves.length;
  for (const callback of page.renderers) {
    try { callback(view); } catch (failure) { console.error(failure); }
  }
}

// -- drawing ----------------------------------------------------------------------------

// The squares that take clicks and drags: the picture's top layer (rect.square[data-square]),
// else, in a picture without one, each square's own rect[data-cell].
function hitSquares() {
  const layer = $("board").querySelectorAll("rect.square[data-square]");
  return layer.length ? Array.from(layer) : Array.from($("board").querySelectorAll("rect[data-cell]"));
}

function cellOf(element) {
  return element.getAttribute("data-square") || element.getAttribute("data-cell");
}

function hitSquare(cell) {
  const board = $("board");
  return board.querySelector(`rect.square[data-square="${CSS.escape(cell)}"]`) ||
    board.querySelector(`rect[data-cell="${CSS.escape(cell)}"]`);
}

function squareBox(cell) {
  const square = $("board").querySelector(`rect[data-cell="${CSS.escape(cell)}"]`) || hitSquare(cell);
  if (!square) return null;
  const box = square.getBBox();
  return {x: box.x, y: box.y, width: box.width, height: box.height,
          cx: box.x + box.width / 2, cy: box.y + box.height / 2, size: Math.min(box.width, box.height)};
}

function cellName(cell) {
  // A square as CELL names it and, for shogi's games, as their players do (its file from the
  // right, its rank from the top: ggn's c3 is 77, USI's 7g).
  const view = page.view;
  const found = /^([a-z])(\d+)$/.exec(cell);
  if (!view || !found || !view.notation.startsWith("shogi") || view.shape.length !== 2) return cell;
  const file = view.shape[0] - (found[1].charCodeAt(0) - 97);
  const rank = view.shape[1] - Number(found[2]) + 1;
  return `${cell} (${file}${rank})`;
}

function pieceName(piece) {
  return (page.view && page.view.names[piece]) || piece;
}

function drawBoard(view) {
  // The picture is the library's (ggn.svg): each square an element with data-cell (and, on
  // top, a transparent rect.square[data-square] that takes the pointer), each piece on the
  // board a g.piece with data-square and data-piece, each kind of piece in a hand a g.held
  // with data-hand, data-piece and data-count. Its text is escaped by the library.
  const board = $("board");
  page.drag = null;
  if (view.svg === null) {
    clear(board);
    board.append(make("p", {"class": "unpictured"}, `The board is not drawn: ${view.unpictured}`));
    return;
  }
  board.innerHTML = view.svg;
  const svg = board.querySelector("svg");
  // The board's column: as wide as the picture's shape allows, its height within the window.
  const [, , width, height] = (svg.getAttribute("viewBox") || "0 0 1 1").split(/\s+/).map(Number);
  if (width > 0 && height > 0) {
    document.querySelector("main").style.setProperty(
      "--board-width", `calc(min(100vh - 12rem, 42rem) * ${(width / height).toFixed(4)})`);
  }
  svg.setAttribute("role", "application");
  svg.setAttribute("aria-label", `The board: ${capital(view.players[view.active === "first" ? 0 : 1])} to move`);
  // Marks drawn under the pieces: the last move, a royal piece in check, the destinations.
  const marks = svgElement("g", {"class": "ggn-marks", "pointer-events": "none"});
  const firstPiece = svg.querySelector("g.piece, g.hand, circle.turn");
  if (firstPiece) firstPiece.parentNode.insertBefore(marks, firstPiece);
  else svg.append(marks);
  if (view.last) {
    const [from, to] = view.last;
    markLast(from, "from");
    markLast(to, "to");
  }
  for (const cell of view.checked || []) {
    for (const element of squareElements(cell)) element.setAttribute("data-check", "true");
    const box = squareBox(cell);
    // Drawn by the library (ggn.svg's check=), else here.
    if (box && !svg.querySelector(`.check[data-cell="${CSS.escape(cell)}"], .check-mark[data-cell="${CSS.escape(cell)}"]`)) {
      marks.append(svgElement("circle", {
        "class": "check-mark", "data-cell": cell, cx: box.cx, cy: box.cy, r: box.size * 0.5,
        fill: "url(#ggn-check-glow)",
      }));
    }
  }
  if (svg.querySelector(".check-mark") && !svg.querySelector("#ggn-check-glow")) {
    const defs = svg.querySelector("defs") || svg.insertBefore(svgElement("defs"), svg.firstChild);
    const glow = svgElement("radialGradient", {id: "ggn-check-glow"});
    glow.append(svgElement("stop", {offset: "0%", "stop-color": "#ff0000", "stop-opacity": "1"}),
                svgElement("stop", {offset: "25%", "stop-color": "#e70000", "stop-opacity": "1"}),
                svgElement("stop", {offset: "90%", "stop-color": "#a90000", "stop-opacity": "0"}));
    defs.append(glow);
  }
  // Accessible names, and one square in the keyboard's tab order (the others by arrow keys).
  const squares = hitSquares();
  for (const square of squares) {
    const cell = cellOf(square);
    const piece = view.board[cell];
    square.setAttribute("aria-label", piece ? `${cellName(cell)}, ${pieceName(piece)}` : `${cellName(cell)}, empty`);
    square.setAttribute("role", "button");
    square.setAttribute("tabindex", "-1");
  }
  for (const held of board.querySelectorAll("g.held[data-hand]")) {
    const side = held.getAttribute("data-hand");
    held.setAttribute("role", "button");
    held.setAttribute("tabindex", side === view.active ? "0" : "-1");
    held.setAttribute("aria-label", `${pieceName(held.getAttribute("data-piece"))} in hand, ` +
                      `${held.getAttribute("data-count")}`);
  }
  const rover = (page.focused && hitSquare(page.focused)) || squares[0];
  if (rover) rover.setAttribute("tabindex", "0");
}

function squareElements(cell) {
  // The element that carries a square's data- attributes (data-last, data-check, data-target):
  // its hit target (rect.square), else, in a picture without them, its own rect[data-cell].
  const hit = hitSquare(cell);
  return hit ? [hit] : [];
}

function markLast(cell, which) {
  const elements = squareElements(cell);
  if (!elements.length) return;  // a drop's source: the hand
  for (const element of elements) {
    if (!element.hasAttribute("data-last")) element.setAttribute("data-last", which);
  }
  const marks = $("board").querySelector("g.ggn-marks");
  const box = squareBox(cell);
  // Drawn by the library (ggn.svg's last=), else here.
  if (!marks || !box || $("board").querySelector(`rect.last[data-cell="${CSS.escape(cell)}"]`)) return;
  marks.append(svgElement("rect", {
    "class": "last-mark", "data-cell": cell, x: box.x, y: box.y, width: box.width, height: box.height,
  }));
}

// -- the history --------------------------------------------------------------------------

function showHistory() {
  const list = $("history");
  clear(list);
  if (!page.start) return;
  // Moves numbered as the game's players number them: by pairs (1. e4 e5), from the start's
  // move number and side to move; shogi's by ply (1. P-76 2. P-34).
  const byPly = page.view && page.view.notation.startsWith("shogi");
  const players = page.view ? page.view.players : ["first", "second"];
  let number = byPly ? 1 : page.start.fullmove;
  let side = page.start.active;
  page.moves.forEach((played, k) => {
    const ply = k + 1;
    if (byPly) {
      list.append(make("span", {"class": "number"}, `${ply}.`));
    } else if (side === "first") {
      list.append(make("span", {"class": "number"}, `${number}.`));
    } else if (k === 0) {
      list.append(make("span", {"class": "number"}, `${number}...`));
    }
    const label = `${byPly ? ply : number}${side === "first" || byPly ? "." : "..."} ${played.san}, ${players[side === "first" ? 0 : 1]}`;
    const button = make("button", {"type": "button", "class": "ply", "data-ply": String(ply), "aria-label": label},
                        played.san);
    if (ply === page.at) {
      button.classList.add("current");
      button.setAttribute("aria-current", "step");
    } else if (ply > page.at) {
      button.classList.add("undone");
    }
    list.append(button);
    if (side === "second") number++;
    side = side === "first" ? "second" : "first";
  });
  const view = page.view;
  if (view && view.result && page.at === page.moves.length) {
    list.append(make("span", {"class": "result"}, resultText(view)));
  }
  const current = list.querySelector("button.ply.current");
  if (current && current.scrollIntoView && list.scrollHeight > list.clientHeight) {
    current.scrollIntoView({block: "nearest"});
  }
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
  const board = $("board");
  for (const element of board.querySelectorAll(".selected, .target")) element.classList.remove("selected", "target");
  for (const element of board.querySelectorAll("[data-target]")) element.removeAttribute("data-target");
  for (const element of board.querySelectorAll(".target-mark, .selected-mark")) element.remove();
  const selected = page.selected;
  if (!selected || !page.view) {
    box.append(make("p", {"class": "hint"}, "Click or drag a piece of the side to move."));
    return;
  }
  const groups = groupsOf(selected);
  const marks = board.querySelector("g.ggn-marks");
  if (selected.source === "*") {
    const held = `#board [data-hand="${page.view.active}"][data-piece="${CSS.escape(selected.piece)}"]`;
    for (const element of document.querySelectorAll(held)) element.classList.add("selected");
  } else {
    for (const element of board.querySelectorAll(`[data-cell="${CSS.escape(selected.source)}"]`)) {
      element.classList.add("selected");
    }
    const box = squareBox(selected.source);
    if (marks && box) {
      marks.append(svgElement("rect", {"class": "selected-mark", x: box.x, y: box.y, width: box.width,
                                       height: box.height}));
    }
  }
  const where = selected.source === "*" ? "from the hand" : `on ${cellName(selected.source)}`;
  box.append(make("p", {"class": "chosen"},
                  `${pieceName(selected.piece)} (${selected.piece}) ${where}: ${groups.length} destination${groups.length === 1 ? "" : "s"}`));
  const list = make("ul", {"class": "destinations"});
  for (const group of groups) {
    for (const element of board.querySelectorAll(`[data-cell="${CSS.escape(group.destination)}"]`)) {
      element.classList.add("target");
    }
    for (const element of squareElements(group.destination)) element.setAttribute("data-target", "true");
    const target = squareBox(group.destination);
    if (marks && target) {
      const taken = page.view.board[group.destination] !== undefined;
      marks.append(taken
        ? svgElement("circle", {"class": "target-mark capture", "data-cell": group.destination, cx: target.cx,
                                cy: target.cy, r: target.size * 0.46, fill: "none",
                                "stroke-width": target.size * 0.08})
        : svgElement("circle", {"class": "target-mark", "data-cell": group.destination, cx: target.cx,
                                cy: target.cy, r: target.size * 0.16}));
    }
    const item = make("li", {"data-destination": group.destination});
    item.append(make("strong", {}, cellName(group.destination)));
    if (group.destination === group.source) item.append(" (a pass: click the piece again)");
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
    const piece = option.piece || option.choice || group.piece;
    const label = `${pieceName(piece)}${option.choice === null ? " (unchanged)" : ""}`;
    const button = make("button", {"type": "button", "class": "choice", "data-move": option.move,
                                   "data-piece": piece, "aria-label": label, "title": label});
    if (option.picture) {
      button.innerHTML = option.picture;  // the library's picture of the piece (ggn.svg.piece)
      const picture = button.querySelector("svg");
      if (picture) picture.setAttribute("aria-hidden", "true");
    } else {
      button.textContent = piece;
    }
    button.addEventListener("click", () => {
      closeChoices(true);
      hold(() => playMove(option.move));
    });
    buttons.append(button);
  }
  $("choices").hidden = false;
  const first = buttons.querySelector("button.choice");
  if (first) first.focus();
}

function closeChoices(chosen) {
  page.pending = null;
  $("choices").hidden = true;
  clear($("choice-buttons"));
  if (chosen) return;
  // A piece dragged onto a square with a choice goes back when none is made.
  for (const ghost of $("board").querySelectorAll("g.dragged")) ghost.remove();
  for (const lifted of $("board").querySelectorAll(".lifted")) lifted.classList.remove("lifted");
}

// A square (or a piece in a hand) was clicked, tapped or chosen by the keyboard.
function tap(where) {
  const view = page.view;
  if (!view) return;
  closeChoices();
  if (where.hand !== undefined) {
    const same = page.selected && page.selected.source === "*" && page.selected.piece === where.piece;
    page.selected = where.hand === view.active && !same ? {source: "*", piece: where.piece} : null;
    showMoves();
    return;
  }
  const square = where.cell;
  const group = groupsOf(page.selected).find((g) => g.destination === square);
  if (group) {
    choose(group);
    return;
  }
  const piece = view.board[square];
  const same = page.selected && page.selected.source === square;
  page.selected = piece && !same ? {source: square, piece: piece} : null;
  showMoves();
}

function choose(group) {
  if (group.plays.length > 1) openChoices(group);
  else hold(() => playMove(group.plays[0].move));
}

function locate(element) {
  // The square or hand piece under an element of the picture.
  const found = element && element.closest && element.closest("#board rect.square[data-square], #board [data-hand], #board [data-square], #board [data-cell]");
  if (!found) return null;
  if (found.hasAttribute("data-hand")) return {hand: found.getAttribute("data-hand"), piece: found.getAttribute("data-piece")};
  return {cell: cellOf(found)};
}

function movable(where) {
  // Whether a drag may start here: a piece of the player to move with a legal move.
  const view = page.view;
  if (!view || !where) return false;
  if (where.hand !== undefined) return where.hand === view.active && view.moves.some((g) => g.source === "*" && g.piece === where.piece);
  return view.moves.some((g) => g.source === where.cell);
}

function pointInSvg(svg, event) {
  const point = new DOMPoint(event.clientX, event.clientY);
  const matrix = svg.getScreenCTM();
  return matrix ? point.matrixTransform(matrix.inverse()) : point;
}

function pieceElement(where) {
  const board = $("board");
  if (where.hand !== undefined) {
    return board.querySelector(`g.held[data-hand="${CSS.escape(where.hand)}"][data-piece="${CSS.escape(where.piece)}"]`);
  }
  return board.querySelector(`g.piece[data-square="${CSS.escape(where.cell)}"]`);
}

function pointerDown(event) {
  if (event.button !== undefined && event.button !== 0) return;
  const where = locate(event.target);
  if (!where) return;
  event.preventDefault();
  if (page.busy > 0 || page.held.length) {  // held, and done on the board the answer brings
    hold(() => tap(where));
    return;
  }
  const view = page.view;
  if (!view) return;
  if (where.cell !== undefined) {
    page.focused = where.cell;
    const group = groupsOf(page.selected).find((g) => g.destination === where.cell);
    if (group) {  // click-click: the second click plays
      closeChoices();
      choose(group);
      return;
    }
  }
  if (!movable(where)) {
    tap(where);
    return;
  }
  const was = page.selected;
  const again = was && (where.hand !== undefined ? was.source === "*" && was.piece === where.piece : was.source === where.cell);
  if (!again) tap(where);
  const svg = $("board").querySelector("svg");
  const piece = pieceElement(where);
  if (!svg || !piece) return;
  page.drag = {where, again, pointer: event.pointerId, start: {x: event.clientX, y: event.clientY}, moving: false,
               svg, piece, ghost: null, hover: null};
  try { $("board").setPointerCapture(event.pointerId); } catch (failure) { /* a synthetic event */ }
}

function pointerMove(event) {
  const drag = page.drag;
  if (!drag || drag.pointer !== event.pointerId) return;
  if (!drag.moving) {
    if (Math.hypot(event.clientX - drag.start.x, event.clientY - drag.start.y) < 4) return;
    drag.moving = true;
    // The piece follows the pointer: a copy of its picture on top, the original faded.
    const ghost = drag.piece.cloneNode(true);
    ghost.setAttribute("class", "dragged");
    ghost.removeAttribute("data-square");
    ghost.removeAttribute("data-hand");
    ghost.setAttribute("pointer-events", "none");
    drag.svg.append(ghost);
    drag.ghost = ghost;
    drag.piece.classList.add("lifted");
    const box = drag.piece.getBBox();
    drag.centre = {x: box.x + box.width / 2, y: box.y + box.height / 2};
    $("board").classList.add("dragging");
  }
  event.preventDefault();
  const at = pointInSvg(drag.svg, event);
  drag.ghost.setAttribute("transform", `translate(${at.x - drag.centre.x} ${at.y - drag.centre.y})`);
  const over = locate(document.elementFromPoint(event.clientX, event.clientY));
  const cell = over && over.cell !== undefined ? over.cell : null;
  if (cell !== drag.hover) {
    for (const element of $("board").querySelectorAll("[data-hover]")) element.removeAttribute("data-hover");
    drag.hover = cell;
    if (cell) for (const element of squareElements(cell)) element.setAttribute("data-hover", "true");
  }
}

function pointerUp(event) {
  const drag = page.drag;
  if (!drag || drag.pointer !== event.pointerId) return;
  page.drag = null;
  $("board").classList.remove("dragging");
  for (const element of $("board").querySelectorAll("[data-hover]")) element.removeAttribute("data-hover");
  if (!drag.moving) {
    if (drag.again) {  // a second click on the selected piece lets it go
      page.selected = null;
      showMoves();
    }
    return;
  }
  const over = locate(document.elementFromPoint(event.clientX, event.clientY));
  const cell = over && over.cell !== undefined ? over.cell : null;
  const source = drag.where.cell !== undefined ? drag.where.cell : "*";
  const piece = drag.where.cell !== undefined ? page.view.board[drag.where.cell] : drag.where.piece;
  // A drop back on its own square puts the piece down (a pass, as janggi's, is clicked twice).
  const group = cell === null || cell === drag.where.cell ? null
    : page.view.moves.find((g) => g.source === source && g.piece === piece && g.destination === cell);
  if (!group) {  // an illegal drop: the piece goes back, nothing is played
    drag.ghost.remove();
    drag.piece.classList.remove("lifted");
    if (cell !== null && cell !== drag.where.cell) {
      page.selected = null;
      showMoves();
    }
    return;
  }
  // The piece stays where it was dropped until the answer draws the new position.
  const box = squareBox(cell);
  if (box) drag.ghost.setAttribute("transform", `translate(${box.cx - drag.centre.x} ${box.cy - drag.centre.y})`);
  const taken = $("board").querySelector(`g.piece[data-square="${CSS.escape(cell)}"]`);
  if (taken && taken !== drag.piece) taken.classList.add("lifted");
  choose(group);
}

function pointerCancel(event) {
  const drag = page.drag;
  if (!drag || drag.pointer !== event.pointerId) return;
  page.drag = null;
  $("board").classList.remove("dragging");
  if (drag.ghost) drag.ghost.remove();
  drag.piece.classList.remove("lifted");
}

// -- the keyboard -------------------------------------------------------------------------

function neighbour(cell, dx, dy) {
  // The square next to `cell` on the screen in the direction (dx, dy): nearest along it.
  const here = squareBox(cell);
  if (!here) return null;
  let best = null, bestScore = Infinity;
  for (const square of hitSquares()) {
    const other = cellOf(square);
    const box = squareBox(other);
    if (!box || other === cell) continue;
    const along = (box.cx - here.cx) * dx + (box.cy - here.cy) * dy;
    if (along <= here.size * 0.25) continue;
    const across = Math.abs((box.cx - here.cx) * dy) + Math.abs((box.cy - here.cy) * dx);
    const score = along + across * 3;
    if (score < bestScore) { best = other; bestScore = score; }
  }
  return best;
}

function focusSquare(cell) {
  const square = hitSquare(cell);
  if (!square) return;
  for (const other of $("board").querySelectorAll("[tabindex='0']")) {
    if (!other.matches("g.held")) other.setAttribute("tabindex", "-1");
  }
  square.setAttribute("tabindex", "0");
  page.focused = cell;
  square.focus();
}

const ARROWS = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};

function keyDown(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (event.key === "Escape") {
    if (!$("choices").hidden) { closeChoices(); return; }
    if (page.selected) { page.selected = null; showMoves(); }
    return;
  }
  if (target.closest && target.closest("input, textarea, select, #choices")) return;
  const onBoard = target.closest && target.closest("#board");
  if (onBoard) {
    const where = locate(target);
    if (where && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      hold(() => tap(where));
      return;
    }
    if (where && where.cell !== undefined && ARROWS[event.key]) {
      event.preventDefault();
      const [dx, dy] = ARROWS[event.key];
      const next = neighbour(where.cell, dx, dy);
      if (next) focusSquare(next);
      return;
    }
  }
  if (target.closest && target.closest("button:not(.ply)") && (event.key === "Enter" || event.key === " ")) return;
  const steps = {ArrowLeft: -1, ArrowRight: 1};
  if (event.key in steps) {
    event.preventDefault();
    hold(() => goTo(page.at + steps[event.key]));
  } else if (event.key === "Home") {
    event.preventDefault();
    hold(() => goTo(0));
  } else if (event.key === "End") {
    event.preventDefault();
    hold(() => goTo(page.moves.length));
  }
}

// -- the interface for the page's other scripts -------------------------------------------

window.ggn = {
  // What is shown: the subject, the start, the moves (GGN's and the game's notation), which of
  // them are played on the board shown (at), and the server's answer for it (view).
  state() {
    return {
      subject: page.subject && Object.assign({}, page.subject),
      start: page.start && Object.assign({}, page.start),
      moves: page.moves.map((played) => played.move),
      sans: page.moves.map((played) => played.san),
      at: page.at,
      feen: page.view ? page.view.feen : null,
      fen: page.view ? page.view.fen : null,
      flipped: page.flipped,
      letters: page.letters,
      busy: page.busy > 0,
      view: page.view,
    };
  },
  // Open a game: a promise of the view shown (rejected, with the error shown, when the server
  // refuses it). subject: {game: NAME} or {document: TEXT}; start: FEEN or FEN (null: the
  // game's start); moves: in any of the game's notations; at: how many to show (default all).
  load(options) {
    const {subject, start, moves, at} = options || {};
    if (!subject || (subject.game === undefined) === (subject.document === undefined)) {
      return Promise.reject(new TypeError("ggn.load needs a subject: {game: NAME} or {document: TEXT}"));
    }
    if (subject.game !== undefined) {
      $("mode-game").checked = true;
      $("game").value = subject.game;
    } else {
      $("mode-document").checked = true;
      $("document").value = subject.document;
      showSource();
    }
    $("position").value = start || "";
    return hold(() => open(subject.game !== undefined ? {game: subject.game} : {document: subject.document},
                           start || null, moves || [], at));
  },
  // Call back after each position drawn, with the server's answer (and at once when one is).
  onRender(callback) {
    if (typeof callback !== "function") throw new TypeError("ggn.onRender needs a function");
    page.renderers.push(callback);
    if (page.view) callback(page.view);
  },
  // The picture of the board shown (its <svg> element), or null.
  board() {
    return $("board").querySelector("svg");
  },
  // Show the position after the first `at` moves (a promise of its view).
  go(at) {
    return hold(() => goTo(at));
  },
};

// -- the page -----------------------------------------------------------------------------

function showSource() {
  $("document-box").hidden = !$("mode-document").checked;
}

async function start() {
  const config = await (await fetch("/api/config")).json();
  const select = $("game");
  for (const name of config.games) select.append(make("option", {"value": name}, name));
  const initial = config.initial;
  if (initial.document !== undefined) {
    $("mode-document").checked = true;
    $("document").value = initial.document;
  } else {
    select.value = initial.game;
  }
  showSource();
  $("position").value = initial.position || "";
  $("source").addEventListener("submit", loadForm);
  $("game").addEventListener("change", () => { $("mode-game").checked = true; $("position").value = ""; showSource(); });
  $("document").addEventListener("input", () => { $("mode-document").checked = true; });
  for (const radio of document.querySelectorAll("input[name=mode]")) radio.addEventListener("change", showSource);
  const board = $("board");
  board.addEventListener("pointerdown", pointerDown);
  board.addEventListener("pointermove", pointerMove);
  board.addEventListener("pointerup", pointerUp);
  board.addEventListener("pointercancel", pointerCancel);
  board.addEventListener("lostpointercapture", pointerCancel);
  board.addEventListener("contextmenu", (event) => { if (page.drag) event.preventDefault(); });
  document.addEventListener("keydown", keyDown);
  $("history").addEventListener("click", (event) => {
    const button = event.target.closest("button.ply");
    if (button) hold(() => goTo(Number(button.getAttribute("data-ply"))));
  });
  $("move-form").addEventListener("submit", typed);
  $("undo").addEventListener("click", () => hold(() => goTo(page.at - 1)));
  $("redo").addEventListener("click", () => hold(() => goTo(page.at + 1)));
  $("choice-cancel").addEventListener("click", () => closeChoices());
  $("flip").addEventListener("click", () => hold(() => {
    page.flipped = !page.flipped;
    return page.start ? goTo(page.at) : null;
  }));
  $("letters").addEventListener("change", () => hold(() => {
    page.letters = $("letters").checked;
    return page.start ? goTo(page.at) : null;
  }));
  await loadForm();
  document.body.setAttribute("data-ready", "true");
}

document.addEventListener("DOMContentLoaded", start);
