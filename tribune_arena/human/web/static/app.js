"use strict";
// The page of `tribune serve`: a new-game form, then the board, the decision and its choices in words.
// Every change goes through the JSON API (/api/...); the server plays the bots between the person's decisions.

const $ = (sel) => document.querySelector(sel);
let options = null;   // GET /api/options
let state = null;     // the current game's state
let busy = false;

function showError(message) {
  const box = $("#error");
  box.textContent = message || "";
  box.hidden = !message;
}

// The server's key: `tribune serve` prints a link ending in ?key=...; the page keeps it (this browser, this server)
// and sends it with every request that changes a game. It leaves the address bar at once.
const KEY_STORE = `tribune-key:${location.host}`;
(function keepKey() {
  const params = new URLSearchParams(location.search);
  if (params.has("key")) {
    localStorage.setItem(KEY_STORE, params.get("key"));
    params.delete("key");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
  }
})();

async function api(method, url, body) {
  const init = { method, headers: {} };
  const key = localStorage.getItem(KEY_STORE);
  if (method !== "GET" && key) init.headers["X-Tribune-Key"] = key;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: `HTTP ${response.status}` }; }
  if (!response.ok) {
    const err = new Error(data.error || `HTTP ${response.status}`);
    err.status = response.status;
    throw err;
  }
  return data;
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function fillSelect(select, values, chosen) {
  select.replaceChildren();
  for (const [value, label] of values) {
    const option = el("option", label);
    option.value = String(value);
    if (String(value) === String(chosen)) option.selected = true;
    select.append(option);
  }
}

// -- the new-game form ------------------------------------------------------------------

function rules() { return document.querySelector("input[name=rules]:checked").value; }

function refreshForm() {
  const info = options.rules[rules()];
  const players = Number($("#players").value) || 0;
  const counts = info.players;
  const n = counts.includes(players) ? players : (counts.includes(4) ? 4 : counts[0]);
  fillSelect($("#players"), counts.map((c) => [c, String(c)]), n);
  const seats = [...Array(n).keys()];
  fillSelect($("#seat"), seats.map((s) => [s, `P${s}`]), Math.min(Number($("#seat").value) || 0, n - 1));
  fillSelect($("#brutii-seat"), [["", "random"], ...seats.map((s) => [s, `P${s}`])], $("#brutii-seat").value);
  $("#brutii-seat-label").hidden = rules() !== "brutii";
  const cards = info.victory_cards.filter((c) => String(n) in c.required);
  fillSelect($("#victory-card"), [["", "random card"], ...cards.map((c) => [c.id, `${c.title} (${c.length})`])],
    $("#victory-card").value);
  const levels = info.levels;
  const oldLevels = [...$("#opponents").querySelectorAll("select")].map((i) => i.value);
  const oldSpecs = [...$("#specs").querySelectorAll("input")].map((i) => i.value);
  const seat = Number($("#seat").value);
  const levelRows = [];
  const specRows = [];
  let k = 0;
  for (const s of seats) {
    if (s === seat) continue;
    const level = el("select", null, "level");
    level.id = `level-${k}`;
    fillSelect(level, levels.map((l) => [l.id, l.label]),
      levels.some((l) => l.id === oldLevels[k]) ? oldLevels[k] : options.default_level);
    const label = el("label", `P${s} `);
    label.append(level);
    levelRows.push(label);
    const input = el("input", null, "opponent");
    input.setAttribute("list", "agent-names");
    input.value = oldSpecs[k] || "";
    const specLabel = el("label", `P${s} agent spec `);
    specLabel.append(input);
    specRows.push(specLabel);
    k += 1;
  }
  $("#opponents").replaceChildren(...levelRows);
  $("#specs").replaceChildren(...specRows);
  refreshPlaceholders();
}

function refreshPlaceholders() {   // each spec field shows the spec of the level it would replace
  const levels = options.rules[rules()].levels;
  const chosen = [...$("#opponents").querySelectorAll("select")];
  [...$("#specs").querySelectorAll("input")].forEach((input, k) => {
    const level = levels.find((l) => l.id === chosen[k].value);
    input.placeholder = level ? level.spec : "";
  });
}

function opponents() {
  const levels = options.rules[rules()].levels;
  const chosen = [...$("#opponents").querySelectorAll("select")];
  return [...$("#specs").querySelectorAll("input")].map((input, k) =>
    input.value.trim() || levels.find((l) => l.id === chosen[k].value).spec);
}

