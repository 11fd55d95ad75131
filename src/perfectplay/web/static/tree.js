/* The game-tree page: the nodes below a small position as an outline of thumbnail boards.
   Children are drawn the first time their node is opened, so trees of a few thousand nodes
   stay quick; the root starts open with its children closed. */

import {
  $,
  $$,
  api,
  busyRequest,
  changedCell,
  drawBoard,
  formatCount,
  h,
  moveKey,
  boardCells,
  gameInfo,
  moveShort,
  pageData,
  playerNumber,
  queryParams,
  sideLabel,
} from "/static/common.js";
import { PositionEditor } from "/static/editor.js";
import { nodeState, stepThrough } from "/static/steps.js";

const DATA = pageData();
const el = {
  form: $("#tree-form"),
  depth: $("#depth"),
  heuristic: $("#heuristic"),
  button: $("#build"),
  working: $("#working"),
  box: $("#tree-box"),
  counts: $("#counts"),
  tree: $("#tree"),
};

/** The drawn tree's answer; each list item knows its node through `nodes`. */
let built = null;
const nodes = new WeakMap();

/** The alpha-beta step-through below the form (static/steps.js); its steps go stale
    when the position changes. */
let walkthrough = null;

const editor = new PositionEditor({
  root: el.form,
  board: $("#board"),
  onChange: () => walkthrough?.clear(),
  onGameChange: (game) => startGame(game),
});

/** Boards of more cells than this start with a depth limit: their whole trees explode. */
const SMALL_TREE_CELLS = 9;

/** A newly chosen game starts on its first example, with a depth limit and heuristic values
    at it when its board is large. */
function startGame(game, position, depth) {
  const info = gameInfo(game);
  const large = boardCells(info) > SMALL_TREE_CELLS;
  el.depth.value = depth ?? (large ? "3" : "");
  el.heuristic.checked = large && depth === undefined;
  return editor.set({ game, size: undefined, position: position ?? info.examples[0] });
}


/** The form's position with its depth and leaf rule, as the tree and steps requests take it. */
function positionBody() {
  const body = { ...editor.body(), heuristic: el.heuristic.checked };
  if (el.depth.value.trim() !== "") body.depth = Number(el.depth.value);
  return body;
}

async function build(event) {
  event.preventDefault();
  await editor.settle();
  const game = editor.game;
  const body = { ...positionBody(), alphabeta: $("input[name=algorithm]:checked").value === "alphabeta" };
  const answer = await busyRequest(el.button, el.working, "Building the tree…", () =>
    api(`/api/${game}/tree`, body),
  );
  const state = editor.state || {};
  built = answer && { ...answer, game, gravity: Boolean(state.gravity), quotas: state.quotas || null };
  render();
}

function render() {
  el.box.hidden = !built;
  if (!built) return;
  renderCounts();
  const root = nodeItem(built.root, null, true);
  el.tree.replaceChildren(root);
  setOpen(root, true);
}

function renderCounts() {
  const saved = built.minimax_nodes ? Math.round(100 * (1 - built.visited / built.minimax_nodes)) : 0;
  const counts = [
    ["visited", built.visited, built.alphabeta ? "nodes alpha-beta visited" : "nodes minimax visited"],
    ["minimax", built.minimax_nodes, "nodes plain minimax visits"],
    ["pruned", built.pruned, "branches cut"],
    ["drawn", built.nodes, "nodes in this picture"],
  ];
  el.counts.replaceChildren(
    ...counts.map(([key, value, text]) =>
      h("div", { class: "count", "data-count": key }, h("b", {}, formatCount(value)), h("span", {}, text)),
    ),
  );
  if (built.alphabeta) el.counts.append(h("div", { class: "count" }, h("b", {}, `${saved}%`), h("span", {}, "fewer than minimax")));
}

/** The player who made the move into a node: the one to move at its parent. */
function moverName(parent) {
  return sideLabel(built.game, playerNumber(built.game, parent.to_move));
}

/** Colour of a root-relative value: positive is good for the root player. */
function valueClass(value) {
  if (value === null) return "";
  if (value.startsWith("~")) return "val-heur";
  const number = Number(value.replace("+", ""));
  if (number > 0) return "val-win";
  return number < 0 ? "val-loss" : "val-draw";
}

function valueLabel(node) {
  const sign = { lower: "≥ ", upper: "≤ " }[node.bound] || "";
  return `${sign}${node.value}`;
}

