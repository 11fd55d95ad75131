/* Shared by every page: calling the JSON API and showing its errors, drawing the boards of
   the three games, naming moves and colouring move values, step-through controls.

   The pages hold no game rules: the server says which moves are legal, where the pieces are
   and how a game ended; the scripts only draw what it answers and send clicks back. */

// ---------------------------------------------------------------- DOM helpers

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/** A new element: h("button", {class: "x", onclick: f, "data-row": 2}, "text", child). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** The JSON the template put in <script id="page-data"> (game, cap, sizes...). */
export function pageData() {
  const node = document.getElementById("page-data");
  return node ? JSON.parse(node.textContent) : {};
}

/** Query-string parameters as a plain object (empty values left out). */
export function queryParams() {
  const found = {};
  for (const [key, value] of new URLSearchParams(location.search)) if (value !== "") found[key] = value;
  return found;
}

/** Rewrite the address bar's query without reloading, so a page can be bookmarked. */
export function setQuery(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== "") search.set(key, value);
  }
  const text = search.toString();
  history.replaceState(null, "", text ? `${location.pathname}?${text}` : location.pathname);
}

// ---------------------------------------------------------------- the API

/** An error answer of the API ({"error": {"type", "message"}}) or a failed request. */
export class ApiError extends Error {
  constructor(kind, message, status) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

/** Input the page itself refuses before asking the server (a bad number in a field). */
export class InputError extends Error {}

/** Call the API: GET without a body, POST with one (JSON); resolves to the JSON answer and
    rejects with an ApiError carrying the server's own message. */
export async function api(path, body, method) {
  const init = { method: method || (body === undefined ? "GET" : "POST"), headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError("NetworkError", "the server did not answer; is it still running?", 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    // an answer that is not JSON (a proxy's error page, say): reported by status below
  }
  if (!response.ok) {
    const error = data && data.error;
    const message = (error && error.message) || `the server answered ${response.status}`;
    throw new ApiError((error && error.type) || "HTTPError", message, response.status);
  }
  return data;
}

/** Split a camel-case error type for people: "NotationError" -> "Notation error". */
function kindText(kind) {
  const words = kind.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Show an error in the page's error area (never a raw dump: the message only). */
export function showError(error) {
  const area = document.getElementById("error-area");
  if (!area) return;
  const expected = error instanceof ApiError || error instanceof InputError;
  const kind = error instanceof ApiError ? error.kind : expected ? "InputError" : "Error";
  if (!expected) console.error(error); // a bug of the page: keep the trace for the console
  area.dataset.kind = kind;
  $(".error-kind", area).textContent = `${kindText(kind)}:`;
  $(".error-message", area).textContent = error.message || String(error);
  area.hidden = false;
}

export function clearError() {
  const area = document.getElementById("error-area");
  if (area) area.hidden = true;
}

document.addEventListener("click", (event) => {
  if (event.target.closest(".error-close")) clearError();
});

// ---------------------------------------------------------------- positions and moves

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** The text of the empty board: tic-tac-toe needs its rows ("___/___/___"), the connect
    games an empty move list. Sizes are "RxC" for tic-tac-toe. */
export function emptyPosition(game, size) {
  if (game !== "tictactoe") return "";
  const [rows, cols] = String(size || "3x3").split("x").map(Number);
  return Array.from({ length: rows || 3 }, () => "_".repeat(cols || 3)).join("/");
}

/** The fields that name a position in a request body. */
export function positionBody(position, size, k) {
  const body = { position };
  if (size) body.size = size;
  if (k !== null && k !== undefined && k !== "") body.k = Number(k);
  return body;
}

/** A key that identifies a move in maps and data attributes: "r2c0", "4", "4O". */
export function moveKey(move) {
  if (!move) return "";
  if ("row" in move) return `r${move.row}c${move.col}`;
  return move.shape ? `${move.column}${move.shape}` : `${move.column}`;
}

/** Short name: "c3" (column c, row 3 from the top, as the CLI draws boards), "4", "4O". */
export function moveName(move) {
  if (!move) return "";
  if ("row" in move) return `${LETTERS[move.col]}${move.row + 1}`;
  return move.shape ? `${move.column}${move.shape}` : `${move.column}`;
}

/** Compact name for lists of moves: "c3", "col 4", "4O". */
export function moveShort(move) {
  if (!move) return "";
  return "row" in move || move.shape ? moveName(move) : `col ${move.column}`;
}

/** Long name: "c3 (row 3, column 3)", "column 4", "O in column 4". */
export function moveTitle(move) {
  if (!move) return "";
  if ("row" in move) return `${moveName(move)} (row ${move.row + 1}, column ${move.col + 1})`;
  return move.shape ? `${move.shape} in column ${move.column}` : `column ${move.column}`;
}

/** A move for tables: its short name in bold, the long one after it where it adds something. */
export function moveLabel(move) {
  if (!move) return h("span", {}, "—");
  if ("row" in move) {
    return h("span", { class: "move-label" }, h("strong", {}, moveName(move)), " ",
      h("span", { class: "muted" }, `row ${move.row + 1}, col ${move.col + 1}`));
  }
  if (move.shape) {
    return h("span", { class: "move-label" }, h("strong", {}, moveName(move)), " ",
      h("span", { class: "muted" }, moveTitle(move)));
  }
  return h("span", { class: "move-label" }, h("strong", {}, moveTitle(move)));
}

/** A cell's name for screen readers. */
function cellName(state, row, col) {
  if (!state.gravity) return `${LETTERS[col]}${row + 1}`;
  return `column ${col + 1}, row ${state.rows - row} from the bottom`;
}

/** Who is who, in the words of each game. */
export function sideName(game, player) {
  const names = {
    tictactoe: { 1: "x", 2: "o" },
    connect4: { 1: "red", 2: "yellow" },
    simplexity: { 1: "red", 2: "blue" },
  };
  return (names[game] || {})[player] || `player ${player}`;
}

/** "player 1 (red)" or "x". */
export function sideLabel(game, player) {
  return game === "tictactoe" ? sideName(game, player) : `player ${player} (${sideName(game, player)})`;
}

/** The [row, col] where two boards differ (the piece a move added), or null. */
export function changedCell(before, after) {
  if (!before || !after) return null;
  for (let r = 0; r < after.cells.length; r++) {
    for (let c = 0; c < after.cells[r].length; c++) {
      const a = before.cells[r] && before.cells[r][c];
      const b = after.cells[r][c];
      if (JSON.stringify(a) !== JSON.stringify(b)) return [r, c];
    }
  }
  return null;
}

// ---------------------------------------------------------------- move values

const OUTCOME_RANK = { win: 2, draw: 1, loss: 0 };

/** CSS class of a value from the mover's side: green win, grey draw, red loss, neutral for
    a heuristic score (it proves nothing). */
export function valueClass(item) {
  return { win: "val-win", draw: "val-draw", loss: "val-loss" }[item && item.outcome] || "val-heur";
}

/** "win in 3", "draw", "loss in 4"; a heuristic score as "+12" (never "-0"). */
export function valueText(item) {
  if (!item) return "";
  if (item.exact && item.outcome) return item.value;
  const score = Number(item.score);
  if (!Number.isFinite(score) || score === 0) return "0";
  return score > 0 ? `+${score}` : `${score}`;
}

/** Full description, for tooltips and tables: "win in 3 (exact)", "+12 (heuristic)". */
export function valueTitle(item) {
  return item.exact && item.outcome ? `${item.value} (exact)` : `${valueText(item)} (heuristic)`;
}

/** Best first for the mover: wins (fastest first), then draws and heuristic scores by
    score, then losses (slowest first). */
export function sortByValue(moves) {
  const rank = (item) => (item.outcome in OUTCOME_RANK ? OUTCOME_RANK[item.outcome] : 1);
  return [...moves].sort((a, b) => rank(b) - rank(a) || Number(b.score) - Number(a.score));
}

/** Is `played` worse than `best` for the mover? Only outcomes count (a slower win is still a
    win); heuristic scores prove nothing, so they never make a mistake. */
export function isMistake(played, best) {
  if (!played || !best || !played.exact || !best.exact) return false;
  return OUTCOME_RANK[played.outcome] < OUTCOME_RANK[best.outcome];
}

/** The move of an analysis item (its move fields without the value fields). */
export function itemMove(item) {
  if ("row" in item) return { row: item.row, col: item.col };
  return item.shape ? { column: item.column, shape: item.shape } : { column: item.column };
}

/** Map of moveKey -> analysis item. */
export function valueMap(moves) {
  return new Map(moves.map((item) => [moveKey(itemMove(item)), item]));
}

/** A coloured chip showing one value. */
export function valueChip(item, prefix) {
  return h(
    "span",
    {
      class: `val ${valueClass(item)}`,
      title: valueTitle(item),
      "data-value": valueText(item),
      "data-outcome": item.outcome || "heuristic",
    },
    prefix ? h("b", { class: "val-shape" }, prefix) : null,
    valueText(item),
  );
}

// ---------------------------------------------------------------- engine strength

/** Request fields of a strength: {} (perfect: exact within the server's cap), {depth}, {time}. */
export function strengthParams(strength) {
  if (strength.kind === "depth") return { depth: strength.depth };
  if (strength.kind === "time") return { time: strength.time };
  return {};
}

/** The settings stored with a saved game. */
export function strengthSettings(strength) {
  if (strength.kind === "depth") return { strength: "depth", depth: strength.depth };
  if (strength.kind === "time") return { strength: "time", time: strength.time };
  return { strength: "perfect" };
}

/** "perfect", "depth 4", "0.5 s" for stored settings (or a strength). */
export function strengthText(settings) {
  const kind = settings && (settings.strength || settings.kind);
  if (kind === "depth") return `depth ${settings.depth}`;
  if (kind === "time") return `${settings.time} s`;
  return kind === "perfect" ? "perfect" : "—";
}

/** Wire a strength control (template macro `strength_control`): the number field follows the
    chosen kind. Returns a reader that throws an Error naming a bad number. */
export function strengthControl(root, cap) {
  const kind = $("select", root);
  const amount = $("input", root);
  const unit = $(".strength-unit", root);
  const remembered = { depth: amount.dataset.depth || "4", time: amount.dataset.time || "1" };
  let shown = null; // the kind the number field holds a value for (none yet)
  const sync = () => {
    if (shown === "depth" || shown === "time") remembered[shown] = amount.value;
    shown = kind.value;
    const on = shown !== "perfect";
    amount.hidden = !on;
    unit.hidden = !on;
    if (!on) return;
    amount.value = remembered[shown];
    amount.step = shown === "time" ? "0.1" : "1";
    amount.min = shown === "time" ? "0.1" : "0";
    amount.max = shown === "time" ? String(cap) : "64";
    unit.textContent = shown === "time" ? `s (max ${cap})` : "plies";
    amount.setAttribute("aria-label", shown === "time" ? "Seconds per move" : "Search depth in plies");
  };
  kind.addEventListener("change", sync);
  sync();
  return () => {
    if (kind.value === "perfect") return { kind: "perfect" };
    const value = Number(amount.value);
    if (kind.value === "depth") {
      if (!Number.isInteger(value) || value < 0 || value > 64) {
        throw new InputError(`depth ${amount.value}: give a whole number of plies from 0 to 64`);
      }
      return { kind: "depth", depth: value };
    }
    if (!(value > 0) || value > cap) {
      throw new InputError(`time ${amount.value}: give seconds above 0 and at most ${cap}`);
    }
    return { kind: "time", time: value };
  };
}

// ---------------------------------------------------------------- pieces

const SVG_NS = "http://www.w3.org/2000/svg";

/** The drawing of one piece: tic-tac-toe's x and o, Connect Four's discs, the shape-and-color
    game's O (a ring) and X (a cross on a square), coloured by player. */
export function pieceNode(game, cell, extraClass = "") {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  const shape = game === "simplexity" ? cell.shape : cell.mark;
  svg.setAttribute("class", `piece p${cell.player} shape-${shape} ${extraClass}`.trim());
  svg.innerHTML = pieceShape(game, cell); // constant markup, nothing from the user
  return svg;
}

function pieceShape(game, cell) {
  if (game === "tictactoe") {
    return cell.mark === "x"
      ? '<path d="M24 24L76 76M76 24L24 76" class="stroke"/>'
      : '<circle cx="50" cy="50" r="27" class="stroke"/>';
  }
  if (game === "connect4") {
    return '<circle cx="50" cy="50" r="44" class="fill"/><circle cx="50" cy="50" r="30" class="rim"/>';
  }
  return cell.shape === "O"
    ? '<circle cx="50" cy="50" r="44" class="fill"/><circle cx="50" cy="50" r="20" class="hole"/>'
    : '<rect x="8" y="8" width="84" height="84" rx="14" class="fill"/>' +
        '<path d="M30 30L70 70M70 30L30 70" class="cross"/>';
}

function cellDescription(game, cell) {
  if (!cell) return "empty";
  if (game === "tictactoe") return cell.mark;
  if (game === "connect4") return sideName(game, cell.player);
  return `${cell.color} ${cell.shape}`;
}

// ---------------------------------------------------------------- boards

/**
 * Draw `state` (a board answer of the API) into `container`.
 *
 * opts:
 *   onMove(move)  make the board clickable: a cell (tic-tac-toe) or a column (connect games)
 *                 calls it with the move; only legal moves are offered
 *   enabled       false to show the board without taking clicks (default true)
 *   preview       {player, shape}: the ghost piece shown where a hovered column would land
 *   values        Map moveKey -> analysis item: values drawn on the moves (overlay)
 *   marked        Set of moveKeys to highlight (hint, best move)
 *   last          [row, col] of the last move's piece
 *   small         a thumbnail (game tree): no coordinates, no buttons
 *   shapeKey      for the shape-and-color game: which shape a column click plays
 *   editAll       every tic-tac-toe cell is clickable, filled or not (position editor)
 */
export function drawBoard(container, state, opts = {}) {
  const board = state.gravity ? connectBoard(state, opts) : gridBoard(state, opts);
  container.replaceChildren(board);
  return board;
}

function boardFrame(state, opts, kind) {
  const classes = ["board", kind, `g-${state.game}`];
  if (opts.small) classes.push("small");
  if (state.outcome) classes.push("over");
  return h("div", {
    class: classes.join(" "),
    style: `--rows:${state.rows};--cols:${state.cols}`,
    role: "group",
    "aria-label": `${state.rows} by ${state.cols} board`,
    "data-position": state.position,
    "data-to-move": state.to_move_number,
  });
}

function lineCells(state) {
  const line = (state.outcome && state.outcome.line) || [];
  return new Set(line.map(([r, c]) => `${r},${c}`));
}

/** Tic-tac-toe: a grid of cell buttons with the CLI's coordinates (a, b, c / 1, 2, 3). */
function gridBoard(state, opts) {
  const board = boardFrame(state, opts, "board-grid");
  const legal = new Set(state.legal.map(moveKey));
  const winning = lineCells(state);
  const interactive = Boolean(opts.onMove) && !opts.small;
  if (!opts.small) {
    board.append(h("span", { class: "coord corner", "aria-hidden": "true" }));
    for (let c = 0; c < state.cols; c++) board.append(h("span", { class: "coord", "aria-hidden": "true" }, LETTERS[c]));
  }
  state.cells.forEach((row, r) => {
    if (!opts.small) board.append(h("span", { class: "coord", "aria-hidden": "true" }, r + 1));
    row.forEach((cell, c) => board.append(gridCell(state, opts, { r, c, cell, legal, winning, interactive })));
  });
  return board;
}

function gridCell(state, opts, { r, c, cell, legal, winning, interactive }) {
  const move = { row: r, col: c };
  const key = moveKey(move);
  const isLegal = legal.has(key);
  const classes = ["cell"];
  if (winning.has(`${r},${c}`)) classes.push("win");
  if (opts.last && opts.last[0] === r && opts.last[1] === c) classes.push("last");
  if (opts.marked && opts.marked.has(key)) classes.push("hint");
  const label = `${cellName(state, r, c)}: ${cellDescription(state.game, cell)}`;
  const attrs = { class: classes.join(" "), "data-row": r, "data-col": c, "aria-label": label };
  let node;
  if (interactive) {
    const enabled = (isLegal || Boolean(opts.editAll)) && opts.enabled !== false;
    node = h("button", { ...attrs, type: "button", disabled: !enabled, "data-legal": isLegal });
    if (enabled) node.addEventListener("click", () => opts.onMove(move));
  } else {
    node = h("div", { ...attrs, role: "img" });
  }
  if (cell) node.append(pieceNode(state.game, cell));
  const item = opts.values && opts.values.get(key);
  if (item && !cell) {
    node.classList.add("has-val");
    node.append(valueChip(item));
  }
  return node;
}

/** Connect games: a row of column buttons above the slots (digits 1-9 click them); any
    slot of a column also drops there, and hovering a column previews where it lands. */
function connectBoard(state, opts) {
  const board = boardFrame(state, opts, "board-connect");
  const interactive = Boolean(opts.onMove) && !opts.small;
  const legalColumns = new Set(state.legal.map((m) => m.column));
  if (!opts.small) board.append(columnHeads(state, opts, legalColumns, interactive));
  const slots = h("div", { class: "slots" });
  const winning = lineCells(state);
  state.cells.forEach((row, r) =>
    row.forEach((cell, c) => slots.append(connectSlot(state, opts, { r, c, cell, winning }))),
  );
  board.append(slots);
  if (interactive && opts.enabled !== false) wireColumns(board, state, opts);
  return board;
}

function connectSlot(state, opts, { r, c, cell, winning }) {
  const classes = ["cell"];
  if (winning.has(`${r},${c}`)) classes.push("win");
  if (opts.last && opts.last[0] === r && opts.last[1] === c) classes.push("last");
  const node = h("div", {
    class: classes.join(" "),
    role: "img",
    "data-row": r,
    "data-col": c,
    "data-column": c + 1,
    "aria-label": `${cellName(state, r, c)}: ${cellDescription(state.game, cell)}`,
  });
  if (cell) node.append(pieceNode(state.game, cell));
  return node;
}

function columnHeads(state, opts, legalColumns, interactive) {
  const heads = h("div", { class: "heads" });
  for (let c = 1; c <= state.cols; c++) {
    const legal = legalColumns.has(c);
    const enabled = interactive && legal && opts.enabled !== false;
    const keys = state.game === "simplexity" ? [`${c}O`, `${c}X`] : [`${c}`];
    const marked = keys.filter((key) => opts.marked && opts.marked.has(key));
    const attrs = {
      class: `col-head${marked.length ? " hint" : ""}`,
      "data-column": c,
      "data-legal": legal,
      "aria-label": legal ? `Drop in column ${c}` : `Column ${c} is full`,
    };
    const head = interactive
      ? h("button", { ...attrs, type: "button", disabled: !enabled })
      : h("div", attrs);
    head.append(h("span", { class: "col-number" }, c));
    const chips = columnValues(state, opts, keys, marked);
    if (chips) head.append(chips);
    heads.append(head);
  }
  return heads;
}

function columnValues(state, opts, keys, marked) {
  if (!opts.values) return null;
  const chips = keys
    .map((key) => [key, opts.values.get(key)])
    .filter(([, item]) => item)
    .map(([key, item]) => {
      const chip = valueChip(item, state.game === "simplexity" ? item.shape : null);
      if (marked.includes(key)) chip.classList.add("hint");
      return chip;
    });
  return chips.length ? h("span", { class: "vals" }, chips) : null;
}

/** Clicks, hover preview and keyboard focus on the columns of an interactive board. */
function wireColumns(board, state, opts) {
  const legalKeys = new Set(state.legal.map(moveKey));
  const play = (column) => {
    const move = { column };
    if (state.game === "simplexity") move.shape = opts.shapeKey || "O";
    if (legalKeys.has(moveKey(move))) opts.onMove(move);
  };
  board.addEventListener("click", (event) => {
    const target = event.target.closest("[data-column]");
    if (target && board.contains(target)) play(Number(target.dataset.column));
  });
  const show = (event) => {
    const target = event.target.closest("[data-column]");
    previewColumn(board, state, opts, target ? Number(target.dataset.column) : null);
  };
  board.addEventListener("mouseover", show);
  board.addEventListener("focusin", show);
  board.addEventListener("mouseleave", () => previewColumn(board, state, opts, null));
  board.addEventListener("focusout", () => previewColumn(board, state, opts, null));
}

/** Highlight a column and put a ghost piece where a drop there would land. */
function previewColumn(board, state, opts, column) {
  $$(".col-hover", board).forEach((node) => node.classList.remove("col-hover"));
  $$(".ghost", board).forEach((node) => node.remove());
  if (column === null) return;
  $$(`[data-column="${column}"]`, board).forEach((node) => node.classList.add("col-hover"));
  const free = $$(`.slots .cell[data-column="${column}"]`, board).filter((node) => !node.querySelector(".piece"));
  const landing = free[free.length - 1];
  if (!landing || !opts.preview) return;
  const ghost = { player: opts.preview.player, mark: opts.preview.player === 1 ? "x" : "o" };
  if (state.game === "simplexity") {
    ghost.shape = opts.preview.shape;
    ghost.color = opts.preview.player === 1 ? "red" : "blue";
  }
  landing.append(pieceNode(state.game, ghost, "ghost"));
}

// ---------------------------------------------------------------- step-through controls

/**
 * Wire first/prev/next/last buttons, a slider and the arrow keys (template macro
 * `stepper`) to `onStep(index)`. Returns {set(count, index), index()}.
 */
export function stepper(root, onStep) {
  const slider = $("input[type=range]", root);
  const label = $(".step-label", root);
  let count = 1;
  let current = 0;
  const go = (index) => {
    const next = Math.max(0, Math.min(count - 1, index));
    if (next === current && slider.value === String(next)) return;
    current = next;
    render();
    onStep(current);
  };
  const render = () => {
    slider.max = String(Math.max(0, count - 1));
    slider.value = String(current);
    label.textContent = `${current} / ${count - 1}`;
    $("[data-step=first]", root).disabled = current === 0;
    $("[data-step=prev]", root).disabled = current === 0;
    $("[data-step=next]", root).disabled = current >= count - 1;
    $("[data-step=last]", root).disabled = current >= count - 1;
  };
  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-step]");
    if (!button) return;
    const moves = { first: () => 0, prev: () => current - 1, next: () => current + 1, last: () => count - 1 };
    go(moves[button.dataset.step]());
  });
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (root.hidden || isTyping(event)) return;
    const keys = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count - 1 };
    if (!(event.key in keys)) return;
    event.preventDefault();
    go(keys[event.key]);
  });
  return {
    set(newCount, index = 0) {
      count = Math.max(1, newCount);
      current = Math.max(0, Math.min(count - 1, index));
      render();
      onStep(current);
    },
    go,
    index: () => current,
  };
}

