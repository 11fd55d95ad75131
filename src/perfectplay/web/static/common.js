/* Shared by every page: calling the JSON API and showing its errors (and, while the engines
   warm up after the server starts, a notice with a spinner; engine requests refused meanwhile
   are asked again after the server's Retry-After), what the server says
   about each game, drawing boards, naming moves and colouring move values, step-through
   controls.

   The pages hold no game rules and no game names: the server says which games there are and
   what they offer (the game objects every page carries in <script id="games-data">, as
   GET /api/meta/games answers them), which moves are legal, where the pieces are and how a
   game ended; the scripts only draw what it answers and send clicks back. Boards are drawn
   from the state alone: a grid of cells (clicks are {row, col} moves) or, with gravity,
   columns (clicks are {column} moves, with the chosen shape where the legal moves of a
   column carry shapes); a piece is its cell's mark, or its shape and colour. */

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

/** An error answer of the API ({"error": {"type", "message"}}) or a failed request;
    retryAfter: the seconds of its Retry-After header (null without one). */
export class ApiError extends Error {
  constructor(kind, message, status, retryAfter = null) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/** Input the page itself refuses before asking the server (a bad number in a field). */
export class InputError extends Error {}

/** Seconds to wait before asking again when a warming refusal names no Retry-After. */
const WARMING_RETRY_S = 5;
/** How long a request refused while the engines warm up is asked again before its error is
    shown (a first start after an install compiles for a few minutes at most). */
const WARMING_GIVE_UP_MS = 10 * 60 * 1000;
/** Longest pause between two looks at /api/health while the engines warm up. */
const WARMING_POLL_S = 3;

const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** Call the API: GET without a body, POST with one (JSON); resolves to the JSON answer and
    rejects with an ApiError carrying the server's own message. A 503 EngineWarming (no
    engine ready yet) is asked again after its Retry-After, with the warming notice shown,
    for WARMING_GIVE_UP_MS at most. */
export async function api(path, body, method) {
  const started = Date.now();
  for (;;) {
    try {
      return await apiOnce(path, body, method);
    } catch (error) {
      const warming = error instanceof ApiError && error.kind === "EngineWarming";
      if (!warming || Date.now() - started > WARMING_GIVE_UP_MS) throw error;
      watchEngines();
      await sleep(error.retryAfter || WARMING_RETRY_S);
    }
  }
}

async function apiOnce(path, body, method) {
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
    const retryAfter = Number(response.headers.get("retry-after")) || null;
    throw new ApiError((error && error.type) || "HTTPError", message, response.status, retryAfter);
  }
  return data;
}

// ---------------------------------------------------------------- the engines' warm-up

let watching = null;

/** Look at /api/health until the engines are ready, showing "the engine is warming up,
    about N s" with a spinner meanwhile (#warming-area); one watch at a time, started on
    every page load and by a request refused while the engines warm up. */
export function watchEngines() {
  if (!watching) watching = pollEngines().finally(() => (watching = null));
  return watching;
}

async function pollEngines() {
  for (;;) {
    let engines = null;
    try {
      const response = await fetch("/api/health");
      engines = (await response.json()).engines || null;
    } catch {
      engines = null; // no answer: nothing to say about the engines
    }
    showWarming(engines);
    if (!engines || engines.ready) return;
    await sleep(Math.min(engines.retry_after_s || WARMING_POLL_S, WARMING_POLL_S));
  }
}

/** Show (engines not ready) or hide the warming notice. */
function showWarming(engines) {
  const area = document.getElementById("warming-area");
  if (area) setBusy(area, engines && !engines.ready ? warmingText(engines) : null);
}

/** "The engine is warming up (compiling gomoku, 2 of 5): about 40 s", from /api/health's
    engines object. */
export function warmingText(engines) {
  let text = "The engine is warming up";
  if (engines.warming) {
    const doing = engines.compiling ? "compiling" : "loading";
    text += ` (${doing} ${engines.warming}, ${engines.step} of ${engines.steps})`;
  }
  if (engines.remaining_s != null && engines.remaining_s > 0) {
    text += `: about ${Math.ceil(engines.remaining_s)} s`;
  } else if (engines.warming) {
    text += `: ${Math.round(engines.elapsed_s)} s so far`;
  }
  return `${text}…`;
}