async function startGame(event) {
  event.preventDefault();
  if (busy) return;
  const body = {
    rules: rules(),
    players: Number($("#players").value),
    seat: Number($("#seat").value),
    opponents: opponents(),
    victory_card: $("#victory-card").value || null,
    point_variant: $("#point-variant").checked,
    round_limit: Number($("#round-limit").value) || options.round_limit,
  };
  if ($("#seed").value !== "") body.seed = Number($("#seed").value);
  if (body.rules === "brutii" && $("#brutii-seat").value !== "") body.brutii_seat = Number($("#brutii-seat").value);
  await guarded(async () => show(await api("POST", "/api/games", body)));
}

function newGame() {
  state = null;
  history.replaceState(null, "", "#");
  $("#game").hidden = true;
  $("#setup").hidden = false;
  $("#new-game-top").hidden = true;
  document.body.dataset.over = "";
  showError("");
  listUnfinished();
}

// -- the unfinished games (kept by the server in its save directory) ---------------------------

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString();
}

async function listUnfinished() {
  let games = [];
  try {
    games = (await api("GET", "/api/games")).unfinished;
  } catch (err) {
    showError(err.message);
  }
  const items = games.map((g) => {
    const item = el("li", `${g.rules} game, round ${g.round} (step ${g.step}): ` +
      g.names.map((n, i) => `P${i} ${n}`).join(", ") + `; last played ${when(g.updated)}`);
    item.dataset.game = g.id;
    const link = el("a", "Resume", "resume");
    link.href = `#game=${g.id}`;
    link.dataset.game = g.id;
    item.append(link);
    return item;
  });
  $("#unfinished-list").replaceChildren(...items);
  $("#unfinished").hidden = !games.length || !$("#game").hidden;
  document.body.dataset.unfinished = String(games.length);
}

async function resume(gameId) {
  await guarded(async () => show(await api("GET", `/api/games/${gameId}`)));
}

async function endGame(how) {
  if (busy || !state) return;
  const question = how === "resign" ? "Resign this game? It ends as your loss and is saved."
    : "Abandon this game? It ends without a result and leaves your list of unfinished games.";
  if (!window.confirm(question)) return;
  await guarded(async () => show(await api("POST", `/api/games/${state.id}/${how}`)));
}

// -- the game ------------------------------------------------------------------------------

