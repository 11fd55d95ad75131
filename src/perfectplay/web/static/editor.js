/* The position editor of the tool pages (analyse, history, tree): game, size, k and the
   position text (macro `position_fields`), with a board drawn from the server's answer.

   What the fields take comes from the game's description (gameInfo: its size rule, k,
   summary and examples). Clicking the board edits the position: on a game whose positions
   are written as boards (board_notation) without gravity, a cell cycles empty -> the first
   side's mark -> the second side's -> empty in the board text; otherwise a click plays that
   move (the server plays it and answers the new position text). */

import {
  $,
  $$,
  api,
  clearError,
  drawBoard,
  drawShapePicker,
  gameInfo,
  h,
  moveKey,
  positionBody,
  showError,
} from "/static/common.js";

/** The rows of a board text ("xo_/_x_/o__" or one row a line), or null when the rows differ
    in length. */
function pictureRows(text) {
  const rows = text.trim().split(/[/\n]/).map((row) => row.trim());
  if (!rows.length || !rows[0] || rows.some((row) => row.length !== rows[0].length)) return null;
  return rows.map((row) => [...row]);
}

/** Is `text` a picture of a board (rows split by "/" or new lines)? A picture carries its
    own size, which the server works out (a Connect Four picture as much as a board text). */
function isPicture(text) {
  return /[/\n]/.test(text.trim()) && pictureRows(text) !== null;
}

/** The marks of the two sides as the game draws them (its sample pieces): ["x", "o"]. */
function sideMarks(info) {
  return ["1", "2"].map((side) => (info.pieces && info.pieces[side] && info.pieces[side].mark) || null);
}

export class PositionEditor {
  /**
   * root: the element holding the fields; board: where the board is drawn; onChange(state):
   * after every (re)load, with the board or null; boardOptions(): extra drawBoard options;
   * onGameChange(game): what choosing another game does (default: its empty board).
   */
  constructor({ root, board, onChange, boardOptions, onGameChange }) {
    this.root = root;
    this.boardHolder = board;
    this.onChange = onChange || (() => {});
    this.boardOptions = boardOptions || (() => ({}));
    this.onGameChange = onGameChange || ((game) => this.set({ game }));
    this.fields = {
      game: $("[name=game]", root),
      size: $("[name=size]", root),
      k: $("[name=k]", root),
      position: $("[name=position]", root),
    };
    this.picker = $(".shape-picker", document);
    this.state = null;
    this.shape = null;
    this.emptyChar = null;
    this.loading = null;
    this.timer = null;
    this.wire();
  }

  get game() {
    return this.fields.game.value;
  }

  /** The chosen game's description (contract.game_json). */
  get info() {
    return gameInfo(this.game);
  }

  /** Are cells edited one by one in the board text (rather than moves played)? */
  get editsCells() {
    const info = this.info;
    return Boolean(info.board_notation && info.board && !info.board.gravity);
  }

  /** The request fields of the edited position; a board text or a picture carries its own
      size (the field then shows the size the server found in it). */
  body() {
    const info = this.info;
    const position = this.fields.position.value.trim();
    const size = this.fields.size.value.trim() || (info.size ? info.size.default : "");
    const sized = info.size && !(position && (info.board_notation || isPicture(position)));
    return positionBody(position, sized ? size : null, info.takes_k ? this.fields.k.value.trim() : null);
  }

  /** Show `position` (the empty board when not given) of `game` on a `size` board. */
  set({ game, size, k, position }) {
    if (game) this.fields.game.value = game;
    const info = this.info;
    this.fields.size.value = size || (info.size ? info.size.default : "");
    this.fields.k.value = k || "";
    this.fields.position.value = position ?? "";
    this.syncFields();
    return this.load();
  }

  /** Load the position now if a typed change is still waiting for its pause, so that an
      action on the page (Analyse, Reconstruct...) sees the board of the text it sends. */
  settle() {
    if (this.timer === null) return Promise.resolve(this.state);
    clearTimeout(this.timer);
    this.timer = null;
    return this.load();
  }