watchEngines();

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

// ---------------------------------------------------------------- games

let knownGames = null;

/** Every registered game as the server describes it (contract.game_json), by name. */
export function gamesInfo() {
  if (!knownGames) {
    const node = document.getElementById("games-data");
    const list = node ? JSON.parse(node.textContent) : [];
    knownGames = new Map(list.map((game) => [game.name, game]));
  }
  return knownGames;
}

/** One game's description; a stand-in naming it for a game this page does not know. */
export function gameInfo(name) {
  const found = gamesInfo().get(name);
  if (found) return found;
  return { name, title: name, summary: "", size: null, takes_k: false, board_notation: false,
    capabilities: [], examples: [], players: {}, sides: {}, board: null, pieces: {} };
}

/** The title without its parenthetical: "Tic-tac-toe" for "Tic-tac-toe (m,n,k-games)". */
export function shortTitle(name) {
  return gameInfo(name).title.replace(/\s*\(.*\)\s*$/, "");
}

/** How sentences name a side of a game: "x", "player 1 (red, O)". */
export function sideLabel(name, player) {
  return gameInfo(name).sides[String(player)] || `player ${player}`;
}

/** The number (1 or 2) of a side named as `to_move` names it ("x", "1"). */
export function playerNumber(name, playerName) {
  const players = gameInfo(name).players;
  const found = Object.keys(players).find((number) => players[number] === String(playerName));
  return Number(found || playerName);
}

/** Cells of a board: rows x cols. */
export function boardCells(info) {
  return info && info.board ? info.board.rows * info.board.cols : 0;
}

// ---------------------------------------------------------------- positions and moves

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** The fields that name a position in a request body. */
export function positionBody(position, size, k) {
  const body = { position };
  if (size) body.size = size;
  if (k !== null && k !== undefined && k !== "") body.k = Number(k);
  return body;
}

/** Is the move a board cell ({row, col}) or a column ({column}, maybe with a shape)? */
const isCell = (move) => "row" in move && "col" in move;
const isColumn = (move) => "column" in move;

/** The move's own fields as "key=value" pairs, for moves that are neither a cell nor a
    column (a game drawn without a board). */
function otherMove(move) {
  const keys = Object.keys(move);
  if (keys.length === 1 && keys[0] === "move") return String(move.move); // a plain game's text
  return Object.entries(move).map(([key, value]) => `${key}=${value}`).join(" ");
}

/** A key that identifies a move in maps and data attributes: "r2c0", "4", "4O". */
export function moveKey(move) {
  if (!move) return "";
  if (isCell(move)) return `r${move.row}c${move.col}`;
  if (isColumn(move)) return `${move.column}${move.shape || ""}`;
  return otherMove(move);
}

/** Short name: "c3" (column c, row 3 from the top, as the CLI draws boards), "4", "4O". */
export function moveName(move) {
  if (!move) return "";
  if (isCell(move)) return `${LETTERS[move.col - 1] || move.col}${move.row}`; // 1-based
  if (isColumn(move)) return `${move.column}${move.shape || ""}`;
  return otherMove(move);
}

/** Compact name for lists of moves: "c3", "col 4", "4O". */
export function moveShort(move) {
  if (!move) return "";
  return isColumn(move) && !move.shape ? `col ${move.column}` : moveName(move);
}

/** Long name: "c3 (row 3, column 3)", "column 4", "O in column 4". */
export function moveTitle(move) {
  if (!move) return "";
  if (isCell(move)) return `${moveName(move)} (row ${move.row}, column ${move.col})`;
  if (isColumn(move)) return move.shape ? `${move.shape} in column ${move.column}` : `column ${move.column}`;
  return otherMove(move);
}

/** A move for tables: its short name in bold, the long one after it where it adds something. */
export function moveLabel(move) {
  if (!move) return h("span", {}, "—");
  if (isCell(move)) {
    return h("span", { class: "move-label" }, h("strong", {}, moveName(move)), " ",
      h("span", { class: "muted" }, `row ${move.row}, col ${move.col}`));
  }
  if (isColumn(move) && move.shape) {
    return h("span", { class: "move-label" }, h("strong", {}, moveName(move)), " ",
      h("span", { class: "muted" }, moveTitle(move)));
  }
  return h("span", { class: "move-label" }, h("strong", {}, moveTitle(move)));
}

