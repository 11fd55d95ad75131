/* The replay page: a saved game step by step, with the engine's verdict on each move (the
   value of the move played against the best move's, from the position where it was played). */

import {
  $,
  $$,
  api,
  changedCell,
  drawBoard,
  formatDate,
  gameInfo,
  h,
  isMistake,
  itemMove,
  moveKey,
  moveShort,
  moveTitle,
  pageData,
  positionBody,
  setBusy,
  showError,
  sideLabel,
  sortByValue,
  stepper,
  strengthText,
  valueChip,
} from "/static/common.js";

const DATA = pageData();
const el = {
  subtitle: $("#subtitle"),
  replay: $("#replay"),
  caption: $("#step-caption"),
  board: $("#board"),
  list: $("#step-list"),
  analysis: $("#analysis"),
  open: $("#open-analyse"),
  facts: $("#facts"),
};

let record = null;
/** Boards after 0, 1, ... moves (states[0] is the empty board). */
let states = [];
/** Analyses of the positions, by index, once asked for (promises, so each is asked once). */
const analyses = new Map();
const steps = stepper($("#stepper"), showStep);

function body(position) {
  return positionBody(position, record.size, record.k);
}

/** A short search for the replay: the game's own depth, else at most one second (an exact
    search on a board of at most 9 cells, which is instant). */
function limit() {
  const settings = record.settings || {};
  if (settings.strength === "depth") return { depth: settings.depth };
  if (settings.strength === "time") return { time: Math.min(settings.time, 1, DATA.cap) };
  const small = states[0].rows * states[0].cols <= 9;
  return small ? {} : { time: Math.min(1, DATA.cap) };
}

async function load() {
  try {
    record = await api(`/api/games/${DATA.game_id}`);
    el.subtitle.textContent = "Replaying the moves…";
    states = [await api(`/api/${record.game}/state`, body(""))];
    for (const move of record.moves) {
      const last = states[states.length - 1];
      states.push(await api(`/api/${record.game}/play`, { ...body(last.position), move }));
    }
  } catch (error) {
    showError(error);
    el.subtitle.textContent = "This game cannot be shown.";
    return;
  }
  el.replay.hidden = false;
  renderHeader();
  renderStepList();
  steps.set(states.length, 0);
}

function who(side) {
  return record.players[String(side)] === "human" ? "you" : "the engine";
}

function resultText() {
  if (record.status !== "finished") return record.status === "playing" ? "still in progress" : "abandoned";
  if (record.result === "draw") return `a draw (${record.reason})`;
  return `won by ${who(record.result)} (${record.reason})`;
}

function renderHeader() {
  const title = gameInfo(record.game).title;
  el.subtitle.textContent = `${title} ${record.size || ""}${record.k ? `, k=${record.k}` : ""} · ${record.moves.length} moves · ${resultText()}.`;
  const facts = [
    ["Player 1", `${who(1)}: ${sideLabel(record.game, 1)}`],
    ["Player 2", `${who(2)}: ${sideLabel(record.game, 2)}`],
    ["Engine", strengthText(record.settings)],
    ["Status", record.status],
    ["Started", formatDate(record.created_at)],
    ["Updated", formatDate(record.updated_at)],
  ];
  el.facts.replaceChildren(...facts.flatMap(([name, value]) => [h("dt", {}, name), h("dd", {}, value)]));
}

function renderStepList() {
  el.list.replaceChildren(
    h("li", {}, h("button", { type: "button", "data-index": 0, onclick: () => steps.go(0) }, "start")),
    ...record.moves.map((move, index) =>
      h("li", {}, h("button", { type: "button", "data-index": index + 1, onclick: () => steps.go(index + 1) }, `${index + 1}. ${moveShort(move)}`)),
    ),
  );
}

