// The page of `ayo serve`. It holds no rule: the server says which holes are legal, what every
// board is after every move and every drop, and what happened; this file only draws it.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { game: null, runs: null, detail: null, step: 0, timer: null, models: [] };

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data;
  try { data = JSON.parse(text); } catch (e) { data = { error: text }; }
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function message(text) { $("message").textContent = text || ""; }

function setBusy(busy) {
  document.body.dataset.busy = busy ? "1" : "0";
}

// ---- drawing a board --------------------------------------------------------------------

// Draws `snap` laid out as `layout` into `el`. `opts.legal`: pit -> [actions]; `opts.mark`:
// pits to highlight; `opts.prior`: pit -> text shown above the pit; `opts.mini`: small cells.
function drawBoard(el, layout, snap, opts = {}) {
  el.innerHTML = "";
  el.classList.toggle("mini", !!opts.mini);
  const side = (player) => {
    const box = document.createElement("div");
    box.className = "store";
    box.dataset.player = player;
    const i = player === "South" ? 0 : 1;
    const [count, what] = layout.store === "none"
      ? [snap.hands ? snap.hands[i] : 0, "in hand"]
      : [snap.stores[i], layout.store];
    box.innerHTML = `<span class="count">${count}</span><small>${player}<br>${what}</small>`;
    return box;
  };
  el.appendChild(side(layout.top));
  const rows = document.createElement("div");
  rows.className = "rows";
  layout.rows.forEach((row, r) => {
    const line = document.createElement("div");
    line.className = "row" + (layout.rows.length === 4 && r === 2 ? " gap" : "");
    for (const cell of row) {
      const b = document.createElement("button");
      b.className = "pit";
      b.dataset.pit = cell.pit;
      const seeds = snap.pits[cell.pit];
      b.innerHTML = `<span class="count">${seeds}</span><small>${cell.label}</small>`;
      b.title = `${cell.row_of}'s ${cell.label}: ${seeds}`;
      if (layout.houses && snap.owners) b.classList.add(snap.owners[cell.pit] === 0 ? "owner-South" : "owner-North");
      const actions = opts.legal ? opts.legal.get(cell.pit) : undefined;
      if (actions) {
        b.classList.add("legal");
        b.title += " — " + actions.map((a) => a.name).join(" / ");
        b.addEventListener("click", () => clickPit(cell.pit));
      } else {
        b.disabled = true;
      }
      if (opts.mark && opts.mark.has(cell.pit)) b.classList.add(opts.markClass || "event");
      if (opts.prior && opts.prior.has(cell.pit)) {
        const p = document.createElement("span");
        p.className = "prior";
        p.textContent = opts.prior.get(cell.pit);
        b.appendChild(p);
      }
      line.appendChild(b);
    }
    rows.appendChild(line);
  });
  el.appendChild(rows);
  el.appendChild(side(layout.bottom));
  if (snap.in_hand) {
    const h = document.createElement("div");
    h.className = "inhand";
    h.textContent = `in hand: ${snap.in_hand}`;
    el.appendChild(h);
  }
  el.dataset.pits = snap.pits.join(",");
  el.dataset.stores = snap.stores.join(",");
}

