/* The play page: one human against the engine, for any game with a board (page data `game`;
   what the game is, its sizes, sides and pieces, comes from gameInfo).

   A game ("session") holds the boards from the empty one to the current one, the moves
   between them and the id of its saved record. Starting a new game replaces the session
   object, so that answers still on their way for an old game (an engine move, a save, an
   analysis) see they are stale and are dropped. */

import {
  $,
  $$,
  api,
  changedCell,
  boardStyle,
  clearError,
  columnMoves,
  drawBoard,
  drawShapePicker,
  formatCount,
  gameInfo,
  h,
  InputError,
  isTyping,
  itemMove,
  moveKey,
  moveName,
  moveTitle,
  nameStrongest,
  pageData,
  positionBody,
  queryParams,
  setBusy,
  setQuery,
  shapeOfKey,
  showError,
  sideLabel,
  sidePiece,
  sortByValue,
  strengthControl,
  searchParams,
  strengthParams,
  strengthSettings,
  valueChip,
  valueKind,
  valueMap,
  valueWords,
} from "/static/common.js";

const DATA = pageData();
const GAME = DATA.game;
const CAP = DATA.cap;

const INFO = gameInfo(GAME);

const el = {
  board: $("#board"),
  status: $("#status"),
  thinking: $("#thinking"),
  result: $("#result"),
  undo: $("#undo"),
  hint: $("#hint"),
  newGame: $("#new-game"),
  swap: $("#swap"),
  retry: $("#retry"),
  hintText: $("#hint-text"),
  pv: $("#pv"),
  size: $("#size"),
  customSize: $("#custom-size"),
  overlay: $("#overlay"),
  analysing: $("#analysing"),
  saved: $("#saved"),
  moveList: $("#move-list"),
  shapePicker: $("#shape-picker"),
};
const readStrength = strengthControl($("#strength"), CAP);

/** The game being played (see the header comment). */
let game = null;
/** Counts the games asked for: only the last one asked for starts. */
let starts = 0;
/** What is drawn on top of the board: the overlay's values, the hint, the chosen shape (where
    pieces have shapes: the first one with pieces left until the human picks one). */
const view = { overlay: false, values: null, best: null, hint: null, shape: null, analysing: null };
/** The last valid strength, kept for saving while the field holds a bad number. */
let lastStrength = { kind: "perfect" };

const strengthKind = $("#strength-kind");
/** Did the page itself trade "perfect" for a time limit (a board where it is not exact)? */
let timedByBoard = false;

/** Set the strength menu to `kind`, as if chosen (the number field follows). */
function setStrengthKind(kind) {
  strengthKind.value = kind;
  strengthKind.dispatchEvent(new Event("change")); // the control's own listener; no bubbling
}

/** Follow what the server says of the board (`exact_play` of its state): where perfect play
    is exact for a whole game it is "Perfect (exact...)"; elsewhere it is "Strongest (exact
    where reachable...)" and the default strength is a time limit. A strength the person
    chose is kept; a time limit the page chose goes back to perfect on an exact board. */
function followReach(exact) {
  nameStrongest(strengthKind, exact);
  if (!exact && strengthKind.value === "perfect") {
    setStrengthKind("time");
    timedByBoard = true;
  } else if (exact && timedByBoard && strengthKind.value === "time") {
    setStrengthKind("perfect");
    timedByBoard = false;
  }
}

/** What the engine said of its move or hint, in words with how sure it is; a level's view
    is a shallow search's ("+12 (heuristic)" as the server writes it). */
function viewText(reply) {
  return reply.level ? reply.value : valueWords(reply);
}

// ---------------------------------------------------------------- the session

function newSession(size, k, human) {
  return {
    size,
    k,
    human,
    states: [],
    moves: [],
    notes: [], // per move: the engine's answer for its own moves, null for the person's
    savedId: null,
    saving: Promise.resolve(),
    pending: null,
    thinking: false,
    failed: false,
    pv: null,
  };
}

const current = () => (game && game.states.length ? game.states[game.states.length - 1] : null);

function humansTurn() {
  const state = current();
  return Boolean(state) && !state.outcome && state.to_move_number === game.human && !game.thinking;
}

/** Did the human make a move that undo can take back? */
function canUndo() {
  return Boolean(game) && game.states.slice(0, -1).some((state) => state.to_move_number === game.human);
}

/** The strength for a saved record: the field's, or the last valid one (no error shown). */
function chosenStrength() {
  try {
    return readStrength();
  } catch {
    return lastStrength;
  }
}

