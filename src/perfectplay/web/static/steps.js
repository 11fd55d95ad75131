/* The tree page's step-through: alpha-beta's search of the position one event at a time
   (POST /api/{game}/steps): the board of the current node, its alpha and beta, the event in
   words, a cut's reason, and the nodes visited so far against plain minimax's count.
   First/previous/next/last, the slider and the ←/→ keys step; the move order re-asks. */

import { $, api, busyRequest, drawBoard, h, moveShort, stepper } from "/static/common.js";

const KINDS = {
  enter: ["enter", ""],
  leaf: ["leaf", ""],
  return: ["value returns", ""],
  cut: ["✂ cut", "bad"],
  done: ["done", "good"],
};

const el = {
  order: $("#step-order"),
  button: $("#steps-start"),
  working: $("#steps-working"),
  view: $("#steps-view"),
  stepper: $("#step-stepper"),
  board: $("#step-board"),
  kind: $("#step-kind"),
  number: $("#step-number"),
  path: $("#step-path"),
  alpha: $("#step-alpha"),
  beta: $("#step-beta"),
  text: $("#step-text"),
  reason: $("#step-reason"),
  visited: $("#step-visited"),
  total: $("#step-total"),
};

/**
 * Wire the step-through panel. `request()` resolves to {game, body, state}: the game, the
 * request body of the position (with its depth and heuristic choice) and the editor's
 * state (gravity, quotas) for drawing boards. Returns {clear()} to drop stale steps.
 */
export function stepThrough(request) {
  let answer = null;
  const steps = stepper(el.stepper, (index) => show(answer, index), 1); // step 1 is index 0

  async function load() {
    const { game, body, state } = await request();
    const found = await busyRequest(el.button, el.working, "Searching…", () =>
      api(`/api/${game}/steps`, { ...body, order: el.order.value }),
    );
    answer = found && { ...found, game, gravity: Boolean(state.gravity), quotas: state.quotas || null };
    render();
  }

  function render() {
    el.view.hidden = !answer;
    el.stepper.hidden = !answer;
    if (!answer) return;
    const cuts = `${answer.cuts} ${answer.cuts === 1 ? "cut" : "cuts"}`;
    el.visited.dataset.of = el.total.dataset.of = String(answer.minimax_nodes);
    setCount(el.total, answer.visited, `nodes alpha-beta visits in all in this order (${cuts})`);
    el.total.dataset.visited = String(answer.visited);
    steps.set(answer.steps.length, 0);
  }

  el.button.addEventListener("click", load);
  el.order.addEventListener("change", () => {
    if (answer) load();
  });
  el.stepper.hidden = true;
  return {
    clear() {
      answer = null;
      render();
    },
  };
}

function setCount(box, count, text) {
  $("b", box).textContent = `${count} of ${box.dataset.of}`;
  $("span", box).textContent = text;
}

/** Draw step `index` of `answer` (no-op without one). */
function show(answer, index) {
  const step = answer && answer.steps[index];
  if (!step) return;
  const [label, tone] = KINDS[step.kind];
  el.kind.textContent = label;
  el.kind.className = `badge ${tone}`.trim();
  el.kind.dataset.kind = step.kind;
  el.number.textContent = `step ${step.number} of ${answer.steps.length}`;
  el.path.textContent = step.path.length ? step.path.map(moveShort).join(" → ") : "the root";
  el.alpha.textContent = `alpha ${step.alpha}`;
  el.beta.textContent = `beta ${step.beta}`;
  el.text.textContent = step.text;
  el.reason.hidden = !step.reason;
  el.reason.replaceChildren(...(step.reason ? [h("strong", {}, "Why: "), step.reason] : []));
  el.visited.dataset.visited = String(step.visited);
  setCount(el.visited, step.visited, "nodes visited so far, of plain minimax's");
  drawStep(answer, step);
}

function drawStep(answer, step) {
  if (!step.cells) {
    el.board.replaceChildren();
    return;
  }
  drawBoard(el.board, nodeState(answer, step.cells), {});
}

/** A board to draw, not to play on, from the `cells` of a node of a tree or steps answer
    (which carries the game, `gravity` and `quotas`). */
export function nodeState(answer, cells) {
  return {
    game: answer.game,
    rows: cells.length,
    cols: cells[0].length,
    gravity: answer.gravity,
    quotas: answer.quotas,
    cells,
    legal: [],
    outcome: null,
    position: "",
  };
}
