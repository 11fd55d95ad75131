/* The start page: each game's card shows the board of its first example position, as the
   server drew it (page data `thumbs`: game name -> state, null when there is none). */

import { $$, drawBoard, pageData } from "/static/common.js";

const DATA = pageData();

for (const holder of $$("[data-thumb]")) {
  const state = (DATA.thumbs || {})[holder.dataset.thumb];
  if (!state) continue;
  const box = document.createElement("div");
  box.className = "board-holder";
  holder.append(box);
  drawBoard(box, state, { small: true });
}