function strength() {
  try {
    lastStrength = readStrength();
  } catch (error) {
    showError(error);
    return null;
  }
  return lastStrength;
}

/** Start a game on a board of SIZE and K, HUMAN moving first (1) or second (2); true once
    it has started. The board is asked for before anything changes: a size the server
    refuses (20x20, abc, a board past the server's limit) leaves the game being played and
    the board menu as they were, with the server's message; without a game to keep (a bad
    size in the address), the game's standard board starts instead. */
async function startGame(size, k, human) {
  const ticket = ++starts;
  clearError();
  let first;
  try {
    first = await api(`/api/${GAME}/state`, positionBody("", size, k));
  } catch (error) {
    if (ticket !== starts) return false;
    const standard = INFO.size ? INFO.size.default : "";
    if (game || (size || "") === standard) {
      if (game) fillSizes(game.size, game.k);
      showError(error);
      return false;
    }
    await startGame(standard, null, human);
    showError(error); // after the standard board's start, which clears the error area
    return false;
  }
  if (ticket !== starts) return false;
  abandon(game);
  const session = newSession(size, k, human);
  game = session;
  view.values = view.best = view.hint = null;
  session.states.push(first);
  followReach(first.exact_play !== false);
  fillSizes(size, k);
  setQuery({ size, k, side: human === 2 ? 2 : null });
  afterChange(session);
  return true;
}

/** After every change of the board: redraw, then let the engine move or refresh the overlay. */
function afterChange(session) {
  if (game !== session) return;
  view.values = view.best = view.hint = null;
  el.hintText.hidden = true;
  render();
  const state = current();
  if (!state || state.outcome) return;
  if (state.to_move_number !== session.human) engineMove(session);
  else refreshOverlay(session);
}

function push(session, move, state, note = null) {
  session.moves.push(move);
  session.notes.push(note);
  session.states.push(state);
  save(session);
}

async function humanMove(move) {
  const session = game;
  const before = current();
  if (!humansTurn() || session.pending) return;
  clearError();
  session.pending = before; // one move at a time: a second click waits for the server's answer
  try {
    const next = await api(`/api/${GAME}/play`, { ...positionBody(before.position, session.size, session.k), move });
    if (game !== session || current() !== before) return;
    session.pv = null;
    push(session, move, next);
  } catch (error) {
    showError(error); // the board is unchanged: nothing to refresh
    return;
  } finally {
    if (session.pending === before) session.pending = null;
  }
  afterChange(session);
}

async function engineMove(session) {
  const state = current();
  const chosen = strength();
  session.failed = chosen === null;
  if (!chosen) return render();
  const token = {};
  session.pending = token;
  session.thinking = true;
  render();
  try {
    const body = { ...positionBody(state.position, session.size, session.k), ...strengthParams(chosen) };
    const reply = await api(`/api/${GAME}/move`, body);
    if (game !== session || session.pending !== token) return; // undone or abandoned meanwhile
    session.pv = reply;
    session.settings = strengthSettings(chosen);
    finishEngine(session);
    push(session, reply.best_move, reply.after, reply);
    afterChange(session);
  } catch (error) {
    if (game !== session || session.pending !== token) return;
    finishEngine(session);
    session.failed = true;
    showError(error);
    render();
  }
}

function finishEngine(session) {
  session.pending = null;
  session.thinking = false;
}

function undo() {
  const session = game;
  if (!canUndo()) return;
  const wasOver = Boolean(current() && current().outcome);
  finishEngine(session);
  session.failed = false;
  session.pv = null;
  // A finished game's record is never rewritten (the server answers 409): playing on after
  // Undo starts a new record, once the saves already queued (the finished one) are done.
  if (wasOver) {
    session.saving = session.saving.then(() => {
      session.savedId = null;
      session.record = null;
    });
  }
  // back to the last board where it was the human's turn, before the human's move
  do {
    session.states.pop();
    session.moves.pop();
    session.notes.pop();
  } while (session.states.length > 1 && current().to_move_number !== session.human);
  save(session);
  afterChange(session);
}

// ---------------------------------------------------------------- saving

function players(session) {
  return session.human === 1 ? { 1: "human", 2: "engine" } : { 1: "engine", 2: "human" };
}

function recordBody(session, status) {
  const body = {
    game: GAME,
    size: session.states[0].size,
    moves: [...session.moves],
    players: players(session),
    settings: session.settings || strengthSettings(chosenStrength()),
    status,
  };
  if (session.k !== null && session.k !== undefined && session.k !== "") body.k = Number(session.k);
  return body;
}