async function guarded(fn) {
  busy = true;
  document.body.classList.add("busy");
  try {
    await fn();
    showError("");
  } catch (err) {
    showError(err.message);
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

async function send(body) {
  if (busy || !state) return;
  body.step = state.step;
  await guarded(async () => show(await api("POST", `/api/games/${state.id}/action`, body)));
}

function list(node, lines) {
  node.replaceChildren(...lines.map((line) => el("li", line)));
}

function showBoard(s) {
  const board = $("#board");
  board.innerHTML = s.board;   // the server's SVG drawing: no scripts, no outside references
  const decision = s.decision;
  if (!decision) return;
  for (const choice of decision.choices) {
    let nodes = [];
    for (const selector of choice.targets) {   // the most precise selector that matches anything
      nodes = board.querySelectorAll(selector);
      if (nodes.length) break;
    }
    for (const node of nodes) {
      node.classList.add("legal");
      node.dataset.choice = String(choice.index);
      const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
      title.textContent = choice.detail ? `${choice.words}: ${choice.detail}` : choice.words;
      node.prepend(title);
    }
  }
}

function showDecision(decision) {
  $("#decision").hidden = !decision;
  if (!decision) return;
  $("#question").textContent = decision.question;
  $("#staged").textContent = decision.staged;
  list($("#takeover"), decision.takeover);
  const bid = decision.bid;
  $("#bid-form").hidden = !bid;
  if (bid) {
    const input = $("#bid-amount");
    input.min = bid.min;
    input.max = bid.max;
    input.value = "";
    $("#stake").textContent = bid.stake;
    $("#bid-range").textContent = `from ${bid.min} to ${bid.max}`;
  }
  const targets = decision.choices.some((c) => c.targets.length);
  $("#hint").textContent = bid ? "Type your sealed bid." :
    targets ? "Click a highlighted card or space on the board, or a choice below." : "Click a choice.";
  const groups = new Map();   // heading -> its buttons, in the order the choices come
  for (const choice of decision.choices) {
    const button = el("button", null, choice.card ? "choice card-choice" : "choice");
    button.type = "button";
    button.dataset.choice = String(choice.index);
    button.append(el("span", choice.words, "words"));
    if (choice.detail) button.append(el("span", choice.detail, "detail"));
    const group = choice.group || "Choices";
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(button);
  }
  const sections = [];
  for (const [heading, buttons] of groups) {
    const section = el("section", null, "choice-group");
    if (groups.size > 1) section.append(el("h3", heading));
    const row = el("div", null, "choice-row");
    row.append(...buttons);
    section.append(row);
    sections.push(section);
  }
  $("#choices").replaceChildren(...sections);
}

function showResult(s) {
  const result = s.result;
  $("#result").hidden = !result;
  document.body.dataset.over = result ? "1" : "";
  if (!result) return;
  $("#verdict").textContent = result.verdict;
  list($("#ranking"), result.lines);
  $("#saved").textContent = s.saved ? `Saved as game ${s.saved.game_id} in ${s.saved.path}; replay it with: ${s.saved.replay}`
    : s.status === "abandoned" ? "An abandoned game is kept by the server but not saved as a result."
    : (s.save_error || "This server does not save games.");
}

function show(s) {
  state = s;
  $("#setup").hidden = true;
  $("#unfinished").hidden = true;
  $("#game").hidden = false;
  $("#new-game-top").hidden = false;
  $("#game-actions").hidden = s.status !== "playing";
  document.body.dataset.status = s.status;
  history.replaceState(null, "", `#game=${s.id}`);
  $("#subtitle").textContent = `${s.rules} game, round ${s.round}; you are P${s.seat}; ` +
    s.names.map((n, i) => `P${i} ${n}`).join(", ");
  document.body.dataset.step = String(s.step);
  showBoard(s);
  showDecision(s.decision);
  showResult(s);
  list($("#changes"), s.changes);
  $("#progress-line").textContent = s.progress_line;
  $("#victory-box #victory").textContent = s.victory.join("\n");  // not the board's <g id="victory">
  list($("#log"), s.log);
  list($("#notes"), s.notes);
}

// -- wiring ----------------------------------------------------------------------------------

async function init() {
  $("#setup-form").addEventListener("submit", startGame);
  $("#setup-form").addEventListener("change", (e) => {
    if (e.target.name === "rules" || e.target.id === "players" || e.target.id === "seat") refreshForm();
    else if (e.target.classList.contains("level")) refreshPlaceholders();
  });
  $("#rules-link").addEventListener("click", (e) => {
    e.preventDefault();
    $("#how-to-play").open = true;
    $("#how-to-play").scrollIntoView();
    $("#how-to-play summary").focus();
  });
  $("#zoom").addEventListener("click", () => {
    const fit = document.body.classList.toggle("fit-board");
    $("#zoom").textContent = fit ? "Readable board" : "Fit board to the window";
    $("#zoom").setAttribute("aria-pressed", String(fit));
  });
  $("#new-game").addEventListener("click", newGame);
  $("#new-game-top").addEventListener("click", newGame);
  $("#resign").addEventListener("click", () => endGame("resign"));
  $("#abandon").addEventListener("click", () => endGame("abandon"));
  $("#unfinished-list").addEventListener("click", (e) => {
    const link = e.target.closest("a[data-game]");
    if (!link) return;
    e.preventDefault();
    resume(link.dataset.game);
  });
  $("#board").addEventListener("click", (e) => {
    const node = e.target.closest(".legal");
    if (node) send({ choice: Number(node.dataset.choice) });
  });
  $("#choices").addEventListener("click", (e) => {
    const node = e.target.closest("[data-choice]");
    if (node) send({ choice: Number(node.dataset.choice) });
  });
  $("#bid-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const amount = Number($("#bid-amount").value);
    if ($("#bid-amount").value === "" || !Number.isInteger(amount)) { showError("Type a whole number of denarii."); return; }
    send({ bid: amount });
  });
  await guarded(async () => {
    options = await api("GET", "/api/options");
    $("#agent-names").replaceChildren(...options.agents.map((a) => { const o = el("option"); o.value = a; return o; }));
    $("#round-limit").value = String(options.round_limit);
    refreshForm();
  });
  const match = /game=([0-9a-f]+)/.exec(location.hash);
  if (match) {
    await resume(match[1]);
  }
  if (!state) await listUnfinished();
  document.body.dataset.ready = "1";
}

init();
