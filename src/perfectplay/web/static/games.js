/* The saved-games page: a filtered, paged list with replay links, delete, and JSON export
   and import. The filters live in the address bar too, so a filtered list can be bookmarked. */

import {
  $,
  api,
  clearError,
  InputError,
  h,
  queryParams,
  setQuery,
  shortTitle,
  showError,
  sideLabel,
  strengthText,
} from "/static/common.js";

const PAGE = 20;
const FILTERS = ["game", "status", "result", "human_side", "since", "until"];
const el = {
  form: $("#filters"),
  summary: $("#summary"),
  exportLink: $("#export"),
  importFile: $("#import-file"),
  importResult: $("#import-result"),
  body: $("#games-table tbody"),
  none: $("#no-games"),
  newer: $("#newer"),
  older: $("#older"),
  pageLabel: $("#page-label"),
};

let offset = 0;
/** Only the newest list request may draw (filters can change while one is on its way). */
let listing = null;

/** The filter values as query parameters; "until" is inclusive on the page but exclusive in
    the API, so the day after the chosen date is sent. */
function filters() {
  const found = {};
  for (const name of FILTERS) {
    const value = el.form.elements[name].value;
    if (value) found[name] = value;
  }
  if (found.until) found.until = nextDay(found.until);
  return found;
}

function nextDay(date) {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

function shownFilters() {
  const found = {};
  for (const name of FILTERS) if (el.form.elements[name].value) found[name] = el.form.elements[name].value;
  return found;
}

async function load() {
  const params = new URLSearchParams({ ...filters(), limit: String(PAGE), offset: String(offset) });
  const token = (listing = {});
  el.exportLink.href = `/api/games/export?${new URLSearchParams(filters())}`;
  setQuery({ ...shownFilters(), page: offset ? offset / PAGE + 1 : null });
  try {
    const answer = await api(`/api/games?${params}`);
    if (listing !== token) return;
    render(answer);
  } catch (error) {
    if (listing === token) showError(error);
  }
}

function render({ games, total }) {
  el.body.replaceChildren(...games.map(row));
  el.none.hidden = games.length > 0;
  const first = total ? offset + 1 : 0;
  const last = offset + games.length;
  el.summary.textContent = `${total} saved ${total === 1 ? "game" : "games"}${total ? `, showing ${first}–${last}` : ""}.`;
  el.summary.dataset.total = String(total);
  el.pageLabel.textContent = total ? `page ${Math.floor(offset / PAGE) + 1} of ${Math.ceil(total / PAGE)}` : "";
  el.newer.disabled = offset === 0;
  el.older.disabled = last >= total;
}

/** A timestamp as short local date and time, each kept on one line (the two may wrap apart). */
function shortDate(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso || "—";
  const day = date.toLocaleDateString(undefined, { dateStyle: "short" });
  const time = date.toLocaleTimeString(undefined, { timeStyle: "short" });
  return h("time", { datetime: iso }, h("span", { class: "nowrap" }, day), " ", h("span", { class: "nowrap" }, time));
}

function players(record) {
  const who = (side) => (record.players[side] === "human" ? "You" : "Engine");
  return `${who("1")}: ${sideLabel(record.game, 1)} · ${who("2").toLowerCase()}: ${sideLabel(record.game, 2)}`;
}

function resultText(record) {
  if (record.status === "playing") return "In progress";
  if (record.status === "abandoned") return "Abandoned";
  if (record.result === "draw") return "Draw";
  const winner = record.result;
  if (!winner) return "Finished";
  const kind = record.players[winner] === "human" ? "You won" : "Engine won";
  return `${kind} (${sideLabel(record.game, Number(winner))})`;
}

/** A cell labelled with its column's name (the label shows when a phone lays rows out as cards). */
function cell(label, attrs, ...children) {
  return h("td", { "data-label": label, ...attrs }, ...children);
}

function row(record) {
  const board = `${record.size || ""}${record.k ? `, k=${record.k}` : ""}`;
  return h(
    "tr",
    { "data-id": record.id },
    cell("Game #", { class: "game-id" }, h("a", { href: `/games/${record.id}` }, `#${record.id}`)),
    cell("Game", {}, h("span", { class: "nowrap" }, shortTitle(record.game)), " ", h("span", { class: "muted nowrap" }, board)),
    cell("Players", {}, players(record)),
    cell("Engine", {}, strengthText(record.settings)),
    cell(
      "Result",
      { title: record.reason || "" },
      h("span", { class: `status-pill ${record.status}`, "data-status": record.status }, resultText(record)),
    ),
    cell("Moves", {}, String(record.moves.length)),
    cell("Started", { title: record.created_at }, shortDate(record.created_at)),
    cell("Updated", { title: record.updated_at }, shortDate(record.updated_at)),
    h(
      "td",
      { class: "actions" },
      h(
        "span",
        { class: "row-actions" },
        h("a", { class: "button small replay-link", href: `/games/${record.id}` }, "Replay"),
        h("button", { type: "button", class: "button small danger", "data-delete": record.id, "aria-label": `Delete game ${record.id}` }, "Delete"),
      ),
    ),
  );
}

/** Delete takes two clicks: the first arms the button for a few seconds. */
async function remove(button) {
  if (!button.classList.contains("armed")) {
    button.classList.add("armed");
    button.textContent = "Really delete?";
    setTimeout(() => {
      button.classList.remove("armed");
      button.textContent = "Delete";
    }, 4000);
    return;
  }
  try {
    await api(`/api/games/${button.dataset.delete}`, undefined, "DELETE");
    clearError();
    if (el.body.children.length === 1 && offset > 0) offset -= PAGE;
    load();
  } catch (error) {
    showError(error);
  }
}

async function importFile() {
  const file = el.importFile.files[0];
  if (!file) return;
  el.importResult.hidden = true;
  try {
    let exported;
    try {
      exported = JSON.parse(await file.text());
    } catch (error) {
      throw new InputError(`${file.name}: not a JSON file (${error.message})`);
    }
    const answer = await api("/api/games/import", exported);
    clearError();
    const games = (n) => `${n} ${n === 1 ? "game" : "games"}`;
    const skipped = answer.skipped ? `; skipped ${games(answer.skipped)} already saved` : "";
    el.importResult.textContent = `Imported ${games(answer.imported)} from ${file.name}${skipped}.`;
    el.importResult.dataset.skipped = String(answer.skipped || 0);
    el.importResult.dataset.imported = String(answer.imported);
    el.importResult.hidden = false;
    offset = 0;
    load();
  } catch (error) {
    showError(error);
  } finally {
    el.importFile.value = ""; // the same file may be chosen again
  }
}

function init() {
  const query = queryParams();
  for (const name of FILTERS) if (query[name]) el.form.elements[name].value = query[name];
  offset = query.page ? (Math.max(1, Number(query.page)) - 1) * PAGE || 0 : 0;
  el.form.addEventListener("change", () => {
    offset = 0;
    load();
  });
  el.form.addEventListener("reset", () => setTimeout(() => el.form.dispatchEvent(new Event("change")), 0));
  el.form.addEventListener("submit", (event) => event.preventDefault());
  el.newer.addEventListener("click", () => {
    offset = Math.max(0, offset - PAGE);
    load();
  });
  el.older.addEventListener("click", () => {
    offset += PAGE;
    load();
  });
  el.body.addEventListener("click", (event) => {
    const button = event.target.closest("[data-delete]");
    if (button) remove(button);
  });
  el.importFile.addEventListener("change", importFile);
  load();
}

init();