function nodeItem(node, parent, onPv, depth = 0) {
  const li = h("li", { class: `tnode${node.pruned ? " pruned" : ""}${onPv && parent ? " on-pv" : ""}` });
  nodes.set(li, { node, onPv, depth });
  const count = node.children.length;
  const label = parent ? `${moverName(parent)} plays ${moveShort(node.move)}` : `Root: ${rootMover()} to move`;
  const toggle = h("button", {
    type: "button",
    class: "toggle",
    "aria-expanded": "false",
    "aria-label": `${label}: ${count} ${count === 1 ? "child" : "children"}`,
    disabled: count === 0,
  }, "+");
  const row = h("div", {
    class: `node${onPv ? " pv" : ""}${node.pruned ? " pruned" : ""}${parent ? "" : " root"}`,
    "data-depth": depth,
    "data-move": node.move ? moveKey(node.move) : "root",
    "data-pruned": node.pruned,
    "data-children": count,
  }, toggle, thumbnail(node, parent), h("div", { class: "node-text" }, h("span", { class: "node-move" }, label), nodeMeta(node)));
  li.append(row);
  return li;
}

function rootMover() {
  return sideLabel(built.game, playerNumber(built.game, built.to_move));
}

function thumbnail(node, parent) {
  const holder = h("div", { class: "thumb" });
  if (!node.cells) return holder;
  const state = nodeState(built, node.cells);
  drawBoard(holder, state, { small: true, last: parent ? changedCell({ cells: parent.cells }, state) : null });
  return holder;
}

function nodeMeta(node) {
  const parts = [];
  if (node.pruned) parts.push(h("span", { class: "cut", title: "alpha >= beta: this branch was never visited" }, "✂ cut"));
  else parts.push(h("span", { class: `val ${valueClass(node.value)}`, "data-value": node.value, "data-bound": node.bound }, valueLabel(node)));
  if (node.window) parts.push(h("span", { class: "window", title: "alpha-beta window on entry" }, `[${node.window[0]}, ${node.window[1]}]`));
  if (node.terminal) parts.push(h("span", { class: "badge" }, "game over"));
  if (node.horizon) parts.push(h("span", { class: "badge" }, "depth limit"));
  if (node.children.length) parts.push(h("span", {}, `${node.children.length} ${node.children.length === 1 ? "move" : "moves"}`));
  return h("span", { class: "node-meta" }, parts);
}

/** Open or close a node; its children are drawn on the first opening. */
function setOpen(li, open) {
  const { node, onPv, depth } = nodes.get(li);
  if (!node.children.length) return;
  let list = li.querySelector(":scope > ul");
  if (open && !list) {
    const next = built.principal[depth];
    list = h("ul", {}, node.children.map((child) =>
      nodeItem(child, node, onPv && next !== undefined && moveKey(next) === moveKey(child.move), depth + 1)));
    li.append(list);
  }
  if (list) list.hidden = !open;
  const toggle = li.querySelector(":scope > .node > .toggle");
  toggle.setAttribute("aria-expanded", String(open));
  toggle.textContent = open ? "−" : "+";
}

function isOpen(li) {
  const list = li.querySelector(":scope > ul");
  return Boolean(list && !list.hidden);
}

el.tree.addEventListener("click", (event) => {
  const row = event.target.closest(".node");
  if (!row) return;
  const li = row.parentElement;
  setOpen(li, !isOpen(li));
});

/** Open every node, level by level (children appear as their parents open). */
function expandAll() {
  let level = [el.tree.firstElementChild];
  while (level.length) {
    level.forEach((li) => setOpen(li, true));
    level = level.flatMap((li) => $$(":scope > ul > li", li));
  }
}

function collapseAll() {
  $$("li", el.tree).forEach((li) => setOpen(li, false));
  setOpen(el.tree.firstElementChild, true);
}

function showPv() {
  let li = el.tree.firstElementChild;
  while (li) {
    setOpen(li, true);
    li = $$(":scope > ul > li", li).find((child) => nodes.get(child).onPv && child.querySelector(":scope > .node.pv"));
  }
  const last = $$(".node.pv", el.tree).pop();
  if (last) last.scrollIntoView({ block: "nearest" });
}

function init() {
  walkthrough = stepThrough(async () => {
    await editor.settle();
    return { game: editor.game, body: positionBody(), state: editor.state || {} };
  });
  el.form.addEventListener("submit", build);
  $("#expand-all").addEventListener("click", expandAll);
  $("#collapse-all").addEventListener("click", collapseAll);
  $("#show-pv").addEventListener("click", showPv);
  const query = queryParams();
  const game = DATA.choices.includes(query.game) ? query.game : DATA.default_game;
  $("#game").value = game;
  if (query.position === undefined) {
    startGame(game, undefined, query.depth);
    return;
  }
  if (query.depth) el.depth.value = query.depth;
  editor.set({ game, size: query.size, k: query.k, position: query.position });
}

init();