/** A cell's name for screen readers. */
function cellName(state, row, col) {
  if (!state.gravity) return `${LETTERS[col] || col + 1}${row + 1}`;
  return `column ${col + 1}, row ${state.rows - row} from the bottom`;
}

/** The [row, col] where two boards differ (the piece a move added), or null. */
export function changedCell(before, after) {
  if (!before || !after || !before.cells || !after.cells) return null;
  for (let r = 0; r < after.cells.length; r++) {
    for (let c = 0; c < after.cells[r].length; c++) {
      const a = before.cells[r] && before.cells[r][c];
      const b = after.cells[r][c];
      if (JSON.stringify(a) !== JSON.stringify(b)) return [r, c];
    }
  }
  return null;
}

/** The legal moves of a state that drop in `column` (several when pieces have shapes). */
export function columnMoves(state, column) {
  return state.legal.filter((move) => move.column === column);
}

// ---------------------------------------------------------------- move values

const OUTCOME_RANK = { win: 2, draw: 1, loss: 0 };

/** CSS class of a value from the mover's side: green win, grey draw, red loss, neutral for
    a heuristic score (it proves nothing). */
export function valueClass(item) {
  return { win: "val-win", draw: "val-draw", loss: "val-loss" }[item && item.outcome] || "val-heur";
}

/** A proved win or loss whose distance is an upper bound (a threat-space proof on a big
    board: outcome win or loss, plies a bound, not exact; see the JSON contract). */
function bounded(item) {
  return !item.exact && !item.weak && (item.outcome === "win" || item.outcome === "loss");
}

/** The largest heuristic score (values.HEURISTIC_LIMIT): an evaluation that saturated, a
    threat it sees on the board, not a proof; never shown as the bare number. */
const HEURISTIC_LIMIT = 99999;

/** The winner's moves within a bound of `plies` plies (the mover's when it wins, the
    opponent's when it loses: they make every other ply, the last one included). */
function attackMoves(item) {
  return Math.ceil(Number(item.plies) / 2);
}

const movesText = (count) => `${count} move${count === 1 ? "" : "s"}`;

/** A value as short as a board's chip holds: "win in 3", "draw", "loss in 4"; a proved win
    or loss within a bound, "forced win, ≤ 4 moves" (the winner's moves); a heuristic
    score as "≈+12" or "≈0": an estimate, never mistaken for a proven draw (never "-0"), and
    a saturated one as "≈ winning attack" / "≈ losing to an attack", never as 99999. */
export function valueText(item) {
  if (!item) return "";
  if (item.exact && item.outcome) return item.value;
  if (bounded(item)) return `forced ${item.outcome}, ≤ ${movesText(attackMoves(item))}`;
  const score = Number(item.score);
  if (!Number.isFinite(score) || score === 0) return "≈0";
  if (Math.abs(score) >= HEURISTIC_LIMIT) return score > 0 ? "≈ winning attack" : "≈ losing to an attack";
  return score > 0 ? `≈+${score}` : `≈${score}`;
}

/** How sure a value is: "exact", "proven" (a forced win or loss within a bound), "weak"
    (the outcome alone, exact) or "heuristic" (an estimate). */
export function valueKind(item) {
  if (!item) return "heuristic";
  if (item.weak) return "weak";
  if (item.exact) return "exact";
  return bounded(item) ? "proven" : "heuristic";
}

/** Full description, for tooltips and tables: "win in 3 (exact)", "wins by a forcing attack
    in ≤ 4 moves (proven: the game ends within 7 plies)", "≈+12: the engine's estimate, not
    proven (above 0 favours the side to move)". */
export function valueTitle(item) {
  if (item.exact && item.outcome) return `${item.value} (exact)`;
  if (bounded(item)) return `${valueWords(item)}: the game ends within ${item.plies} plies`;
  if (Math.abs(Number(item.score)) >= HEURISTIC_LIMIT) {
    return `${valueText(item)}: the engine's evaluation sees a decisive threat, not proven`;
  }
  return `${valueText(item)}: the engine's estimate, not proven (above 0 favours the side to move)`;
}

