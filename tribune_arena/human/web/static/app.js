"use strict";
// The page of `tribune serve`: a new-game form, then the game screen: the table and your hand laid out from the
// state's data, the decision and its choices in words, the players and the victory card. Every change goes through
// the JSON API (/api/...); the server plays the bots between the people's decisions.
//
// Keys: the server's key comes in the link `tribune serve` prints (?key=...) and is kept for this server; it starts
// games and clears unfinished ones. Each seat of a game has its own key, in the seat's private link
// (#game=ID&seat=KEY); it is sent with every request about that game (X-Tribune-Seat). A page without a seat key
// watches the game as a spectator.

const $ = (sel) => document.querySelector(sel);
const KEY_STORE = `tribune-key:${location.host}`;
const SEAT_STORE = (gameId) => `tribune-seat:${location.host}:${gameId}`;
const POLL_MS = 1500;
let options = null;   // GET /api/options
let state = null;     // the current game's state
let seatKey = null;   // the key of the seat this page plays (null: watching)
let busy = false;
let poller = null;

(function keepKey() {
  const params = new URLSearchParams(location.search);
  if (params.has("key")) {
    localStorage.setItem(KEY_STORE, params.get("key"));
    params.delete("key");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
  }
})();

function showError(message) {
  const box = $("#error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(method, url, body, seat) {   // seat: the seat key to send (default: this page's)
  const init = { method, headers: {} };
  const key = localStorage.getItem(KEY_STORE);
  if (key) init.headers["X-Tribune-Key"] = key;
  const mine = seat || seatKey;
  if (mine && url.startsWith("/api/games/")) init.headers["X-Tribune-Seat"] = mine;
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

function list(node, lines) {
  node.replaceChildren(...lines.map((line) => el("li", line)));
}

// -- the new-game form ------------------------------------------------------------------

const PERSON = "person";

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
  fillSelect($("#victory-card"), [["", "random card"], ...cards.map((c) => [c.id, c.title])],
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
    level.dataset.seat = String(s);
    const known = levels.some((l) => l.id === oldLevels[k]) || oldLevels[k] === PERSON;
    fillSelect(level, [...levels.map((l) => [l.id, `${l.label} (${l.agent})`]), [PERSON, "A person (private link)"]],
      known ? oldLevels[k] : options.default_level);
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
  list($("#level-notes"), levels.map((l) => `${l.label} plays ${l.agent}: ${l.strength}.`));
  refreshPlaceholders();
}

function refreshPlaceholders() {   // each spec field shows the spec of the level it would replace
  const levels = options.rules[rules()].levels;
  const chosen = [...$("#opponents").querySelectorAll("select")];
  [...$("#specs").querySelectorAll("input")].forEach((input, k) => {
    const level = levels.find((l) => l.id === chosen[k].value);
    input.placeholder = level ? level.spec : "";
    input.disabled = chosen[k].value === PERSON;
  });
}

function seating() {   // the people's seats and the bots' specs, in seat order
  const levels = options.rules[rules()].levels;
  const chosen = [...$("#opponents").querySelectorAll("select")];
  const inputs = [...$("#specs").querySelectorAll("input")];
  const humans = [Number($("#seat").value)];
  const opponents = [];
  chosen.forEach((select, k) => {
    if (select.value === PERSON) humans.push(Number(select.dataset.seat));
    else opponents.push(inputs[k].value.trim() || levels.find((l) => l.id === select.value).spec);
  });
  return { humans: humans.sort((a, b) => a - b), opponents };
}

async function startGame(event) {
  event.preventDefault();
  if (busy) return;
  const { humans, opponents } = seating();
  const body = {
    rules: rules(),
    players: Number($("#players").value),
    seat: Number($("#seat").value),
    humans,
    opponents,
    victory_card: $("#victory-card").value || null,
    point_variant: $("#point-variant").checked,
    round_limit: Number($("#round-limit").value) || options.round_limit,
  };
  if ($("#seed").value !== "") body.seed = Number($("#seed").value);
  if (body.rules === "brutii" && $("#brutii-seat").value !== "") body.brutii_seat = Number($("#brutii-seat").value);
  await guarded(async () => {
    seatKey = null;
    const created = await api("POST", "/api/games", body);
    const keys = created.seat_keys || {};
    for (const [seat, key] of Object.entries(keys)) {
      if (Number(seat) === created.seat) {
        seatKey = key;
        localStorage.setItem(SEAT_STORE(created.id), key);
      }
    }
    showInvites(created, keys);
    show(created);
  });
}

function link(gameId, key) {
  return `${location.origin}/#game=${gameId}` + (key ? `&seat=${encodeURIComponent(key)}` : "");
}

function showInvites(created, keys) {
  const others = Object.entries(keys).filter(([seat]) => Number(seat) !== created.seat);
  const rows = others.map(([seat, key]) => invite(`P${seat}'s private link`, link(created.id, key), `invite-${seat}`));
  rows.push(invite("Watch link (no hand)", link(created.id, null), "invite-watch"));
  $("#invite-list").replaceChildren(...rows);
  $("#invites").hidden = others.length === 0;
}

function invite(words, url, id) {
  const item = el("li");
  const label = el("label", `${words} `);
  const input = el("input");
  input.readOnly = true;
  input.value = url;
  input.id = id;
  label.append(input);
  item.append(label);
  return item;
}

function newGame() {
  stopPolling();
  state = null;
  seatKey = null;
  history.replaceState(null, "", "#");
  $("#game").hidden = true;
  $("#start-page").hidden = false;
  $("#new-game-top").hidden = true;
  $("#invites").hidden = true;
  document.body.dataset.over = "";
  document.body.dataset.status = "";
  showError("");
  listUnfinished();
}

// -- the unfinished games ---------------------------------------------------------------------

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
    const key = localStorage.getItem(SEAT_STORE(g.id));
    const item = el("li", `${g.rules} game, round ${g.round} (step ${g.step}): ` +
      g.names.map((n, i) => `P${i} ${n}`).join(", ") + `; last played ${when(g.updated)}`);
    item.dataset.game = g.id;
    const resume = el("a", key ? "Resume" : "Watch", key ? "resume" : "watch");
    resume.href = key ? link(g.id, key) : link(g.id, null);
    resume.dataset.game = g.id;
    item.append(resume);
    return item;
  });
  $("#unfinished-list").replaceChildren(...items);
  $("#unfinished").hidden = !games.length || !$("#game").hidden;
  document.body.dataset.unfinished = String(games.length);
}