function showStep(index) {
  const state = states[index];
  drawBoard(el.board, state, { last: index ? changedCell(states[index - 1], state) : null });
  el.board.dataset.step = String(index);
  $$("button[data-index]", el.list).forEach((button) => {
    if (Number(button.dataset.index) === index) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  });
  renderCaption(index);
  const query = new URLSearchParams({ game: record.game, position: state.position });
  if (record.size) query.set("size", record.size);
  if (record.k) query.set("k", record.k);
  el.open.href = `/tools/analyze?${query}`;
  showVerdict(index);
}

function renderCaption(index) {
  if (index === 0) {
    el.caption.textContent = "The empty board.";
    return;
  }
  const mover = states[index - 1].to_move_number;
  const outcome = states[index].outcome;
  el.caption.replaceChildren(
    `Move ${index}: ${who(mover)} (${sideLabel(record.game, mover)}) played `,
    h("strong", {}, moveTitle(record.moves[index - 1])),
    outcome ? `. ${outcome.reason}.` : ".",
  );
}

/** The analysis of the position at `index` (asked for once). */
function analysis(index) {
  if (!analyses.has(index)) {
    const request = api(`/api/${record.game}/analyze`, { ...body(states[index].position), ...limit() });
    request.catch(() => analyses.delete(index)); // a failure may be retried on the next visit
    analyses.set(index, request);
  }
  return analyses.get(index);
}

/** Step 0: the best first move. Step i: move i against the best move where it was played. */
async function showVerdict(index) {
  setBusy(el.analysis, "Analysing…");
  el.analysis.dataset.step = String(index);
  el.analysis.removeAttribute("data-ready");
  const at = Math.max(0, index - 1);
  let answer;
  try {
    answer = await analysis(at);
  } catch (error) {
    if (steps.index() === index) {
      showError(error);
      el.analysis.replaceChildren(h("p", { class: "muted" }, "No analysis: see the message above."));
    }
    return;
  }
  if (steps.index() !== index) return; // the reader has moved on
  el.analysis.hidden = false;
  renderVerdict(index, answer);
  el.analysis.dataset.ready = "true";
}

function renderVerdict(index, answer) {
  const ranked = sortByValue(answer.moves);
  const best = ranked[0];
  if (!best) {
    el.analysis.replaceChildren(h("p", {}, "No moves to judge here."));
    return;
  }
  const rows = [["Best", best]];
  let played = null;
  if (index > 0) {
    const key = moveKey(record.moves[index - 1]);
    played = answer.moves.find((item) => moveKey(itemMove(item)) === key);
    rows.unshift(["Played", played]);
  }
  const list = h("dl", { class: "compare" }, rows.flatMap(([name, item]) => [
    h("dt", {}, name),
    h("dd", { "data-role": name.toLowerCase() }, item ? [h("strong", {}, moveTitle(itemMove(item))), " ", valueChip(item)] : "—"),
  ]));
  const heading = index === 0 ? "Before the first move" : `Move ${index}, from the position before it`;
  el.analysis.replaceChildren(h("h3", {}, heading), list, verdictLine(index, played, best, answer));
  markStep(index, played, best);
}

function verdictLine(index, played, best, answer) {
  const note = answer.exact ? "exact values" : "heuristic values: a short search proves nothing";
  if (index === 0) return h("p", { class: "muted" }, `Values for ${sideLabel(record.game, states[0].to_move_number)}; ${note}.`);
  if (isMistake(played, best)) {
    return h("p", { class: "verdict-tag bad", "data-verdict": "mistake" }, `✗ Mistake: ${best.outcome} was there, ${played.outcome} was played. `, h("span", { class: "muted" }, `(${note})`));
  }
  const same = played && moveKey(itemMove(played)) === moveKey(itemMove(best));
  const text = same ? "✓ The best move." : answer.exact ? "✓ Keeps the value." : "No proven mistake.";
  return h("p", { class: "verdict-tag good", "data-verdict": "ok" }, text, " ", h("span", { class: "muted" }, `(${note})`));
}

function markStep(index, played, best) {
  const button = $(`button[data-index="${index}"]`, el.list);
  if (button && index > 0) button.classList.toggle("mistake", isMistake(played, best));
}

load();