/** A value in words with how sure it is: "win in 3 (exact)", "wins by a forcing attack in
    at most 4 moves (proven)", "≈+12 (heuristic)". */
export function valueWords(item) {
  if (!item) return "";
  if (item.weak) return `${item.outcome} (weak solve)`;
  if (bounded(item)) {
    const verb = item.outcome === "win" ? "wins by" : "loses to";
    return `${verb} a forcing attack in at most ${movesText(attackMoves(item))} (proven)`;
  }
  return `${valueText(item)} (${valueKind(item)})`;
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

/** The move of an analysis item: its fields without the value fields. */
const VALUE_FIELDS = new Set(["outcome", "plies", "score", "value", "exact", "weak"]);
export function itemMove(item) {
  return Object.fromEntries(Object.entries(item).filter(([key]) => !VALUE_FIELDS.has(key)));
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
      "data-kind": valueKind(item),
    },
    prefix ? h("b", { class: "val-shape" }, prefix) : null,
    valueText(item),
  );
}

// ---------------------------------------------------------------- engine strength

/** Request fields of a strength: {} (perfect: exact within the server's cap), {depth},
    {time}, or {level} (a strength a person can beat; the engine's move only). */
export function strengthParams(strength) {
  if (strength.kind === "depth") return { depth: strength.depth };
  if (strength.kind === "time") return { time: strength.time };
  if (strength.kind === "level") return { level: strength.level };
  return {};
}

/** Request fields for analysing the person's moves or a hint: a level's shallow, slipping
    search is for the engine's own moves only, so the person is helped by the exact search. */
export function searchParams(strength) {
  return strength.kind === "level" ? {} : strengthParams(strength);
}

/** The settings stored with a saved game. */
export function strengthSettings(strength) {
  if (strength.kind === "depth") return { strength: "depth", depth: strength.depth };
  if (strength.kind === "time") return { strength: "time", time: strength.time };
  if (strength.kind === "level") return { strength: "level", level: strength.level };
  return { strength: "perfect" };
}

/** "perfect", "depth 4", "0.5 s", "level casual" for stored settings (or a strength). */
export function strengthText(settings) {
  const kind = settings && (settings.strength || settings.kind);
  if (kind === "depth") return `depth ${settings.depth}`;
  if (kind === "time") return `${settings.time} s`;
  if (kind === "level") return `level ${settings.level}`;
  return kind === "perfect" ? "perfect" : "—";
}

/** Name the strongest setting of a strength menu (template macro `strength_control`) for a
    board: "Perfect (exact, N s cap)" where perfect play is exact for a whole game (the state
    answer's `exact_play`), else "Strongest (exact where reachable)". */
export function nameStrongest(select, exact) {
  const option = $('option[value="perfect"]', select);
  const { exactName, reachName } = option.dataset;
  option.textContent = exact ? exactName : reachName;
  option.dataset.exact = String(exact);
}

/** Wire a strength control (template macro `strength_control`): the number field follows the
    chosen kind. Returns a reader that throws an Error naming a bad number. */