async function clearUnfinished() {
  if (busy) return;
  if (!window.confirm("Abandon every unfinished game this browser holds a seat of? They end without a result.")) return;
  await guarded(async () => {   // a game is abandoned by one of its seats (its key), never by the server's key alone
    const games = (await api("GET", "/api/games")).unfinished;
    for (const g of games) {
      const key = localStorage.getItem(SEAT_STORE(g.id));
      if (key) await api("DELETE", `/api/games/${g.id}`, undefined, key);
    }
    await listUnfinished();
  });
}

async function openGame(gameId, key) {
  seatKey = key || localStorage.getItem(SEAT_STORE(gameId));
  if (key) localStorage.setItem(SEAT_STORE(gameId), key);
  await guarded(async () => show(await api("GET", `/api/games/${gameId}`)));
}

async function endGame(how) {
  if (busy || !state) return;
  const question = how === "resign" ? "Resign this game? It ends as your loss and is saved."
    : "Abandon this game? It ends without a result, for everyone at the table.";
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

function stopPolling() {
  if (poller) clearTimeout(poller);
  poller = null;
}

function pollLater() {   // another seat (a person, or a bot) decides: look again soon
  stopPolling();
  poller = setTimeout(async () => {
    poller = null;
    if (!state || busy) { pollLater(); return; }
    try {
      const next = await api("GET", `/api/games/${state.id}`);
      if (next.step !== state.step || next.status !== state.status) show(next);
      else pollLater();
    } catch (err) {
      showError(err.message);
      pollLater();
    }
  }, POLL_MS);
}

// The table, laid out from state.table. Elements carry the drawn board's classes and data attributes, so that a
// choice's targets (CSS selectors) find them.

function cardNode(card, where) {
  const node = el("span", null, card.hidden ? "card hidden" : "card");
  node.dataset.where = where || card.where;
  node.dataset.index = String(card.index);
  node.setAttribute("role", "img");
  if (card.hidden) {
    node.title = "a face-down card";
    node.setAttribute("aria-label", "a face-down card");
    return node;
  }
  node.dataset.card = card.label;
  if (card.seat !== undefined) node.dataset.seat = String(card.seat);
  node.style.background = card.fill;
  node.style.color = card.ink;
  node.title = card.name;
  node.setAttribute("aria-label", card.name);
  node.append(el("span", card.value, "value"), el("span", card.word, "word"));
  return node;
}

function inkOn(fill) {   // black or white, whichever reads better on a #rrggbb colour (WCAG contrast)
  const channel = (i) => {
    const c = parseInt(fill.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const light = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return (light + 0.05) / 0.05 > 1.05 / (light + 0.05) ? "#000000" : "#ffffff";
}

function spaceNode(space, colours) {
  const node = el("span", null, "space");
  node.dataset.space = space.label;
  node.dataset.spaceId = String(space.id);
  node.dataset.occupant = String(space.occupant);
  const dot = el("span", space.occupant >= 0 ? `P${space.occupant}` : String(space.slot), "dot");
  if (space.occupant >= 0) {
    dot.classList.add("taken");
    dot.style.background = colours[space.occupant];
    dot.style.color = inkOn(colours[space.occupant]);
  }
  node.append(dot);
  if (space.caption) node.append(el("span", space.caption, "caption"));
  node.title = space.occupant >= 0 ? `taken by P${space.occupant}` : `free space ${space.slot}`;
  return node;
}

function regionNode(region, colours, cls) {
  const node = el("section", null, cls || "region");
  node.dataset.region = region.key;
  const title = el("div", null, "region-title");
  title.append(el("span", region.title));
  if (region.vetoed) title.append(el("span", "vetoed", "vetoed"));
  node.append(title);
  for (const line of region.lines) node.append(el("p", line, "line"));
  if (region.fields.length) {
    const fields = el("div", null, "fields");
    region.fields.forEach((cards, i) => {
      const field = el("span", null, "field");
      field.dataset.region = region.key;
      field.dataset.field = String(i);
      field.append(...cards.map((c) => cardNode(c)));
      fields.append(field);
    });
    node.append(fields);
  }
  if (region.tiles) {
    const tiles = el("div", null, "tiles");
    for (const tile of region.tiles) {
      const t = el("span", `#${tile.id} ${tile.where}: ${tile.needs.join(", ")}`, "emperor-tile");
      t.dataset.tile = String(tile.id);
      tiles.append(t);
    }
    node.append(tiles);
  }
  if (region.officials) {
    for (const o of region.officials) {
      const where = o.holder >= 0 ? `P${o.holder}` : "on the Capitoleum";
      const line = el("span", `${o.name}: ${where}${o.chosen ? " (chosen)" : ""}`, "official");
      line.dataset.official = o.key;
      line.dataset.holder = String(o.holder);
      node.append(line);
    }
  }
  const spaces = el("div", null, "spaces");
  spaces.append(...region.spaces.map((s) => spaceNode(s, colours)));
  node.append(spaces);
  return node;
}

function factionNode(f, colours) {
  const node = el("section", null, "faction");
  node.dataset.faction = f.key;
  node.dataset.controller = String(f.controller);
  const name = el("div", f.name, "faction-name");
  name.style.background = f.fill;
  name.style.color = f.ink;
  node.append(name, el("div", f.controller >= 0 ? `P${f.controller} controls` : "no controller", "line"));
  const set = el("div", null, "set");
  set.append(...f.set.map((c) => cardNode(c, "set")));
  node.append(set);
  const spaces = el("div", null, "spaces");
  spaces.append(...f.spaces.map((s) => spaceNode(s, colours)));
  node.append(spaces);
  node.append(el("div", "markers: " + (f.markers.map((s) => `P${s}`).join(" ") || "none"), "line"));
  if (f.laurel) node.append(el("div", "first-take-over laurel", "line"));
  if (f.blocked) node.append(el("div", "no benefit (Tribunus)", "line vetoed"));
  if (f.chariot) node.append(el("div", "chariot", "chariot-here"));
  node.title = `${f.name}, leader ${f.leader}`;
  return node;
}

function showTable(s) {
  const t = s.table;
  $("#table-status").textContent = t.status;
  const colours = t.colours;
  const nodes = t.regions.map((r) => regionNode(r, colours));
  const bowl = el("section", null, "bowl");
  bowl.append(el("strong", "Coin bowl"), spaceNode(t.bowl.space, colours),
    el("span", "paid in: " + (t.bowl.paid.map((p) => `P${p}`).join(", ") || "nobody")),
    el("span", `Colosseum: ${t.bowl.colosseum} denarii`), el("span", `Draw pile ${t.bowl.draw}, discard ${t.bowl.discard}`),
    el("span", `Chariot: ${t.bowl.chariot}`), el("span", `Proconsul: ${t.bowl.proconsul >= 0 ? `P${t.bowl.proconsul}` : "nobody"}`));
  if (t.brutii) bowl.append(el("span", `Brutii: P${t.brutii.seat}, ${t.brutii.turns} turns left, veto ${t.brutii.veto}`));
  nodes.push(bowl);
  if (t.expansion.length) {
    const row = el("div", null, "expansion-row");
    row.append(...t.expansion.map((r) => regionNode(r, colours, "region expansion-box")));
    nodes.push(row);
  }
  const factions = el("div", null, "factions");
  factions.append(...t.factions.map((f) => factionNode(f, colours)));
  nodes.push(factions);
  $("#table").replaceChildren(...nodes);
  const hand = s.hand.map((c, i) => cardNode({ ...c, index: i, seat: s.seat }, "hand"));
  $("#hand").replaceChildren(...hand);
  $("#hand-area").hidden = s.spectator;
  $("#hand-title").textContent = `Your hand (${s.hand.length} card${s.hand.length === 1 ? "" : "s"})`;
  $("#board").innerHTML = s.board;   // the server's SVG drawing: no scripts, no outside references
}

function markTargets(decision) {
  if (!decision) return;
  const area = $("#board-area");
  for (const choice of decision.choices) {
    let nodes = [];
    for (const selector of choice.targets) {   // the most precise selector that matches anything
      nodes = area.querySelectorAll(selector);
      if (nodes.length) break;
    }
    for (const node of nodes) {
      if (node.classList.contains("legal")) continue;   // a card held twice: its first choice
      node.classList.add("legal");
      node.dataset.choice = String(choice.index);
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      node.title = choice.detail ? `${choice.words}: ${choice.detail}` : choice.words;
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
    targets ? "Click a highlighted place or card, or a choice below." : "Click a choice.";
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

function showPlayers(s) {
  const colours = s.table.colours;
  const rows = s.players.map((p) => {
    const item = el("li", null, p.deciding ? "deciding" : "");
    item.dataset.seat = String(p.seat);
    item.style.borderLeftColor = colours[p.seat];
    item.append(el("span", `P${p.seat} ${p.name}`, "who"));
    const bits = [`${p.money} denarii`, `${p.laurels} laurels`, `${p.legions} legions`, `${p.markers} markers`,
      `${p.followers} followers`, `${p.hand_size} cards`, `score ${p.score}`];
    if (p.tribune) bits.push("tribune");
    if (p.favor) bits.push("favor of the gods");
    if (p.patrons) bits.push(`${p.patrons} patrons`);
    if (p.emperor_tiles) bits.push(`${p.emperor_tiles} emperor tiles`);
    if (p.deciding) bits.push("deciding now");
    item.append(document.createTextNode(": " + bits.join(" · ")));
    return item;
  });
  $("#player-rows").replaceChildren(...rows);
}

function showVictory(s) {   // one panel: the card's objectives, each player's standing on each, and the count
  const card = s.victory_card;
  $("#victory-title").textContent = card.length ? `Victory card: ${card.title}` : card.title;  // the one name
  $("#victory-rule").textContent = card.rule;
  const head = el("tr");
  head.append(el("th", "Objective"), ...s.players.map((p) => {
    const th = el("th", `P${p.seat}`);
    th.scope = "col";
    th.title = p.name;
    return th;
  }));
  $("#victory-head").replaceChildren(head);
  const rows = card.objectives.map((o, k) => {
    const row = el("tr");
    const short = o.need === null ? o.name : `${o.name} ${o.need}+`;
    const name = el("th", short + (o.obligatory ? " (obligatory)" : ""));
    name.scope = "row";
    name.title = o.text;
    row.append(name, ...s.players.map((p) => {
      const mine = p.objectives[k];
      const cell = el("td", !mine ? "" : mine.need === null ? (mine.met ? "yes" : "no") : `${mine.have}/${mine.need}`);
      if (mine && mine.met) cell.className = "met";
      return cell;
    }));
    return row;
  });
  if (card.objectives.length) {
    const total = el("tr", null, "total");
    const name = el("th", `met (${card.required} end the game)`);
    name.scope = "row";
    total.append(name, ...s.players.map((p) => el("td", p.fulfils ? `${p.met} ✓` : String(p.met))));
    rows.push(total);
  }
  $("#victory-rows").replaceChildren(...rows);
}

function showResult(s) {
  const result = s.result;
  $("#result").hidden = !result;
  document.body.dataset.over = result ? "1" : "";
  if (!result) return;
  $("#verdict").textContent = result.verdict;
  list($("#ranking"), result.lines);
  $("#saved").textContent = s.saved ? `Saved as ${s.saved.name}; replay it in a terminal with: ${s.saved.replay}`
    : s.status === "abandoned" ? "An abandoned game is kept by the server but not saved as a result."
    : (s.save_error || "This server does not save games.");
  $("#replay-link").hidden = !s.saved;
  if (s.saved) $("#replay-link").href = s.saved.replay_url;
}

function show(s) {
  state = s;
  stopPolling();
  $("#start-page").hidden = true;
  $("#game").hidden = false;
  $("#new-game-top").hidden = false;
  $("#game-actions").hidden = s.status !== "playing" || s.spectator;
  document.body.dataset.status = s.status;
  document.body.dataset.seat = String(s.seat);
  document.body.dataset.spectator = s.spectator ? "1" : "";
  history.replaceState(null, "", `#game=${s.id}` + (seatKey && !s.spectator ? `&seat=${encodeURIComponent(seatKey)}` : ""));
  const who = s.spectator ? "you are watching" : `you are P${s.seat}`;
  $("#subtitle").textContent = `${s.rules} game, round ${s.round}; ${who}`;
  document.body.dataset.step = String(s.step);
  showTable(s);
  showDecision(s.decision);
  markTargets(s.decision);
  $("#waiting").hidden = !s.waiting;
  $("#waiting").textContent = s.waiting;
  showPlayers(s);
  showVictory(s);
  showResult(s);
  list($("#changes"), s.changes);
  $("#changes-box").hidden = s.spectator;
  const named = String(s.seat) in (s.people || {});   // a name for the others: at a table of several people, once
  $("#name-form").hidden = s.spectator || s.status !== "playing" || s.humans.length < 2 || named;
  if ($("#log-box").open) loadLog();   // the whole game's log, as this seat may read it
  else list($("#log"), s.log);
  list($("#notes"), s.notes);
  if (s.status === "playing" && !s.decision) pollLater();
}

async function loadLog() {   // GET /api/games/ID/log: every event from the first, public or this seat's own
  if (!state) return;
  const gameId = state.id;
  try {
    const doc = await api("GET", `/api/games/${gameId}/log`);
    if (state && state.id === gameId) list($("#log"), doc.log);
  } catch (err) {
    showError(err.message);
  }
}

async function giveName(event) {
  event.preventDefault();
  if (busy || !state) return;
  const name = $("#name-input").value.trim();
  if (!name) { showError("Type the name the others will see."); return; }
  await guarded(async () => show(await api("POST", `/api/games/${state.id}/name`, { name })));
}

// -- wiring ----------------------------------------------------------------------------------

function fromHash() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  return { game: params.get("game"), seat: params.get("seat") };
}

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
  $("#new-game").addEventListener("click", newGame);
  $("#new-game-top").addEventListener("click", newGame);
  $("#resign").addEventListener("click", () => endGame("resign"));
  $("#abandon").addEventListener("click", () => endGame("abandon"));
  $("#clear-unfinished").addEventListener("click", clearUnfinished);
  $("#name-form").addEventListener("submit", giveName);
  $("#log-box").addEventListener("toggle", () => { if ($("#log-box").open) loadLog(); });
  $("#unfinished-list").addEventListener("click", (e) => {
    const anchor = e.target.closest("a[data-game]");
    if (!anchor) return;
    e.preventDefault();
    const key = anchor.classList.contains("resume") ? localStorage.getItem(SEAT_STORE(anchor.dataset.game)) : null;
    openGame(anchor.dataset.game, key);
  });
  const play = (e) => {
    const node = e.target.closest(".legal");
    if (node) send({ choice: Number(node.dataset.choice) });
  };
  $("#table").addEventListener("click", play);
  $("#hand").addEventListener("click", play);
  for (const area of [$("#table"), $("#hand")]) {
    area.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); play(e); } });
  }
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
  window.addEventListener("hashchange", () => {
    const wanted = fromHash();
    if (wanted.game && (!state || wanted.game !== state.id)) openGame(wanted.game, wanted.seat);
  });
  await guarded(async () => {
    options = await api("GET", "/api/options");
    $("#agent-names").replaceChildren(...options.agents.map((a) => { const o = el("option"); o.value = a; return o; }));
    $("#round-limit").value = String(options.round_limit);
    refreshForm();
  });
  const wanted = fromHash();
  if (wanted.game && /^[0-9a-f]+$/.test(wanted.game)) await openGame(wanted.game, wanted.seat);
  if (!state) await listUnfinished();
  document.body.dataset.ready = "1";
}

init();