  wire() {
    this.fields.game.addEventListener("change", () => this.onGameChange(this.game));
    this.fields.size.addEventListener("change", () => this.clear());
    this.fields.k.addEventListener("change", () => this.load());
    this.fields.position.addEventListener("input", () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.timer = null;
        this.load();
      }, 350); // wait for a pause in typing
    });
    for (const button of $$("[data-editor]", document)) {
      button.addEventListener("click", () => this[button.dataset.editor]());
    }
    if (this.picker) this.picker.addEventListener("click", (event) => this.pickShape(event));
  }

  /** The empty board (of the size in the field). */
  clear() {
    this.fields.position.value = "";
    this.load();
  }

  /** Take back the last move of a position written as its moves: the server replays the
      others from the start. */
  async back() {
    const state = this.state;
    if (!state || !state.moves || !state.moves.length) return;
    const body = this.body();
    try {
      const next = await api(`/api/${this.game}/replay`, { ...body, position: undefined, moves: state.moves.slice(0, -1) });
      this.fields.position.value = next.position;
      this.show(next);
    } catch (error) {
      showError(error);
    }
  }

  pickShape(event) {
    const button = event.target.closest(".shape-choice");
    if (!button || button.disabled) return;
    this.shape = button.dataset.shape;
    this.draw();
  }

  /** Show the fields and the help the chosen game takes. */
  syncFields() {
    const info = this.info;
    $$("[data-needs=size]", this.root).forEach((node) => (node.hidden = !info.size));
    $$("[data-needs=k]", this.root).forEach((node) => (node.hidden = !info.takes_k));
    const gameHelp = $("#game-help");
    if (gameHelp) gameHelp.textContent = info.summary;
    const sizeHelp = $("#size-help");
    if (sizeHelp) {
      sizeHelp.textContent = info.size
        ? `Size: ${info.size.names.join(" × ")}, columns × rows in every game (${info.size.default} by default).`
        : "";
    }
    this.fields.position.placeholder = (info.examples || []).join(" · ");
  }

  async load() {
    const body = this.body();
    const token = (this.loading = {});
    // What the fields held when asked: an answer must not overwrite what was typed meanwhile.
    const sent = { size: this.fields.size.value, position: this.fields.position.value };
    this.syncFields();
    try {
      const state = await api(`/api/${this.game}/state`, body);
      if (this.loading !== token) return this.state;
      clearError();
      const untouched = (field) => this.fields[field].value === sent[field];
      if (!body.position && state.position && untouched("position")) this.fields.position.value = state.position;
      if (state.size && untouched("size")) this.fields.size.value = state.size;
      this.learnEmpty(state);
      this.state = state;
    } catch (error) {
      if (this.loading !== token) return this.state;
      showError(error);
      this.state = null;
    }
    this.draw();
    this.onChange(this.state);
    return this.state;
  }

  /** Remember the character a board text writes for an empty cell (for cell editing). */
  learnEmpty(state) {
    const rows = state.position && pictureRows(state.position);
    if (!rows || !state.cells || rows.length !== state.cells.length) return;
    state.cells.forEach((row, r) => row.forEach((cell, c) => {
      if (!cell && rows[r][c] !== undefined) this.emptyChar = rows[r][c];
    }));
  }

  /** A drawable stand-in for a board text the server refused (say, an o too many while the
      user is still clicking), so that cell editing keeps working. */
  localBoard() {
    if (!this.editsCells) return null;
    const rows = pictureRows(this.body().position);
    if (!rows) return null;
    const marks = sideMarks(this.info);
    const piece = (ch) => {
      const side = marks.indexOf(ch);
      return side < 0 ? null : { player: side + 1, mark: ch };
    };
    return {
      game: this.game,
      rows: rows.length,
      cols: rows[0].length,
      gravity: false,
      position: this.body().position,
      cells: rows.map((row) => row.map(piece)),
      legal: [],
      outcome: null,
      quotas: null,
      invalid: true,
    };
  }

  /** Show an answer of the server as the edited position. */
  show(state) {
    clearError();
    this.state = state;
    this.draw();
    this.onChange(state);
  }

  draw(extra = {}) {
    const state = this.state || this.localBoard();
    const back = $$("[data-needs=moves]", document);
    back.forEach((node) => (node.hidden = !(this.state && this.state.moves && this.state.moves.length)));
    if (!state) {
      this.boardHolder.replaceChildren(h("p", { class: "muted empty" }, "No board to draw for this text."));
      if (this.picker) this.picker.hidden = true;
      return;
    }
    if (this.picker) this.shape = drawShapePicker(this.picker, this.state, state.to_move_number, this.shape);
    drawBoard(this.boardHolder, state, {
      onMove: (move) => this.edit(move),
      editAll: this.editsCells,
      preview: { player: state.to_move_number || 1, shape: this.shape },
      shapeKey: this.shape,
      ...this.boardOptions(),
      ...extra,
    });
  }

  /** A click on the board: cycle a cell of a board text, or play the move. */
  async edit(move) {
    if (this.editsCells && "row" in move) return this.cycle(move);
    if (!this.state || !this.state.legal.some((legal) => moveKey(legal) === moveKey(move))) return;
    try {
      const next = await api(`/api/${this.game}/play`, { ...this.body(), move });
      this.fields.position.value = next.position;
      this.show(next);
    } catch (error) {
      showError(error);
    }
  }

  /** Cycle one cell of the board text: empty -> first side -> second side -> empty (the
      cell's row and column count from 1, as moves do). */
  cycle(cell) {
    const [row, col] = [cell.row - 1, cell.col - 1];
    const rows = pictureRows(this.body().position);
    if (!rows || !rows[row] || rows[row][col] === undefined) return null;
    const [first, second] = sideMarks(this.info);
    if (!first || !second) return null;
    const text = rows.flat().join("");
    const empty = this.emptyChar || [...text].find((ch) => ch !== first && ch !== second) || "_";
    const current = rows[row][col];
    rows[row][col] = current === first ? second : current === second ? empty : first;
    this.fields.position.value = rows.map((cells) => cells.join("")).join("/");
    return this.load();
  }
}