/** Create the saved game on the first move, then update it after each one; saves run one
    after another so that the first one's id is known to the next. The server works out
    whether the game is finished from the moves. */
function save(session, status = "playing") {
  if (!session.states.length || (!session.moves.length && !session.savedId)) return;
  const over = Boolean(session.states[session.states.length - 1].outcome);
  const body = recordBody(session, over ? "finished" : status);
  session.saving = session.saving
    .then(async () => {
      if (session.savedId) body.id = session.savedId;
      const record = await api("/api/games", body);
      session.savedId = record.id;
      session.record = record;
      if (game === session) renderSaved();
    })
    .catch(showError);
}

function abandon(session) {
  if (!session || !session.moves.length) return;
  if (session.states[session.states.length - 1].outcome) return;
  session.pending = null;
  save(session, "abandoned");
}

/** Leaving the page abandons a running game; a beacon still goes out while the page unloads
    (fetch might be cancelled). */
window.addEventListener("pagehide", () => {
  const state = current();
  if (!game || !game.savedId || !game.moves.length || !state || state.outcome) return;
  const body = { ...recordBody(game, "abandoned"), id: game.savedId };
  navigator.sendBeacon("/api/games", new Blob([JSON.stringify(body)], { type: "application/json" }));
});

// ---------------------------------------------------------------- overlay, hint

async function refreshOverlay(session) {
  const state = current();
  const wanted = view.overlay && humansTurn() && game === session;
  view.values = view.best = null;
  view.analysing = wanted ? state : null;
  setBusy(el.analysing, wanted ? "Analysing your moves…" : null);
  render();
  if (!wanted) return;
  const chosen = strength();
  if (!chosen) return setBusy(el.analysing, null);
  try {
    const body = { ...positionBody(state.position, session.size, session.k), ...searchParams(chosen) };
    const answer = await api(`/api/${GAME}/analyze`, body);
    if (view.analysing !== state || current() !== state) return;
    view.values = valueMap(answer.moves);
    view.best = sortByValue(answer.moves)[0] || null;
  } catch (error) {
    if (view.analysing === state) showError(error);
  }
  if (view.analysing === state) {
    view.analysing = null;
    setBusy(el.analysing, null);
    render();
  }
}

async function showHint() {
  const session = game;
  const state = current();
  if (!humansTurn()) return;
  if (view.best) return markHint(itemMove(view.best), valueWords(view.best));
  const chosen = strength();
  if (!chosen) return;
  setBusy(el.hintText, "Looking for your best move…");
  try {
    const body = { ...positionBody(state.position, session.size, session.k), ...searchParams(chosen) };
    const reply = await api(`/api/${GAME}/move`, body);
    if (game === session && current() === state) markHint(reply.best_move, viewText(reply));
  } catch (error) {
    el.hintText.hidden = true;
    showError(error);
  }
}

function markHint(move, value) {
  view.hint = move;
  if (move.shape) view.shape = move.shape; // the hint is a whole move: pick its shape too
  el.hintText.hidden = false;
  el.hintText.replaceChildren("Hint: ", h("strong", { "data-move": moveKey(move) }, moveTitle(move)), `: ${value}`);
  render();
}

// ---------------------------------------------------------------- drawing

function render() {
  renderBoard();
  renderStatus();
  renderBanner();
  renderButtons();
  renderShapes();
  renderMoves();
  renderPv();
}

function renderBoard() {
  const state = current();
  if (!state) return el.board.replaceChildren(h("p", { class: "muted" }, "No board yet."));
  const previous = game.states.length > 1 ? game.states[game.states.length - 2] : null;
  drawBoard(el.board, state, {
    onMove: humanMove,
    enabled: humansTurn(),
    preview: { player: game.human, shape: view.shape },
    values: view.overlay ? view.values : null,
    marked: view.hint ? new Set([moveKey(view.hint)]) : null,
    last: changedCell(previous, state),
    shapeKey: view.shape,
  });
}

function youPlay() {
  return `you play ${sideLabel(GAME, game.human)}`;
}

function renderStatus() {
  const state = current();
  setBusy(el.thinking, game && game.thinking ? "The engine is thinking…" : null);
  let text = "Setting up the board…";
  if (state && state.outcome) text = "Game over.";
  else if (state && game.thinking) text = `Engine's turn (${youPlay()}).`;
  else if (state && game.failed) text = "The engine could not move (see the message): try again, choose a lower strength, or Undo.";
  else if (state) text = `Your move: ${youPlay()}.`;
  el.status.textContent = text;
  el.status.dataset.state = statusKey(state);
}

