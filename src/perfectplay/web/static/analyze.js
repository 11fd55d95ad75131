/* The analyse page: a position (typed, or set up on the board), the engine's best move and
   the value of every legal move for the side to move. `?game=&position=&size=&k=` prefill
   the form and start the analysis (the replay page links here). */

import {
  $,
  api,
  busyRequest,
  formatCount,
  gameInfo,
  h,
  itemMove,
  moveKey,
  moveLabel,
  moveName,
  moveTitle,
  nameStrongest,
  pageData,
  queryParams,
  setQuery,
  showError,
  sideLabel,
  sortByValue,
  strengthControl,
  strengthParams,
  valueChip,
  valueMap,
  valueTitle,
} from "/static/common.js";
import { PositionEditor } from "/static/editor.js";

const DATA = pageData();
const readStrength = strengthControl($("#strength"), DATA.cap);
const el = {
  info: $("#board-info"),
  busy: $("#analysing"),
  button: $("#analyse-button"),
  empty: $("#results-empty"),
  body: $("#results-body"),
  best: $("#best-move"),
  facts: $("#best-facts"),
  table: $("#moves-table tbody"),
};

/** The last analysis and the position it is for (it is dropped when the board changes). */
let analysis = null;

const editor = new PositionEditor({
  root: $("#analyze-form"),
  board: $("#board"),
  onChange: boardChanged,
  boardOptions: overlay,
});

/** The analysis drawn on the board: every move's value, the best move marked. */
function overlay() {
  if (!analysis) return {};
  const best = analysis.best.best_move;
  return { values: valueMap(analysis.values.moves), marked: best ? new Set([moveKey(best)]) : null };
}

function boardChanged(state) {
  if (state) nameStrongest($("#strength-kind"), state.exact_play !== false);
  if (analysis && (!state || analysis.position !== editor.body().position || analysis.game !== editor.game)) {
    analysis = null;
    renderResults();
    editor.draw();
  }
  renderInfo(state);
}

function renderInfo(state) {
  if (!state) {
    el.info.textContent = "This position cannot be drawn; see the message above.";
    return;
  }
  if (state.outcome) {
    el.info.textContent = `Game over: ${state.outcome.reason}.`;
    return;
  }
  const k = gameInfo(state.game).takes_k ? `, k=${state.k}` : "";
  el.info.textContent = `${sideLabel(state.game, state.to_move_number)} to move · ${state.ply} moves played${state.size ? ` · ${state.size}` : ""}${k}`;
}

async function analyse(event) {
  event.preventDefault();
  await editor.settle();
  let strength;
  try {
    strength = readStrength();
  } catch (error) {
    return showError(error);
  }
  const game = editor.game;
  const body = { ...editor.body(), ...strengthParams(strength) };
  const answers = await busyRequest(el.button, el.busy, "Analysing…", () =>
    Promise.all([api(`/api/${game}/analyze`, body), api(`/api/${game}/move`, body)]),
  );
  analysis = answers && { game, position: body.position, values: answers[0], best: answers[1] };
  if (analysis) setQuery({ game, position: body.position, size: body.size, k: body.k });
  renderResults();
  editor.draw();
}

function renderResults() {
  el.empty.hidden = Boolean(analysis);
  el.body.hidden = !analysis;
  if (!analysis) return;
  // The best move is the table's top, always: the two never disagree (a separate search of
  // the position, with its own time, once named another move than the table's first).
  const top = sortByValue(analysis.values.moves)[0] || null;
  renderBest(top, analysis.best);
  renderTable(analysis.values.moves, top && itemMove(top));
}

function renderBest(top, searched) {
  el.best.replaceChildren();
  for (const key of ["moveKey", "row", "col", "column", "shape"]) delete el.best.dataset[key];
  if (!top) {
    el.best.textContent = "The game is over: there is no move to make.";
    el.facts.replaceChildren();
    return;
  }
  const move = itemMove(top);
  const same = Boolean(searched.best_move) && moveKey(searched.best_move) === moveKey(move);
  const proven = analysis.values.moves.every((item) => item.exact);
  Object.assign(el.best.dataset, { moveKey: moveKey(move), ...move, exact: String(proven) });
  el.best.append(h("strong", { class: "move-name" }, moveTitle(move)), " ", valueChip(top));
  const search = proven
    ? "exact: every value is proven"
    : `heuristic: estimates${same ? `, depth ${searched.depth}` : ""}, not proven — a longer time or a smaller board gives exact values`;
  const facts = [
    ["to move", editor.state ? sideLabel(editor.game, editor.state.to_move_number) : searched.to_move],
    ["search", search],
    ["nodes", formatCount(searched.nodes)],
    ["time", `${Math.round(searched.time_ms)} ms`],
    ["expected line", same ? (searched.pv || []).map(moveName).join(" ") || "—" : "—"],
  ];
  el.facts.replaceChildren(...facts.map(([name, value]) => h("span", {}, `${name}: `, h("strong", {}, value))));
}

function renderTable(moves, best) {
  const bestKey = moveKey(best);
  el.table.replaceChildren(
    ...sortByValue(moves).map((item) => {
      const key = moveKey(itemMove(item));
      return h(
        "tr",
        { "data-move": key, class: key === bestKey ? "is-best" : null, title: valueTitle(item) },
        h("td", {}, moveLabel(itemMove(item))),
        h("td", {}, valueChip(item)),
        h("td", { class: "mono" }, String(item.score)),
      );
    }),
  );
  if (!moves.length) el.table.append(h("tr", {}, h("td", { colspan: 3, class: "muted" }, "No legal moves.")));
}

function init() {
  $("#analyze-form").addEventListener("submit", analyse);
  const query = queryParams();
  const game = DATA.choices.includes(query.game) ? query.game : DATA.default_game;
  editor.set({ game, size: query.size, k: query.k, position: query.position }).then((state) => {
    if (query.position && state) $("#analyze-form").requestSubmit();
  });
}

init();