function eventsHtml(events) {
  return events.map((e) => `<span class="${e.kind}">${escapeHtml(e.text)}</span>`).join("; ");
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

// ---- the game ---------------------------------------------------------------------------

function showGame(view) {
  state.game = view;
  const legal = new Map();
  const loose = [];
  for (const a of view.legal) {
    if (a.pit === null || a.pit === undefined) loose.push(a);
    else {
      if (!legal.has(a.pit)) legal.set(a.pit, []);
      legal.get(a.pit).push(a);
    }
  }
  drawBoard($("board"), view.layout, view.board, { legal });
  $("board").dataset.ply = view.ply;
  $("board").dataset.game = view.id;
  const choices = $("choices");
  choices.innerHTML = "";
  for (const a of loose) choices.appendChild(actionButton(a));
  const who = (p) => `${p} (${view.seats[p === "South" ? 0 : 1].name})`;
  let status;
  if (view.result) status = view.result.text;
  else if (view.review) status = `Review: ${view.variant}, after move ${view.ply} of ${view.plies}` + (view.to_play ? `; ${who(view.to_play)} to move` : "");
  else if (view.to_play) status = `${who(view.to_play)} to move`;
  else status = "Game over";
  const round = view.round ? ` · round ${view.round}` : "";
  // A result's text already gives the final scores.
  const scores = view.result ? "" : ` · South ${view.scores[0]}, North ${view.scores[1]}`;
  $("status").textContent = `${status}${scores}${round}`;
  $("status").dataset.over = view.result ? "1" : "0";
  $("review-nav").hidden = !view.review;
  $("ply-label").textContent = `move ${view.ply} / ${view.plies}`;
  if (view.last.length) {
    $("log").textContent = view.last.map((m) => {
      const value = m.value === null || m.value === undefined ? "" : ` (value ${m.value.toFixed(2)})`;
      return `${m.index}. ${m.mover} plays ${m.name}${value}`;
    }).join(" · ");
  }
  $("download").href = `/api/games/${view.id}/record`;
  for (const id of ["display-runs", "show-detail", "show-analysis"]) $(id).disabled = false;
  document.body.dataset.ready = String(Date.now());
}

function actionButton(a) {
  const b = document.createElement("button");
  b.textContent = a.name;
  b.dataset.action = a.action;
  b.addEventListener("click", () => play(a.action));
  return b;
}

// A click on a pit plays its action; where several actions begin there (Yao's two ways, an
// odu or an opening) the server's names are offered to choose from.
function clickPit(pit) {
  const actions = state.game.legal.filter((a) => a.pit === pit);
  if (actions.length === 0) { message("That hole cannot be played now."); return; }
  if (actions.length === 1) { play(actions[0].action); return; }
  const choices = $("choices");
  choices.innerHTML = "Choose: ";
  for (const a of actions) choices.appendChild(actionButton(a));
  for (const a of state.game.legal.filter((x) => x.pit === null || x.pit === undefined)) choices.appendChild(actionButton(a));
}

async function play(action) {
  if (document.body.dataset.busy === "1") return;
  setBusy(true);
  message("");
  try {
    showGame(await api("POST", `/api/games/${state.game.id}/moves`, { action }));
    await refreshPanels();
  } catch (e) {
    message(e.message);
  } finally {
    setBusy(false);
  }
}

async function newGame() {
  setBusy(true);
  message("");
  try {
    const custom = $("opponent-spec").value.trim();
    const view = await api("POST", "/api/games", {
      variant: $("variant").value,
      options: $("options").value.trim(),
      seat: $("seat").value,
      opponent: custom || $("opponent").value,
      seed: Math.floor(Math.random() * 1e9),
    });
    $("log").textContent = "";
    showGame(view);
    await refreshPanels();
  } catch (e) {
    message(e.message);
  } finally {
    setBusy(false);
  }
}

async function gotoPly(ply) {
  const g = state.game;
  if (!g) return;
  ply = Math.max(0, Math.min(g.plies, ply));
  try {
    showGame(await api("GET", `/api/games/${g.id}?ply=${ply}`));
  } catch (e) { message(e.message); }
}

async function openRecord(file) {
  message("");
  try {
    const text = await file.text();
    const view = await api("POST", "/api/records", text);
    $("log").textContent = `Loaded ${file.name}: ${view.seats[0].name} (South) vs ${view.seats[1].name} (North)`;
    showGame(view);
    await refreshPanels();
  } catch (e) {
    message(`${file.name}: ${e.message}`);
  }
}

// ---- Display Runs / Show Runs in Detail -------------------------------------------------

async function displayRuns() {
  $("runs").hidden = false;
  const runs = await api("GET", `/api/games/${state.game.id}/runs`);
  state.runs = runs;
  const list = $("runs-list");
  list.innerHTML = "";
  const entry = (index, head, snap, events) => {
    const div = document.createElement("div");
    div.className = "run";
    div.dataset.index = index;
    div.innerHTML = `<div class="head">${head}</div>`;
    const b = document.createElement("div");
    b.className = "board";
    drawBoard(b, runs.layout, snap, { mini: true });
    div.appendChild(b);
    const ev = document.createElement("div");
    ev.className = "events";
    ev.innerHTML = eventsHtml(events);
    div.appendChild(ev);
    if (index > 0) div.addEventListener("click", () => showDetail(index));
    list.appendChild(div);
  };
  entry(0, "Start", runs.start, []);
  for (const m of runs.moves) {
    const turn = m.continued ? `${m.turn} (continued)` : `${m.turn}`;
    entry(m.index, `Move ${m.index} · turn ${turn}: ${m.mover} plays ${escapeHtml(m.name)} · ${m.drops} drops`, m.board, m.events);
  }
  list.dataset.count = runs.moves.length;
}

async function showDetail(index) {
  const g = state.game;
  if (!g || g.plies === 0) { message("No move has been played yet."); return; }
  $("detail").hidden = false;
  const select = $("detail-move");
  if (select.options.length !== g.plies) {
    select.innerHTML = "";
    for (let i = 1; i <= g.plies; i++) select.add(new Option(`${i}`, `${i}`));
  }
  index = index || Number(select.value) || g.plies;
  select.value = String(index);
  stopAnimation();
  state.detail = await api("GET", `/api/games/${g.id}/runs/${index}`);
  state.step = 0;
  drawStep();
}

// Step 0 is the board before the move; step k the board after drop k (the last step may be
// the board after the move's end: captures taken, a round ended).
function drawStep() {
  const d = state.detail;
  const k = state.step;
  const n = d.steps.length;
  const snap = k === 0 ? d.before : d.steps[k - 1].board;
  const events = k === 0 ? [] : d.steps[k - 1].events;
  const mark = new Set(events.flatMap((e) => e.pits));
  drawBoard($("detail-board"), d.layout, snap, { mark, mini: false });
  $("detail-board").dataset.step = k;
  $("detail-title").textContent = `Move ${d.index}: ${d.mover} plays ${d.name}`;
  const what = k === 0 ? "before the move" : d.steps[k - 1].end ? "after the move" : `after drop ${k}`;
  $("detail-step").textContent = `${k} / ${n} (${what})`;
  $("detail-events").innerHTML = eventsHtml(events);
}

function stepTo(k) {
  if (!state.detail) return;
  state.step = Math.max(0, Math.min(state.detail.steps.length, k));
  drawStep();
}

function stopAnimation() {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  $("drop-animate").textContent = "Animate";
}

function animate() {
  if (state.timer) { stopAnimation(); return; }
  if (!state.detail) return;
  if (state.step >= state.detail.steps.length) stepTo(0);
  $("drop-animate").textContent = "Stop";
  state.timer = setInterval(() => {
    if (state.step >= state.detail.steps.length) stopAnimation();
    else stepTo(state.step + 1);
  }, 450);
}

async function refreshPanels() {
  if (!$("runs").hidden) await displayRuns();
  if (!$("detail").hidden && state.game.plies > 0) await showDetail(state.game.plies);
}

// ---- Analysis ---------------------------------------------------------------------------

function fillCheckpoints() {
  const select = $("checkpoint");
  const variant = state.game ? state.game.variant : $("variant").value;
  select.innerHTML = "";
  for (const m of state.models) {
    if (!m.variant || m.variant === variant || m.variant.split("@")[0] === variant) select.add(new Option(m.path, m.path));
  }
}

async function analyse() {
  const g = state.game;
  const out = $("analysis-out");
  out.textContent = "thinking…";
  try {
    const a = await api("POST", `/api/games/${g.id}/analysis`, {
      checkpoint: $("checkpoint").value, sims: Number($("sims").value) || 0, ply: g.ply,
    });
    const searched = a.search !== null;
    let html = `<div>${a.to_play} to move · network value <b>${a.value.toFixed(3)}</b>`;
    if (searched) html += ` · search (${a.search.simulations} simulations): <b>${escapeHtml(a.search.name)}</b>, value ${a.search.value.toFixed(3)}`;
    html += ` · ${a.millis.toFixed(0)} ms</div>`;
    // The endgame table's verdict (a server started with --tablebase, oware games).
    const table = a.table && a.table.moves.length ? new Map(a.table.moves.map((m) => [m.action, m])) : null;
    if (a.table) html += `<div class="table-verdict">endgame table: ${escapeHtml(a.table.note)}</div>`;
    html += "<table><tr><th>move</th><th>prior</th>";
    if (searched) html += "<th>visits</th><th>policy</th>";
    if (table) html += "<th>keeps result</th><th>keeps margin</th><th>worth</th>";
    html += "</tr>";
    for (const x of a.actions) {
      html += `<tr data-action="${x.action}"><td>${escapeHtml(x.name)}</td><td>${(100 * x.prior).toFixed(1)}%</td>`;
      if (searched) html += `<td>${x.visits}</td><td>${(100 * x.policy).toFixed(1)}%</td>`;
      const m = table && table.get(x.action);
      if (m) html += `<td>${m.keeps_result ? "yes" : "no"}</td><td>${m.keeps_margin ? "yes" : "no"}</td><td>${m.worth === null ? "?" : (m.worth > 0 ? "+" : "") + m.worth}</td>`;
      html += "</tr>";
    }
    out.innerHTML = html + "</table>";
    out.dataset.done = "1";
    const prior = new Map();
    for (const x of a.actions) if (x.pit !== null) prior.set(x.pit, (prior.has(x.pit) ? prior.get(x.pit) + " " : "") + `${Math.round(100 * x.prior)}%`);
    const legal = new Map();
    for (const x of g.legal) if (x.pit !== null) { if (!legal.has(x.pit)) legal.set(x.pit, []); legal.get(x.pit).push(x); }
    drawBoard($("board"), g.layout, g.board, { legal, prior });
  } catch (e) {
    out.textContent = "";
    message(e.message);
  }
}

// ---- start ------------------------------------------------------------------------------

async function init() {
  const variants = await api("GET", "/api/variants");
  for (const v of variants) $("variant").add(new Option(v.id, v.name));
  $("variant").value = "ayo";
  state.models = await api("GET", "/api/models");
  fillOpponents();
  $("variant").addEventListener("change", fillOpponents);
  $("new-game").addEventListener("click", newGame);
  $("record-file").addEventListener("change", (e) => { if (e.target.files[0]) openRecord(e.target.files[0]); e.target.value = ""; });
  $("display-runs").addEventListener("click", () => displayRuns().catch((e) => message(e.message)));
  $("show-detail").addEventListener("click", () => showDetail(Number($("detail-move").value) || (state.game && state.game.plies)).catch((e) => message(e.message)));
  $("detail-move").addEventListener("change", () => showDetail(Number($("detail-move").value)).catch((e) => message(e.message)));
  $("drop-first").addEventListener("click", () => stepTo(0));
  $("drop-prev").addEventListener("click", () => stepTo(state.step - 1));
  $("drop-next").addEventListener("click", () => stepTo(state.step + 1));
  $("drop-last").addEventListener("click", () => stepTo(Infinity));
  $("drop-animate").addEventListener("click", animate);
  $("first").addEventListener("click", () => gotoPly(0));
  $("prev").addEventListener("click", () => gotoPly(state.game.ply - 1));
  $("next").addEventListener("click", () => gotoPly(state.game.ply + 1));
  $("last").addEventListener("click", () => gotoPly(state.game.plies));
  $("show-analysis").addEventListener("click", () => { $("analysis").hidden = false; fillCheckpoints(); });
  $("analyse").addEventListener("click", analyse);
  for (const b of document.querySelectorAll(".close")) b.addEventListener("click", () => { $(b.dataset.close).hidden = true; stopAnimation(); });
  setBusy(false);
  document.body.dataset.ready = "init";
}

function fillOpponents() {
  const select = $("opponent");
  const variant = $("variant").value;
  select.innerHTML = "";
  for (const spec of ["greedy", "random", "alphabeta:4", "alphabeta:6", "mcts:1000", "human"]) {
    select.add(new Option(spec === "human" ? "a person at this screen" : spec, spec));
  }
  for (const m of state.models) {
    if (m.variant && m.variant.split("@")[0] === variant) select.add(new Option(`${m.path}:32${m.shipped ? " (shipped)" : ""}`, `${m.path}:32`));
  }
}

init().catch((e) => message(e.message));