/** Whose turn it is, for styling and for tests: loading, over, engine, failed or human. */
function statusKey(state) {
  if (!state) return "loading";
  if (state.outcome) return "over";
  if (state.to_move_number === game.human) return "human";
  return game.failed ? "failed" : "engine";
}

function renderBanner() {
  const state = current();
  const outcome = state && state.outcome;
  el.result.hidden = !outcome;
  if (!outcome) return;
  const who = outcome.winner === null ? "draw" : outcome.winner === game.human ? "human" : "engine";
  const titles = { draw: "Draw", human: "You win!", engine: "The engine wins" };
  el.result.dataset.result = who;
  el.result.className = `banner banner-${who}`;
  $(".banner-title", el.result).textContent = titles[who];
  $(".banner-reason", el.result).textContent = `— ${outcome.reason}.`;
}

function renderButtons() {
  el.undo.disabled = !canUndo();
  el.hint.disabled = !humansTurn();
  el.retry.hidden = statusKey(current()) !== "failed";
}

/** The shapes the human can play (where the state counts pieces by shape). */
function renderShapes() {
  if (!game) return;
  view.shape = drawShapePicker(el.shapePicker, current(), game.human, view.shape);
}

function renderMoves() {
  if (!game) return;
  el.moveList.replaceChildren(
    ...game.moves.map((move, index) => {
      const mover = game.states[index].to_move_number;
      const who = mover === game.human ? "you" : "engine";
      return h(
        "li",
        { class: `mover-${who}`, "data-move": moveKey(move) },
        h("span", { class: `dot p${mover} dot-${boardStyle(game.states[index])}`, "aria-hidden": "true" }),
        h("span", { class: "move-name" }, moveName(move)),
        h("span", { class: "muted" }, who),
        moveNote(game.notes[index]),
      );
    }),
  );
}

/** The engine's value of its own move in the move list, marked exact, proven or heuristic;
    nothing for the person's moves or a level's (a shallow view that proves nothing). */
function moveNote(reply) {
  if (!reply || reply.level || reply.finished) return null;
  const chip = valueChip(reply);
  chip.classList.add("move-value");
  return [chip, h("span", { class: "value-kind muted" }, valueKind(reply))];
}

function renderPv() {
  const reply = game && game.pv;
  el.pv.hidden = !reply;
  if (!reply) return;
  const line = (reply.pv || []).map(moveName).join(" ");
  if (reply.level) {
    // a level's move: its shallow view, and whether it slipped on purpose
    const slip = reply.slipped ? " — a slip, as this level makes now and then" : "";
    el.pv.replaceChildren(
      "Engine played ",
      h("strong", {}, moveTitle(reply.best_move)),
      ` at level ${reply.level}: its view ${viewText(reply)}, ${reply.depth} plies ahead${slip}.`,
    );
    return;
  }
  const facts = [`depth ${reply.depth}`, `${formatCount(reply.nodes)} nodes`, `${Math.round(reply.time_ms)} ms`];
  el.pv.replaceChildren(
    "Engine played ",
    h("strong", {}, moveTitle(reply.best_move)),
    ` — its view: ${viewText(reply)} (${facts.join(", ")}). `,
    h("span", { class: "muted" }, "Expected line: "),
    h("span", { class: "pv-line" }, line || "—"),
  );
}

function renderSaved() {
  const record = game && game.record;
  if (!record) {
    el.saved.textContent = "Not saved yet: the game is saved from its first move.";
    return;
  }
  el.saved.dataset.moves = String(record.moves.length);
  el.saved.dataset.status = record.status;
  el.saved.replaceChildren(
    `Saved as game #${record.id} (${record.status}) · `,
    h("a", { href: `/games/${record.id}`, id: "saved-link", "data-game-id": record.id }, "replay it"),
  );
}

// ---------------------------------------------------------------- settings and input

function presetValue(size, k) {
  return `${size || ""}|${k === null || k === undefined ? "" : k}`;
}

/** "7 × 6", with k when given ("15 × 15, k=5"): short enough for the settings column (the
    menu's label names the dimensions, "width × height"). */
function sizeLabel(size, k) {
  const kText = k ? `, k=${k}` : "";
  if (!INFO.size || !size) return INFO.board ? `${INFO.board.cols} × ${INFO.board.rows}${kText}` : `its board${kText}`;
  return `${size.replace("x", " × ")}${kText}`;
}

/** Can the human give another size or k (the page has fields for them)? */
const customizable = () => Boolean($("#custom-size-text") || $("#custom-k"));