/** Is the user typing in a field (so that page shortcuts must not fire)? */
export function isTyping(event) {
  const target = event.target;
  if (!target || !target.tagName) return false;
  if (target.isContentEditable) return true;
  if (target.tagName === "TEXTAREA" || target.tagName === "SELECT") return true;
  return target.tagName === "INPUT" && !["range", "checkbox", "radio", "button"].includes(target.type);
}

// ---------------------------------------------------------------- small formatters

/** A saved game's timestamp in the reader's local time. */
export function formatDate(iso) {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** "1.9M", "12.3k", "512". */
export function formatCount(count) {
  if (count >= 1e6) return `${(count / 1e6).toFixed(1)}M`;
  if (count >= 1e4) return `${(count / 1e3).toFixed(1)}k`;
  return String(count);
}

/** Set a busy indicator (a spinner with text) on or off. */
export function setBusy(node, text) {
  node.hidden = !text;
  if (!text) return;
  node.replaceChildren(h("span", { class: "spinner", "aria-hidden": "true" }), h("span", {}, text));
}

/** Run a tool page's request with its button disabled and a busy note shown: the answer of
    request(), or null once its error is shown. */
export async function busyRequest(button, note, text, request) {
  setBusy(note, text);
  button.disabled = true;
  try {
    return await request();
  } catch (error) {
    showError(error);
    return null;
  } finally {
    setBusy(note, null);
    button.disabled = false;
  }
}
