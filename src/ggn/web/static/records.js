// The ggn explorer's records and links: bring a game in (a PGN, KIF or CSA record pasted or
// chosen as a file, read and replayed by the server: POST /api/record) and step through it with
// the page's history; take it out (POST /api/export: the game as a record, copied, and the
// position shown as FEN and FEEN); and keep the game and the position shown in the page's URL,
// so that a link opens them again. Every rule is the server's; this script asks and shows,
// through the page's interface window.ggn (app.js).
//
// The link (the URL's fragment, never sent to the server; docs/pictures.md):
//   #game=NAME&start=FEEN&moves=M1,M2,...&ply=N
// - game: the game's name (ggn variants lists them); or document=TEXT, a pasted GGN document's
//   text in base64url (UTF-8), when it is at most 16 KiB (a larger one is not put in the link);
// - start: the start position, a game's FEN (its move counters with it) or FEEN, spaces written
//   "_" (left out: the game's usual start);
// - moves: the moves played from it, each URL-encoded, separated by ",": the page writes them in
//   the game's own notation (SAN: e4,e5,Nf3; shogi's P-76), GGN's for a document; any notation
//   the game reads is read (UCI too: e2e4,e7e5);
// - ply: the position shown, after that many moves (left out: after the last).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const MAX_DOCUMENT = 16 * 1024;   // the longest document put in a link, in characters
  const NAMES = {pgn: "PGN", kif: "KIF", csa: "CSA"};
  const records = {
    source: null,        // the record's request ({text} or {data}), to choose another of its games
    loaded: null,        // the record loaded: {game, start, moves: [GGN's], tags, comments, clocks}
    games: new Map(),    // a game's name -> {feen: its usual start's FEEN, formats, format}
    fens: new Map(),     // a game's start (name, FEEN and counters) -> its FEN
    linked: readLink(),  // the link the page was opened with, opened once the page is ready
    opening: false,      // a link being opened: the URL is not written meanwhile
    written: null,       // the fragment last written
    linksAsked: 0,     // the number of the last link asked for
  };

  async function post(path, body) {
    let response, answer;
    try {
      response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                    body: JSON.stringify(body)});
      answer = await response.json();
    } catch (failure) {
      throw new Error(`no answer from the explorer's server: ${failure.message}`);
    }
    if (!response.ok) {
      const error = new Error(answer.error || `the server answered ${response.status}`);
      error.answer = answer;
      throw error;
    }
    return answer;
  }

  function showError(text) {
    const box = $("record-error");
    box.textContent = text;
    box.hidden = !text;
  }

  // -- bringing a game in ---------------------------------------------------------------------

  function base64(bytes) {
    let binary = "";
    const chunk = 0x8000;
    for (let at = 0; at < bytes.length; at += chunk) {
      binary += String.fromCharCode.apply(null, bytes.subarray(at, at + chunk));
    }
    return btoa(binary);
  }

  function summary(game) {
    const tags = game.tags;
    const players = [tags.White || tags["先手"] || tags["下手"] || tags["N+"],
                     tags.Black || tags["後手"] || tags["上手"] || tags["N-"]];
    const named = players.every((name) => name && name !== "?") ? players.join(" - ") : `game ${game.number}`;
    const event = [tags.Event || tags["棋戦"] || tags.$EVENT, tags.Date || tags["開始日時"] || tags.$START_TIME]
      .filter((part) => part && !/^[?.]*$/.test(part));
    return `${game.number}. ${named}${event.length ? ` (${event.join(", ")})` : ""}` +
      `${game.result ? `, ${game.result}` : ""}: ${game.plies} ${game.plies === 1 ? "ply" : "plies"}`;
  }

  async function bring(request) {
    showError("");
    const load = $("record-load");
    load.disabled = true;
    try {
      const found = await post("/api/record", request);
      records.source = Object.assign({}, request);
      delete records.source.index;
      records.loaded = {
        game: found.game,
        start: found.start.usual ? null : found.start.fen,
        moves: found.moves.map((move) => move.move),
        tags: found.tags,
        comments: found.moves.map((move) => move.comments),
        clocks: found.moves.map((move) => move.clock),
        comment: found.comment,
      };
      const choose = $("record-game");
      while (choose.firstChild) choose.removeChild(choose.firstChild);
      for (const game of found.games) {
        const option = document.createElement("option");
        option.value = String(game.number - 1);
        option.textContent = summary(game);
        choose.append(option);
      }
      choose.value = String(found.index);
      $("record-games").hidden = found.games.length < 2;
      const tags = Object.fromEntries(found.tags);
      const plies = found.moves.length;
      let info = `${NAMES[found.format]}: ${found.game}, ${plies} ${plies === 1 ? "ply" : "plies"}`;
      const players = [tags.White || tags["先手"] || tags["N+"], tags.Black || tags["後手"] || tags["N-"]];
      if (players.every((name) => name && name !== "?")) info += `, ${players.join(" - ")}`;
      if (found.result) {
        info += found.verdict && found.verdict !== found.result
          ? `; result ${found.verdict} (as written: ${found.result})` : `; result as written: ${found.result}`;
      }
      if (found.outcome) info += ` (${found.outcome.text})`;
      if (found.games.length > 1) info += `; game ${found.number} of ${found.games.length}${found.more ? "+" : ""} in the file`;
      if (found.variations) info += `; its ${found.variations} variation${found.variations === 1 ? "" : "s"} not shown`;
      if (found.unread) info += `; a later game cannot be read: ${found.unread}`;
      $("record-info").textContent = info;
      $("record-info").hidden = false;
      await window.ggn.load({subject: {game: found.game}, start: records.loaded.start,
                             moves: records.loaded.moves, at: 0});
    } catch (failure) {
      // (the server's message names the game, the ply, the move and the line: "game 1, ply 6
      // 'Nf9' (line 5): ...")
      showError(`The record could not be loaded: ${failure.message}`);
      const answer = failure.answer || {};
      if (answer.line) $("record-error").setAttribute("data-line", String(answer.line));
      else $("record-error").removeAttribute("data-line");
    } finally {
      load.disabled = false;
    }
  }

  function bringText(event) {
    event.preventDefault();
    const text = $("record-text").value;
    if (!text.trim()) { showError("Paste a record (PGN, KIF or CSA) first, or choose a file."); return; }
    bring({text});
  }

  async function bringFile() {
    const file = $("record-file").files[0];
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    bring({data: base64(bytes)});  // the server tells UTF-8, Shift_JIS and ISO 8859-1 apart
  }

  // -- the record's comments, beside the position shown ---------------------------------------

  function sameGame(state) {
    const loaded = records.loaded;
    if (!loaded || !state.subject || state.subject.game !== loaded.game) return false;
    const moves = state.moves;
    for (let ply = 0; ply < state.at; ply++) if (moves[ply] !== loaded.moves[ply]) return false;
    return true;
  }

  function showComment(state) {
    const box = $("record-comment");
    let text = "";
    if (sameGame(state)) {
      const loaded = records.loaded;
      const said = state.at === 0 ? (loaded.comment ? [loaded.comment] : []) : loaded.comments[state.at - 1] || [];
      const clock = state.at > 0 ? loaded.clocks[state.at - 1] : null;
      // PGN's embedded commands ([%clk 0:03:00], [%eval 0.3]) are not words: a clock is shown as one.
      const clocks = said.map((comment) => /\[%clk\s+([^\]\s]+)\s*\]/.exec(comment)).filter((found) => found);
      const words = said.map((comment) => comment.replace(/\[%[^\]]*\]/g, " ").replace(/\s+/g, " ").trim());
      const shown = clock ? clock.replace(/^\(\s*|\s*\)$/g, "") : clocks.length ? clocks[0][1] : "";
      text = [...words, shown ? `(time: ${shown})` : ""].filter((part) => part).join(" ");
    }
    box.textContent = text;
    box.hidden = !text;
  }

  // -- taking it out ------------------------------------------------------------------------

  async function gameInfo(game) {
    let known = records.games.get(game);
    if (!known) {
      const found = await post("/api/export", {game, history: {moves: []}});
      known = {feen: found.start.feen, formats: found.formats, format: found.format};  // the usual first
      records.games.set(game, known);
    }
    return known;
  }

  function exportBody(state, format) {
    const start = state.start || {};
    const body = Object.assign({}, state.subject, {
      history: {start: start.position || null, halfmove: start.halfmove || 0, fullmove: start.fullmove || 1,
                moves: state.moves},
      at: state.at,
    });
    if (format) body.format = format;
    if (sameGame(state) && records.loaded.tags.length) body.tags = records.loaded.tags;
    return body;
  }

  async function copyText(text, what) {
    const shown = $("export-text");
    shown.value = text;
    shown.hidden = false;
    let copied = false;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
        copied = true;
      }
    } catch (failure) {
      copied = false;
    }
    if (!copied) {  // an older browser, or one that refuses: the shown text selected and copied
      shown.focus();
      shown.select();
      try { copied = document.execCommand("copy"); } catch (failure) { copied = false; }
    }
    const status = $("copied");
    status.textContent = copied ? `Copied ${what}.` : `Select the text below and copy it: ${what}.`;
    status.setAttribute("data-copied", copied ? "true" : "false");
    status.setAttribute("data-what", what);
    clearTimeout(records.fade);
    records.fade = setTimeout(() => { status.textContent = ""; status.removeAttribute("data-copied"); }, 6000);
  }

  async function copyRecord(format) {
    const state = window.ggn.state();
    if (!state.subject) return;
    try {
      const found = await post("/api/export", exportBody(state, format));
      if (!found.record) { showError(found.unrecorded); return; }
      showError("");
      const plies = found.plies;
      await copyText(found.record, `the ${NAMES[found.format]} (${plies} ${plies === 1 ? "ply" : "plies"})`);
    } catch (failure) {
      showError(`The game could not be written: ${failure.message}`);
    }
  }

  function copyPosition(kind) {
    const state = window.ggn.state();
    const text = kind === "fen" ? state.fen : state.feen;
    if (!text) { showError("This position has no FEN: copy its FEEN."); return; }
    showError("");
    copyText(text, `the ${kind === "fen" ? "FEN" : "FEEN"}`);
  }

  function showFormats(formats) {
    const place = $("copy-records");
    const wanted = formats.join(" ");
    if (place.getAttribute("data-formats") === wanted) return;
    place.setAttribute("data-formats", wanted);
    while (place.firstChild) place.removeChild(place.firstChild);
    for (const format of formats) {
      const button = document.createElement("button");
      button.type = "button";
      button.id = `copy-${format}`;
      button.className = "copy-record";
      button.setAttribute("data-format", format);
      button.textContent = `Copy ${NAMES[format]}`;
      button.addEventListener("click", () => copyRecord(format));
      place.append(button);
    }
  }

  // -- the link -----------------------------------------------------------------------------

  function fromBase64Url(text) {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  }

  function toBase64Url(text) {
    return base64(new TextEncoder().encode(text)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function readLink(url) {
    const at = (url || location.href).indexOf("#");
    const hash = at < 0 ? "" : (url || location.href).slice(at + 1);
    if (!hash) return null;
    const fields = {};
    for (const part of hash.split("&")) {
      const at = part.indexOf("=");
      if (at > 0) fields[part.slice(0, at)] = part.slice(at + 1);
    }
    if (fields.game === undefined && fields.document === undefined) return null;
    const link = {};
    try {
      link.subject = fields.game !== undefined ? {game: decodeURIComponent(fields.game)}
        : {document: fromBase64Url(fields.document)};
      link.start = fields.start ? decodeURIComponent(fields.start).replace(/_/g, " ") : null;
      link.moves = fields.moves ? fields.moves.split(",").map((move) => decodeURIComponent(move)) : [];
      link.at = fields.ply !== undefined ? Number(fields.ply) : undefined;
      if (link.at !== undefined && !(Number.isInteger(link.at) && link.at >= 0)) link.at = undefined;
    } catch (failure) {
      return {broken: `the link cannot be read: ${failure.message}`};
    }
    return link;
  }

  // A game's start as its FEN, which holds the move counters too (FEEN does not).
  async function startText(state) {
    const start = state.start;
    const key = `${state.subject.game} ${start.position} ${start.halfmove} ${start.fullmove}`;
    let fen = records.fens.get(key);
    if (fen === undefined) {
      const found = await post("/api/export", {game: state.subject.game, history: {
        start: start.position, halfmove: start.halfmove || 0, fullmove: start.fullmove || 1, moves: []}});
      fen = found.start.fen || start.position;
      records.fens.set(key, fen);
    }
    return fen;
  }

  function encodeMove(move) {
    return encodeURIComponent(move).replace(/%40/g, "@").replace(/%3A/g, ":");
  }

  async function linkOf(state) {
    if (!state.subject || !state.start) return null;
    const parts = [];
    let usual = false;
    if (state.subject.game !== undefined) {
      parts.push(`game=${encodeURIComponent(state.subject.game)}`);
      // Every game of Fairy-Stockfish's is written in PGN: offered until the server tells the rest.
      if (!records.games.has(state.subject.game)) showFormats(["pgn"]);
      const known = await gameInfo(state.subject.game);
      showFormats(known.formats);
      usual = known.feen === state.start.position && !state.start.halfmove && state.start.fullmove === 1;
    } else {
      showFormats([]);
      if (state.subject.document.length > MAX_DOCUMENT) return {tooLarge: true};
      parts.push(`document=${toBase64Url(state.subject.document)}`);
    }
    if (!usual) {
      const start = state.subject.game !== undefined ? await startText(state) : state.start.position;
      parts.push(`start=${encodeURIComponent(start.replace(/ /g, "_")).replace(/%2F/g, "/")}`);
    }
    const moves = state.subject.game !== undefined ? state.sans : state.moves;
    if (moves.length) parts.push(`moves=${moves.map(encodeMove).join(",")}`);
    if (state.at !== moves.length) parts.push(`ply=${state.at}`);
    return {fragment: parts.join("&")};
  }

  async function writeLink() {
    if (records.opening || !window.ggn) return;
    const number = ++records.linksAsked;
    const state = window.ggn.state();
    let link;
    try {
      link = await linkOf(state);
    } catch (failure) {
      return;  // the game's usual start unknown: the link is written with the next position
    }
    // (a later position's link, asked meanwhile, wins)
    if (!link || records.opening || number !== records.linksAsked) return;
    const note = $("link-note");
    note.hidden = !link.tooLarge;
    note.textContent = link.tooLarge ? `The page's link holds no pasted document over ${MAX_DOCUMENT / 1024} KiB: ` +
      "copy the document and the FEEN to share this position." : "";
    const fragment = link.tooLarge ? "" : link.fragment;
    if (fragment === records.written) return;
    records.written = fragment;
    history.replaceState(null, "", fragment ? `#${fragment}` : location.pathname + location.search);
  }

  async function openLink(link) {
    if (!link) return;
    if (link.broken) { showError(link.broken); return; }
    records.opening = true;
    try {
      await window.ggn.load({subject: link.subject, start: link.start, moves: link.moves, at: link.at});
      showError("");
    } catch (failure) {
      showError(`The link's game could not be opened: ${failure.message}`);
    } finally {
      records.opening = false;
      writeLink();
    }
  }

  // -- the page -----------------------------------------------------------------------------

  function start() {
    if (!window.ggn) return;
    $("record-form").addEventListener("submit", bringText);
    $("record-file").addEventListener("change", bringFile);
    $("record-game").addEventListener("change", () => {
      if (records.source) bring(Object.assign({}, records.source, {index: Number($("record-game").value)}));
    });
    $("copy-fen").addEventListener("click", () => copyPosition("fen"));
    $("copy-feen").addEventListener("click", () => copyPosition("feen"));
    $("copy-link").addEventListener("click", async () => {
      await writeLink();
      copyText(location.href, "the link");
    });
    // A link typed into the address bar (or followed within the page): read from the event, since
    // the page may have written its own link since.
    window.addEventListener("hashchange", (event) => {
      const link = readLink(event.newURL);
      const hash = event.newURL.includes("#") ? event.newURL.slice(event.newURL.indexOf("#") + 1) : "";
      if (link && hash !== records.written) openLink(link);
    });
    let first = true;
    window.ggn.onRender((view) => {
      const state = window.ggn.state();
      $("copy-fen").disabled = !view.fen;
      showComment(state);
      // The record's summary stays while its game is the one played.
      const loaded = records.loaded;
      $("record-info").hidden = !loaded || !state.subject || state.subject.game !== loaded.game;
      if (first) {  // the page's opening game is shown: the link's is opened over it
        first = false;
        const link = records.linked;
        records.linked = null;
        if (link) { openLink(link); return; }
      }
      writeLink();
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
