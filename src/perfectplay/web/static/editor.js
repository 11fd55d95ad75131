/* The position editor of the tool pages (analyse, history, tree): game, size, k and the
   position text (macro `position_fields`), with a board drawn from the server's answer.

   Clicking the board edits the position: tic-tac-toe cells cycle empty -> x -> o; a click on
   a column of a connect game appends that move (the server plays it). */

import {
  $,
  $$,
  api,
  clearError,
  drawBoard,
  emptyPosition,
  h,
  moveKey,
  positionBody,
  showError,
} from "/static/common.js";

const CYCLE = { _: "x", x: "o", o: "_" };

/** The position text of a move list, in the CLI notation ("4453", "4O 4X"). */
function movesText(game, moves) {
  if (game === "simplexity") return moves.map((m) => `${m.column}${m.shape}`).join(" ");
  const columns = moves.map((m) => m.column);
  return columns.some((c) => c > 9) ? columns.join(",") : columns.join("");
}

/** A tic-tac-toe board text as rows of "x", "o", "_" (null if it is not one). */
function ticTacToeRows(text) {
  const rows = text.trim().split(/[/\n]/).map((row) => row.trim().toLowerCase().replaceAll(".", "_"));
  if (!rows.length || !rows[0]) return null;
  if (rows.some((row) => row.length !== rows[0].length || /[^xo_]/.test(row))) return null;
  return rows.map((row) => [...row]);
}

/** A drawable stand-in for a tic-tac-toe board the server refused (say, an o too many while
    the user is still clicking), so that the editor keeps working. */
function localTicTacToe(text) {
  const rows = ticTacToeRows(text);
  if (!rows) return null;
  const mark = { x: { player: 1, mark: "x" }, o: { player: 2, mark: "o" }, _: null };
  return {
    game: "tictactoe",
    rows: rows.length,
    cols: rows[0].length,
    gravity: false,
    position: text,
    cells: rows.map((row) => row.map((ch) => mark[ch])),
    legal: [],
    outcome: null,
    invalid: true,
  };
}

export class PositionEditor {
  /**
   * root: the element holding the fields; board: where the board is drawn; sizes: default
   * size per game; onChange(state): after every (re)load, with the board or null.
   */
  constructor({ root, board, sizes, onChange, boardOptions }) {
    this.root = root;
    this.boardHolder = board;
    this.sizes = sizes;
    this.onChange = onChange || (() => {});
    this.boardOptions = boardOptions || (() => ({}));
    this.fields = {
      game: $("[name=game]", root),
      size: $("[name=size]", root),
      k: $("[name=k]", root),
      position: $("[name=position]", root),
    };
    this.state = null;
    this.shape = "O";
    this.loading = null;
    this.timer = null;
    this.wire();
  }

  get game() {
    return this.fields.game.value;
  }

  /** The request fields of the edited position; tic-tac-toe boards carry their own size. */
  body() {
    const game = this.game;
    const size = this.fields.size.value.trim() || this.sizes[game];
    const position = this.fields.position.value.trim() || emptyPosition(game, size);
    return positionBody(position, game === "tictactoe" ? null : size, this.fields.k.value.trim());
  }

  set({ game, size, k, position }) {
    if (game) this.fields.game.value = game;
    this.fields.size.value = size || this.sizes[this.game];
    this.fields.k.value = k || "";
    this.fields.position.value = position ?? emptyPosition(this.game, this.fields.size.value);
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
    this.fields.game.addEventListener("change", () => this.set({ game: this.game }));
    this.fields.size.addEventListener("change", () => this.resize());
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
    const picker = $(".shape-picker", document);
    if (picker) picker.addEventListener("click", (event) => this.pickShape(event));
  }

  /** A new size empties the board (a tic-tac-toe text fixes its own size). */
  resize() {
    this.fields.position.value = emptyPosition(this.game, this.fields.size.value.trim());
    this.load();
  }

  clear() {
    this.fields.position.value = emptyPosition(this.game, this.fields.size.value.trim() || this.sizes[this.game]);
    this.load();
  }

  /** Take back the last move of a move-list position (connect games). */
  back() {
    const moves = this.state && this.state.moves;
    if (!moves || !moves.length) return;
    this.fields.position.value = movesText(this.game, moves.slice(0, -1));
    this.load();
  }

  pickShape(event) {
    const button = event.target.closest(".shape-choice");
    if (!button) return;
    this.shape = button.dataset.shape;
    this.draw();
  }

  /** Show the fields that matter for the chosen game. */
  syncFields() {
    const game = this.game;
    $$("[data-only]", document).forEach((node) => {
      node.hidden = !node.dataset.only.split(" ").includes(game);
    });
    const picker = $(".shape-picker", document);
    if (picker) picker.hidden = game !== "simplexity";
  }

  async load() {
    const body = this.body();
    const token = (this.loading = {});
    this.syncFields();
    try {
      const state = await api(`/api/${this.game}/state`, body);
      if (this.loading !== token) return this.state;
      clearError();
      this.state = state;
      if (state.game === "tictactoe") this.fields.size.value = state.size;
    } catch (error) {
      if (this.loading !== token) return this.state;
      showError(error);
      this.state = null;
    }
    this.draw();
    this.onChange(this.state);
    return this.state;
  }

  draw(extra = {}) {
    const state = this.state || (this.game === "tictactoe" ? localTicTacToe(this.body().position) : null);
    if (!state) {
      this.boardHolder.replaceChildren(h("p", { class: "muted empty" }, "No board to draw for this text."));
      return;
    }
    drawBoard(this.boardHolder, state, {
      onMove: (move) => this.edit(move),
      editAll: state.game === "tictactoe",
      preview: { player: state.to_move_number || 1, shape: this.shape },
      shapeKey: this.shape,
      ...this.boardOptions(),
      ...extra,
    });
    this.updateShapes();
  }

  updateShapes() {
    const picker = $(".shape-picker", document);
    if (!picker || !this.state || !this.state.quotas) return;
    const quotas = this.state.quotas[String(this.state.to_move_number)];
    if (quotas[this.shape] === 0) this.shape = this.shape === "O" ? "X" : "O";
    for (const button of $$(".shape-choice", picker)) {
      const left = quotas[button.dataset.shape];
      button.disabled = left === 0;
      button.setAttribute("aria-checked", String(button.dataset.shape === this.shape));
      $(".quota", button).textContent = `${left} left`;
      button.classList.toggle("p1", this.state.to_move_number === 1);
      button.classList.toggle("p2", this.state.to_move_number === 2);
    }
  }

  /** A click on the board: cycle a tic-tac-toe cell, or play a column of a connect game. */
  async edit(move) {
    if (this.game === "tictactoe") {
      const rows = ticTacToeRows(this.body().position);
      if (!rows) return;
      rows[move.row][move.col] = CYCLE[rows[move.row][move.col]];
      this.fields.position.value = rows.map((row) => row.join("")).join("/");
      return this.load();
    }
    if (!this.state || !this.state.legal.some((legal) => moveKey(legal) === moveKey(move))) return;
    try {
      const next = await api(`/api/${this.game}/play`, { ...this.body(), move });
      this.fields.position.value = next.position;
      clearError();
      this.state = next;
      this.draw();
      this.onChange(next);
    } catch (error) {
      showError(error);
    }
  }
}