/** The board menu: the game's default board, the one being played, another size. */
function fillSizes(size, k) {
  const standard = INFO.size ? INFO.size.default : "";
  const options = [h("option", { value: presetValue(standard, null) }, `${sizeLabel(standard, null)}, standard`)];
  const chosen = presetValue(size, k);
  if (chosen !== presetValue(standard, null)) options.push(h("option", { value: chosen }, sizeLabel(size, k)));
  if (customizable()) options.push(h("option", { value: "custom" }, "Other size…"));
  el.size.replaceChildren(...options);
  el.size.value = chosen;
}

function chosenSize() {
  const [size, k] = el.size.value.split("|");
  return { size, k: k ? Number(k) : null };
}

function chosenSide() {
  return Number($("input[name=side]:checked").value);
}

function restart(human = game ? game.human : chosenSide()) {
  const { size, k } = game ? { size: game.size, k: game.k } : chosenSize();
  startGame(size, k, human);
}

function wireSettings() {
  el.size.addEventListener("change", () => {
    el.customSize.hidden = el.size.value !== "custom";
    if (el.size.value === "custom") return;
    const { size, k } = chosenSize();
    startGame(size, k, chosenSide());
  });
  $("#custom-apply").addEventListener("click", async () => {
    const sizeField = $("#custom-size-text");
    const size = sizeField ? sizeField.value.trim().replace("×", "x") : "";
    const kField = $("#custom-k");
    const k = kField && kField.value ? Number(kField.value) : null;
    if (sizeField && !size) {
      return showError(new InputError(`size: write it as ${INFO.size.names.join(" x ")}, such as ${INFO.size.default}`));
    }
    if (await startGame(size, k, chosenSide())) el.customSize.hidden = true;
  });
  for (const radio of $$("input[name=side]")) radio.addEventListener("change", () => restart(chosenSide()));
  el.swap.addEventListener("click", () => {
    const human = game && game.human === 1 ? 2 : 1;
    $(`input[name=side][value="${human}"]`).checked = true;
    restart(human);
  });
  el.newGame.addEventListener("click", () => restart());
  el.retry.addEventListener("click", () => {
    if (!game || !game.failed || game.thinking) return;
    clearError();
    engineMove(game);
  });
  el.undo.addEventListener("click", undo);
  el.hint.addEventListener("click", showHint);
  el.overlay.addEventListener("change", () => {
    view.overlay = el.overlay.checked;
    if (game) refreshOverlay(game);
  });
  $("#strength").addEventListener("change", () => {
    if (!game || !current()) return;
    if (game.failed && !game.thinking && current().to_move_number !== game.human) engineMove(game);
    else if (view.overlay) refreshOverlay(game);
  });
  $("#settings").addEventListener("submit", (event) => event.preventDefault());
}

function wireShapes() {
  el.shapePicker.addEventListener("click", (event) => {
    const button = event.target.closest(".shape-choice");
    if (!button || button.disabled) return;
    view.shape = button.dataset.shape;
    render();
  });
}

/** Digits drop in a column (boards with gravity); a shape's letter chooses the shape. */
function wireKeys() {
  document.addEventListener("keydown", (event) => {
    if (isTyping(event) || event.ctrlKey || event.metaKey || event.altKey) return;
    const state = current();
    if (!state || !state.gravity) return;
    const shape = shapeOfKey(state, event.key);
    if (shape) {
      const button = $(`.shape-choice[data-shape="${shape}"]`, el.shapePicker);
      if (button && !button.disabled) {
        view.shape = shape;
        render();
      }
      return;
    }
    if (!/^[1-9]$/.test(event.key) || !humansTurn()) return;
    const moves = columnMoves(state, Number(event.key));
    const move = moves.find((m) => !m.shape || m.shape === view.shape);
    if (move) {
      event.preventDefault();
      humanMove(move);
    }
  });
}

/** The side choices, each with its name and the look of its pieces. */
function sideLabels() {
  for (const player of [1, 2]) {
    const order = player === 1 ? "moves first" : "moves second";
    $(`#side-${player}-label`).replaceChildren(sidePiece(GAME, player) || "", `${sideLabel(GAME, player)}, ${order}`);
  }
}

function init() {
  const query = queryParams();
  const size = query.size || (INFO.size ? INFO.size.default : "");
  const k = query.k ? Number(query.k) : null;
  const human = query.side === "2" ? 2 : 1;
  $(`input[name=side][value="${human}"]`).checked = true;
  sideLabels();
  fillSizes(size, k);
  wireSettings();
  wireShapes();
  wireKeys();
  startGame(size, k, human);
}

init();