export function strengthControl(root, cap) {
  const kind = $("select", root);
  const amount = $("input", root);
  const unit = $(".strength-unit", root);
  const remembered = { depth: amount.dataset.depth || "4", time: amount.dataset.time || "1" };
  let shown = null; // the kind the number field holds a value for (none yet)
  const level = () => kind.selectedOptions[0]?.dataset.level; // a named level: no number
  const sync = () => {
    if (shown === "depth" || shown === "time") remembered[shown] = amount.value;
    shown = kind.value;
    const on = shown === "depth" || shown === "time";
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
    if (level()) return { kind: "level", level: level() };
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

/** How a piece is drawn: "shape" for a cell with a shape (a ring O, a cross X on a square,
    else its letter), "disc" for a mark on a board with gravity, "mark" (x, o, else the
    mark's letter) otherwise. */
export function pieceStyle(cell, gravity) {
  if (cell.shape) return "shape";
  return gravity ? "disc" : "mark";
}

/** The drawing of one piece (a cell of the state, or a ghost {player, shape}), coloured by
    its colour when it has one, else by its player. */
export function pieceNode(cell, gravity, extraClass = "") {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  const style = pieceStyle(cell, gravity);
  const letter = String(cell.shape || cell.mark || "");
  const classes = ["piece", `p${cell.player}`, `piece-${style}`, `shape-${letter}`];
  if (/^[a-z]+$/.test(cell.color || "")) classes.push(`color-${cell.color}`);
  if (extraClass) classes.push(extraClass);
  svg.setAttribute("class", classes.join(" "));
  svg.innerHTML = pieceShape(style, letter); // constant markup, nothing from the user
  if (style !== "disc" && letter && !KNOWN_LETTERS[style].includes(letter)) {
    const text = document.createElementNS(SVG_NS, "text");
    Object.entries({ x: 50, y: 50, class: "letter", "text-anchor": "middle", "dominant-baseline": "central" })
      .forEach(([name, value]) => text.setAttribute(name, value));
    text.textContent = letter;
    svg.append(text);
  }
  return svg;
}

/** The letters drawn as figures; any other mark or shape is drawn as its letter (a disc is
    a disc whatever its mark). */
const KNOWN_LETTERS = { mark: ["x", "o"], shape: ["O", "X"] };

function pieceShape(style, letter) {
  if (style === "mark") {
    if (letter === "x") return '<path d="M24 24L76 76M76 24L24 76" class="stroke"/>';
    return letter === "o" ? '<circle cx="50" cy="50" r="27" class="stroke"/>' : "";
  }
  if (style === "disc") {
    return '<circle cx="50" cy="50" r="44" class="fill"/><circle cx="50" cy="50" r="30" class="rim"/>';
  }
  if (letter === "O") {
    return '<circle cx="50" cy="50" r="44" class="fill"/><circle cx="50" cy="50" r="20" class="hole"/>';
  }
  const square = '<rect x="8" y="8" width="84" height="84" rx="14" class="fill"/>';
  return letter === "X" ? `${square}<path d="M30 30L70 70M70 30L30 70" class="cross"/>` : square;
}

function cellDescription(cell) {
  if (!cell) return "empty";
  if (cell.shape) return `${cell.color || `player ${cell.player}`} ${cell.shape}`;
  return cell.mark ? `${cell.mark} (player ${cell.player})` : `player ${cell.player}`;
}

/** The look of a board's pieces as a CSS class: shapes where the pieces are counted by shape
    (quotas) or have one, else discs with gravity, else marks. */
export function boardStyle(state) {
  const shaped = Boolean(state.quotas) || (state.cells || []).some((row) => row.some((cell) => cell && cell.shape));
  if (shaped) return "shape";
  return state.gravity ? "disc" : "mark";
}

/** A small piece beside a side's name: the game's sample piece of that side. */
export function sidePiece(name, player) {
  const info = gameInfo(name);
  const cell = info.pieces && info.pieces[String(player)];
  if (!cell) return null;
  return pieceNode(cell, Boolean(info.board && info.board.gravity), "side-piece");
}

// ---------------------------------------------------------------- shape picker

/**
 * Fill a shape picker (an element with class "shape-picker") from the quotas of `player`:
 * one button per shape with the pieces left, a spent shape disabled. Returns the shape to
 * play: `chosen`, or the first with pieces left when `chosen` has none. The picker is hidden
 * when the state has no quotas.
 */
export function drawShapePicker(picker, state, player, chosen) {
  const quotas = state && state.quotas && state.quotas[String(player)];
  picker.hidden = !quotas;
  if (!quotas) return chosen;
  const shapes = Object.keys(quotas);
  let shape = shapes.includes(chosen) ? chosen : shapes[0];
  if (quotas[shape] === 0) shape = shapes.find((s) => quotas[s] > 0) || shape;
  const holder = $(".shape-choices", picker) || picker;
  const buttons = shapes.map((s) => {
    const left = quotas[s];
    const button = h(
      "button",
      {
        type: "button",
        class: `shape-choice p${player}`,
        role: "radio",
        "data-shape": s,
        "data-left": left,
        "aria-checked": String(s === shape),
        "aria-label": `${s}: ${left} left`,
        disabled: left === 0,
      },
      h("span", { class: "shape-icon", "aria-hidden": "true" }, pieceNode({ player, shape: s }, true)),
      ` ${s} `,
      h("span", { class: "quota", "data-quota": s }, `${left} left`),
    );
    return button;
  });
  holder.replaceChildren(...buttons);
  return shape;
}

/** The shape a key press names in the state's quotas ("o" -> "O"), or null. */
export function shapeOfKey(state, key) {
  if (!state || !state.quotas) return null;
  const shapes = Object.keys(Object.values(state.quotas)[0] || {});
  return shapes.find((shape) => shape.toLowerCase() === key.toLowerCase()) || null;
}

// ---------------------------------------------------------------- boards

/**
 * Draw `state` (a board answer of the API) into `container`.
 *
 * opts:
 *   onMove(move)  make the board clickable: a cell ({row, col}) or, with gravity, a column
 *                 ({column}, with shapeKey's shape where the column's moves have shapes)
 *                 calls it with the move; only legal moves are offered
 *   enabled       false to show the board without taking clicks (default true)
 *   preview       {player, shape}: the ghost piece shown where a hovered column would land
 *   values        Map moveKey -> analysis item: values drawn on the moves (overlay)
 *   marked        Set of moveKeys to highlight (hint, best move)
 *   last          [row, col] of the last move's piece
 *   small         a thumbnail (game tree): no coordinates, no buttons
 *   shapeKey      where pieces have shapes: which shape a column click plays
 *   editAll       every grid cell is clickable, filled or not (position editor)
 */
export function drawBoard(container, state, opts = {}) {
  let board;
  if (!state.cells) board = moveChoices(state, opts);
  else board = state.gravity ? connectBoard(state, opts) : gridBoard(state, opts);
  container.replaceChildren(board);
  return board;
}

/** A game without a board view: its legal moves as buttons, in the server's order, each
    with its value when the overlay is on (the moves played are in the page's move list). */
function moveChoices(state, opts) {
  const classes = ["board", "board-moves"];
  if (opts.small) classes.push("small");
  if (state.outcome) classes.push("over");
  const box = h("div", {
    class: classes.join(" "),
    role: "group",
    "aria-label": "Legal moves",
    "data-game": state.game,
    "data-position": state.position,
    "data-to-move": state.to_move_number,
  });
  if (opts.small) return box;
  const interactive = Boolean(opts.onMove) && opts.enabled !== false;
  if (state.outcome || !state.legal.length) box.append(h("p", { class: "muted" }, "No moves left: the game is over."));
  else box.append(h("p", { class: "muted moves-title" }, "Legal moves:"));
  for (const move of state.outcome ? [] : state.legal) {
    const key = moveKey(move);
    const marked = opts.marked && opts.marked.has(key);
    const button = h("button", {
      type: "button",
      class: marked ? "move-choice hint" : "move-choice",
      "data-move": key,
      disabled: !interactive,
    }, h("span", { class: "move-text" }, moveName(move)));
    const item = opts.values && opts.values.get(key);
    if (item) button.append(" ", valueChip(item));
    if (interactive) button.addEventListener("click", () => opts.onMove(move));
    box.append(button);
  }
  return box;
}

function boardFrame(state, opts, kind) {
  const classes = ["board", kind, `board-${boardStyle(state)}`];
  if (opts.small) classes.push("small");
  if (state.outcome) classes.push("over");
  return h("div", {
    class: classes.join(" "),
    style: `--rows:${state.rows};--cols:${state.cols}`,
    role: "group",
    "aria-label": `${state.rows} by ${state.cols} board`,
    "data-game": state.game,
    "data-position": state.position,
    "data-to-move": state.to_move_number,
  });
}

function lineCells(state) {
  const line = (state.outcome && state.outcome.line) || [];
  return new Set(line.map(([r, c]) => `${r},${c}`));
}

/** Without gravity: a grid of cell buttons with the CLI's coordinates (a, b, c / 1, 2, 3). */
function gridBoard(state, opts) {
  const board = boardFrame(state, opts, "board-grid");
  const legal = new Set(state.legal.map(moveKey));
  const winning = lineCells(state);
  const interactive = Boolean(opts.onMove) && !opts.small;
  if (!opts.small) {
    board.append(h("span", { class: "coord corner", "aria-hidden": "true" }));
    for (let c = 0; c < state.cols; c++) board.append(h("span", { class: "coord", "aria-hidden": "true" }, LETTERS[c] || c + 1));
  }
  state.cells.forEach((row, r) => {
    if (!opts.small) board.append(h("span", { class: "coord", "aria-hidden": "true" }, r + 1));
    row.forEach((cell, c) => board.append(gridCell(state, opts, { r, c, cell, legal, winning, interactive })));
  });
  return board;
}

function gridCell(state, opts, { r, c, cell, legal, winning, interactive }) {
  const move = { row: r + 1, col: c + 1 }; // moves count from 1; r and c index the grid
  const key = moveKey(move);
  const isLegal = legal.has(key);
  const classes = ["cell"];
  if (winning.has(`${r},${c}`)) classes.push("win");
  if (opts.last && opts.last[0] === r && opts.last[1] === c) classes.push("last");
  if (opts.marked && opts.marked.has(key)) classes.push("hint");
  const label = `${cellName(state, r, c)}: ${cellDescription(cell)}`;
  const attrs = { class: classes.join(" "), "data-row": r, "data-col": c, "aria-label": label };
  let node;
  if (interactive) {
    const enabled = (isLegal || Boolean(opts.editAll)) && opts.enabled !== false;
    node = h("button", { ...attrs, type: "button", disabled: !enabled, "data-legal": isLegal });
    if (enabled) node.addEventListener("click", () => opts.onMove(move));
  } else {
    node = h("div", { ...attrs, role: "img" });
  }
  if (cell) node.append(pieceNode(cell, false));
  const item = opts.values && opts.values.get(key);
  if (item && !cell) {
    node.classList.add("has-val");
    node.append(valueChip(item));
  }
  return node;
}

/** With gravity: a row of column buttons above the slots (digits 1-9 click them); any
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
    "aria-label": `${cellName(state, r, c)}: ${cellDescription(cell)}`,
  });
  if (cell) node.append(pieceNode(cell, true));
  return node;
}

function columnHeads(state, opts, legalColumns, interactive) {
  const heads = h("div", { class: "heads" });
  for (let c = 1; c <= state.cols; c++) {
    const legal = legalColumns.has(c);
    const enabled = interactive && legal && opts.enabled !== false;
    const keys = columnMoves(state, c).map(moveKey);
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
      const chip = valueChip(item, item.shape || null);
      if (marked.includes(key)) chip.classList.add("hint");
      return chip;
    });
  return chips.length ? h("span", { class: "vals" }, chips) : null;
}

/** Clicks, hover preview and keyboard focus on the columns of an interactive board. */
function wireColumns(board, state, opts) {
  const play = (column) => {
    const moves = columnMoves(state, column);
    const move = moves.length === 1 && !moves[0].shape ? moves[0] : moves.find((m) => m.shape === opts.shapeKey);
    if (move) opts.onMove(move);
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
  const player = opts.preview.player;
  const sample = gameInfo(state.game).pieces[String(player)];
  const ghost = { ...(sample || {}), player };
  if (boardStyle(state) === "shape") ghost.shape = opts.preview.shape || ghost.shape;
  landing.append(pieceNode(ghost, true, "ghost"));
}

// ---------------------------------------------------------------- step-through controls

/**
 * Wire first/prev/next/last buttons, a slider and the arrow keys (template macro
 * `stepper`) to `onStep(index)`. Returns {set(count, index), index()}. The label counts
 * from `first`: 0 where index 0 is a start (a history's empty board: "3 / 7" is after the
 * third move), 1 where every index is a step of its own (alpha-beta's steps: "5 / 22" is
 * step 5 of 22).
 */
export function stepper(root, onStep, first = 0) {
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
    label.textContent = `${current + first} / ${count - 1 + first}`;
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
  clearError(); // an old error must not stay on top of the new answer
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
