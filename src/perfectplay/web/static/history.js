/* The history page: an optimal (or fewest-mistakes) move order that reaches a board, with a
   verdict and a step-through player over the boards after every move. */

import {
  $,
  $$,
  api,
  busyRequest,
  changedCell,
  drawBoard,
  gameInfo,
  h,
  moveShort,
  moveTitle,
  pageData,
  queryParams,
  sideLabel,
  stepper,
} from "/static/common.js";
import { PositionEditor } from "/static/editor.js";

const DATA = pageData();
const el = {
  form: $("#history-form"),
  button: $("#reconstruct"),
  working: $("#working"),
  empty: $("#verdict-empty"),
  body: $("#verdict-body"),
  verdict: $("#verdict"),
  histories: $("#histories"),
  mistakes: $("#mistakes"),
  box: $("#steps-box"),
  caption: $("#step-caption"),
  board: $("#step-board"),
  list: $("#step-list"),
};

/** The last reconstruction, with the game and position it is for. */
let result = null;

const editor = new PositionEditor({ root: el.form, board: $("#board"), onChange: boardChanged });
const steps = stepper($("#stepper"), showStep);

function boardChanged() {
  if (result && (result.position !== editor.body().position || result.game !== editor.game)) {
    result = null;
    render();
  }
}

async function reconstruct(event) {
  event.preventDefault();
  await editor.settle();
  const game = editor.game;
  const body = { ...editor.body(), notion: $("input[name=notion]:checked").value };
  // the previous board's verdict goes as the new request starts: an error (a timeout) must
  // never sit next to an answer for another board
  result = null;
  render();
  const answer = await busyRequest(el.button, el.working, "Reconstructing…", () =>
    api(`/api/${game}/history`, body),
  );
  result = answer && { ...answer, game, position: body.position };
  render();
}

function render() {
  el.empty.hidden = Boolean(result);
  el.body.hidden = !result;
  el.box.hidden = !result;
  if (!result) return;
  renderVerdict();
  renderStepList();
  steps.set(result.steps.length, 0);
}

function renderVerdict() {
  const yes = result.reachable_optimally;
  el.verdict.className = `verdict ${yes ? "yes" : "no"}`;
  el.verdict.dataset.reachable = String(yes);
  el.verdict.textContent = yes
    ? "Reachable by optimal play: every move of the history below keeps the value."
    : "Not reachable by optimal play: every way to this board contains a mistake.";
  const count = result.optimal_histories;
  el.histories.dataset.count = String(count);
  el.histories.textContent = yes
    ? `${count} optimal ${count === 1 ? "history leads" : "histories lead"} here (${result.notion} notion); one is shown.`
    : `The history shown has the fewest mistakes: ${result.mistakes.length}.`;
  el.mistakes.replaceChildren(
    ...result.mistakes.map((mistake) =>
      h(
        "li",
        { "data-ply": mistake.ply },
        h("button", { type: "button", class: "button small", onclick: () => steps.go(mistake.ply) }, `ply ${mistake.ply}`),
        " ",
        h("strong", {}, moveTitle(mistake.move)),
        `: ${mistake.before} before, ${mistake.after} after`,
      ),
    ),
  );
  if (!result.mistakes.length) el.mistakes.append(h("li", { class: "muted" }, "None."));
}

function renderStepList() {
  el.list.replaceChildren(
    ...result.steps.map((step, index) =>
      h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: step.optimal ? null : "mistake",
            "data-index": index,
            title: step.optimal ? "optimal" : "not optimal",
            onclick: () => steps.go(index),
          },
          index === 0 ? "start" : `${index}. ${moveShort(step.move)}`,
        ),
      ),
    ),
  );
}

function showStep(index) {
  const step = result.steps[index];
  const before = index > 0 ? result.steps[index - 1] : null;
  const board = drawBoard(el.board, step.state, { last: changedCell(before && before.state, step.state) });
  board.dataset.step = String(index);
  if (!step.optimal) $$(".cell.last", board).forEach((cell) => cell.classList.add("mistake"));
  el.board.dataset.optimal = String(step.optimal);
  renderCaption(step, before, index);
  $$("button[data-index]", el.list).forEach((button) => {
    if (Number(button.dataset.index) === index) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  });
}

function renderCaption(step, before, index) {
  if (index === 0) {
    el.caption.replaceChildren("The empty board.");
    return;
  }
  const mover = before.state.to_move_number;
  const mistake = result.mistakes.find((m) => m.ply === step.ply);
  el.caption.replaceChildren(
    `Move ${step.ply}: ${sideLabel(result.game, mover)} plays `,
    h("strong", {}, moveTitle(step.move)),
    " ",
    step.optimal
      ? h("span", { class: "badge good" }, "optimal")
      : h("span", { class: "badge bad" }, mistake ? `mistake: ${mistake.before} → ${mistake.after}` : "not optimal"),
  );
}

function init() {
  el.form.addEventListener("submit", reconstruct);
  const query = queryParams();
  const game = DATA.choices.includes(query.game) ? query.game : DATA.default_game;
  editor.set({ game, size: query.size, k: query.k, position: query.position ?? gameInfo(game).examples[0] });
}

init();
