// klinzha-gui's page (docs/gui.md): the lobby at /, a room at /game/<id>. The server draws
// the board (the SVG code of `klinzha svg`), referees the games and computes what this seat
// may see; this module shows what it sends and turns clicks, drags and keys into the
// WebSocket messages of docs/gui.md. A seat's token is kept in localStorage, so a reload or
// another tab of this browser rejoins the seat.
const $ = (id) => document.getElementById(id);
let ws = null;
let state = null;        // the last "state" message
let welcome = null;      // "welcome": engines, rules, variants
let picked = null;       // a picked cell (play) or piece letter (placement: kept between moves)
let pendingCarry = null; // [leave, carry] moves waiting for the person's choice
let analysis = null;     // the last "analysis" message
let review = null;       // the last "review" message: the evaluation graph's points
let lastResult = '';     // the result the dialog was shown for
let roomId = (location.pathname.match(/^\/game\/([0-9a-f]+)$/) || [])[1] || null;
const tokenKey = (id) => 'klinzha-token-' + id;

// For tests and tools driving the page (docs/gui.md): the last state and analysis.
// `states` counts the states received (a reconnection is seen by it growing again).
let states = 0;
window.klinzha = { get state() { return state; }, get analysis() { return analysis; }, get states() { return states; },
                   get connected() { return !!ws && ws.readyState === 1; } };

function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }

function showError(text) {
  const d = document.createElement('div');
  d.textContent = text;
  $('errors').prepend(d);
  while ($('errors').children.length > 4) $('errors').lastChild.remove();
  setTimeout(() => d.remove(), 15000);
}

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  ws = new WebSocket(`${scheme}://${location.host}/ws`);
  ws.onopen = () => {
    $('status').textContent = roomId ? 'Joining…' : 'Lobby';
    const hello = { type: 'hello' };
    if (roomId) { hello.room = roomId; hello.token = localStorage.getItem(tokenKey(roomId)) || ''; }
    send(hello);
    if (!roomId) send({ type: 'lobby' });
  };
  ws.onclose = () => { $('status').textContent = 'Disconnected: reconnecting…'; setTimeout(connect, 1500); };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    switch (msg.type) {
      case 'welcome': welcome = msg; fillForms(); break;
      case 'lobby': renderLobby(msg.rooms); break;
      case 'created': if (msg.room !== roomId) { roomId = msg.room; history.pushState({}, '', '/game/' + msg.room); } break;
      case 'seat': localStorage.setItem(tokenKey(msg.room), msg.token); break;
      case 'joined': roomId = msg.room; showRoom(); break;
      case 'state': ++states; onState(msg); break;
      case 'analysis': analysis = msg; renderAnalysis(); break;
      case 'review': review = msg; renderGraph(); if (state) render(); break;
      case 'record': $('record').value = msg.pgn; break;
      case 'games': pickGame(msg.games); break;
      case 'error': showError(msg.message); break;
    }
  };
}

// -- Lobby --------------------------------------------------------------------------------

function renderLobby(rooms) {
  $('lobby').hidden = false; $('room').hidden = true;
  const tb = document.querySelector('#rooms tbody');
  tb.innerHTML = '';
  for (const r of rooms) {
    const tr = tb.insertRow();
    const a = document.createElement('a');
    a.href = '/game/' + r.id; a.textContent = r.id;
    const copy = document.createElement('button');
    copy.className = 'copy-link'; copy.textContent = 'copy link'; copy.type = 'button';
    copy.onclick = () => navigator.clipboard?.writeText(location.origin + '/game/' + r.id).then(() => { copy.textContent = 'copied'; }, () => showError('the browser did not let the page copy: the link is ' + location.origin + '/game/' + r.id));
    const cell = tr.insertCell();
    cell.append(a, ' ', copy);
    tr.insertCell().textContent = `${r.players}p ${r.game || r.variant}`;
    tr.insertCell().textContent = r.seats.map((s) => s.free ? `${s.colour}: (free)` : `${s.colour}: ${s.name}`).join(', ');
    tr.insertCell().textContent = r.tc || '–';
    tr.insertCell().textContent = r.status + (r.result ? ' ' + r.result : '');
  }
}

function fillForms() {
  const v = $('variant');
  v.innerHTML = '';
  for (const x of welcome.variants) v.add(new Option(x.name, x.name));
  const ae = $('analysis-engine');
  ae.innerHTML = '';
  for (const e of welcome.engines) ae.add(new Option(e.name, e.name));
  // Rule options typed from the rule table: checkboxes, selects, spins.
  const rules = $('rules');
  rules.innerHTML = '';
  for (const r of welcome.rules) {
    const l = document.createElement('label');
    l.title = r.help;
    let i;
    if (r.type === 'check') { i = document.createElement('input'); i.type = 'checkbox'; i.checked = r.default === 'true'; }
    else if (r.type === 'combo') { i = document.createElement('select'); for (const c of r.choices) i.add(new Option(c, c)); i.value = r.default; }
    else { i = document.createElement('input'); i.type = 'number'; i.min = r.min; i.max = r.max; i.value = r.default; i.size = 4; }
    i.dataset.rule = r.name; i.dataset.default = r.default;
    l.append(i, ' ' + r.name);
    rules.appendChild(l);
  }
  const eo = $('engine-options');
  eo.innerHTML = '';
  for (const e of welcome.engines)
    for (const o of e.options) {
      const l = document.createElement('label');
      let i;
      if (o.type === 'check') { i = document.createElement('input'); i.type = 'checkbox'; i.checked = o.default === 'true'; }
      else if (o.type === 'combo') { i = document.createElement('select'); for (const c of o.vars) i.add(new Option(c, c)); i.value = o.default; }
      else { i = document.createElement('input'); i.type = 'number'; i.min = o.min; i.max = o.max; i.value = o.default; i.size = 5; }
      i.dataset.engine = e.name; i.dataset.option = o.name; i.dataset.default = o.default;
      l.append(`${e.name}: ${o.name} `, i);
      eo.appendChild(l);
    }
  $('name').value = localStorage.getItem('klinzha-name') || $('name').value;
  fillSeats();
}

function fillSeats() {
  const n = Number($('players').value);
  const seats = $('seats');
  seats.innerHTML = '';
  ['green', 'blue', 'black'].slice(0, n).forEach((c, i) => {
    const l = document.createElement('label');
    l.textContent = c + ' ';
    const s = document.createElement('select');
    s.id = 'seat-' + i;
    s.add(new Option('me', 'me'));
    s.add(new Option('a person', 'person'));
    for (const e of welcome.engines) s.add(new Option(e.name, 'engine:' + e.name));
    s.value = i === 0 ? 'me' : (welcome.engines.length ? 'engine:' + welcome.engines[0].name : 'person');
    // An engine seat's level, 1 (a beginner's) to 8 (full strength), as lichess offers.
    const lv = document.createElement('select');
    lv.id = 'level-' + i;
    lv.title = 'the engine\'s level: 1 plays as a beginner, 8 at full strength';
    for (let k = 1; k <= 8; ++k) lv.add(new Option('level ' + k + (k === 1 ? ' (beginner)' : k === 8 ? ' (full strength)' : ''), k));
    lv.value = localStorage.getItem('klinzha-level') || '1';
    const showLevel = () => {
      const e = s.value.startsWith('engine:') && welcome.engines.find((x) => 'engine:' + x.name === s.value);
      lv.hidden = !(e && e.levels);
    };
    s.addEventListener('change', showLevel);
    showLevel();
    l.append(s, ' ', lv);
    seats.appendChild(l);
  });
  // Variants that do not fit the player count are marked (the server refuses them too).
  for (const o of $('variant').options) {
    const v = welcome.variants.find((x) => x.name === o.value);
    o.disabled = v && v.players && v.players !== n;
  }
  if ($('variant').selectedOptions[0]?.disabled) $('variant').value = 'romulan-heart';
}

function seatsFromForm(n) {
  const seats = [];
  let sit = null;
  for (let i = 0; i < n; ++i) {
    const v = $('seat-' + i).value;
    if (v === 'me') { if (sit === null) sit = 'gbk'[i]; seats.push({ kind: 'person' }); }
    else if (v === 'person') seats.push({ kind: 'person' });
    else {
      const engine = v.slice(7), options = {};
      for (const i2 of document.querySelectorAll(`#engine-options [data-engine="${engine}"]`)) {
        const val = i2.type === 'checkbox' ? String(i2.checked) : i2.value;
        if (val !== i2.dataset.default) options[i2.dataset.option] = val;
      }
      const seat = { kind: 'engine', engine, options };
      const lv = $('level-' + i);
      if (!lv.hidden) { seat.level = Number(lv.value); localStorage.setItem('klinzha-level', lv.value); }
      seats.push(seat);
    }
  }
  return { seats, sit };
}

function createRoom() {
  const n = Number($('players').value);
  const rules = {};
  for (const i of document.querySelectorAll('#rules [data-rule]')) {
    const val = i.type === 'checkbox' ? String(i.checked) : i.value;
    if (val !== i.dataset.default) rules[i.dataset.rule] = val;
  }
  const { seats, sit } = seatsFromForm(n);
  localStorage.setItem('klinzha-name', $('name').value);
  send({ type: 'create', players: n, variant: $('variant').value, rules, seats, sit, name: $('name').value,
         tc: $('tc').value.trim(), delay: Number($('delay').value) || 0, movetime: Number($('movetime').value) || 1000,
         fen: $('start-fen').value.trim() });
}

function pickGame(games) {
  const s = $('load-game');
  s.innerHTML = '';
  s.add(new Option(`${games.length} games: pick one`, ''));
  for (const g of games) s.add(new Option(`${g.index + 1}. ${g.green} - ${g.blue}${g.black ? ' - ' + g.black : ''} ${g.result}`, g.index));
  s.hidden = false;
  s.onchange = () => { if (s.value !== '') send({ type: 'load', record: $('load-record').value, game: Number(s.value) }); };
}

// -- Room ---------------------------------------------------------------------------------

function showRoom() { $('lobby').hidden = true; $('room').hidden = false; }

// -- Sounds (Web Audio tones, no files): a move, a capture, a heart in danger, low time. The
// mute is remembered in localStorage.
let audio = null;
let lowTimeWarned = false;
function tone(freqs, ms) {
  if (localStorage.getItem('klinzha-mute') === '1') return;
  try {
    audio = audio || new AudioContext();
    freqs.forEach((f, i) => {
      const o = audio.createOscillator(), g = audio.createGain();
      const t = audio.currentTime + i * ms / 1000;
      o.frequency.value = f;
      g.gain.setValueAtTime(0.12, t);
      g.gain.exponentialRampToValueAtTime(0.001, t + ms / 1000);
      o.connect(g).connect(audio.destination);
      o.start(t); o.stop(t + ms / 1000);
    });
  } catch (e) { /* no audio here */ }
}
function soundsFor(prev, next) {
  if (!prev || prev.room !== next.room || next.plies <= prev.plies || next.ply !== next.plies) return;
  const last = next.moves[next.plies - 1];
  if (last && last.san.includes('x')) tone([330, 220], 90); else tone([520], 60);
  const mine = next.you && (next.danger || []).length && !(prev.danger || []).length;
  if (mine) tone([880, 660, 880], 110);
}
function lowTime() {
  if (!state || !state.you || state.clock_running !== state.you) { lowTimeWarned = false; return; }
  const el = $('clock-' + state.you);
  const ms = state.clocks['gbk'.indexOf(state.you)];
  if (ms !== null && ms - (performance.now() - clockBase) < 10000 && !lowTimeWarned) {
    lowTimeWarned = true;
    tone([440, 440], 150);
    if (el) el.classList.add('low');
  }
}
setInterval(lowTime, 500);

// -- Premoves (two players): a move picked while the other moves, played at once when the
// turn comes if it is legal then, else dropped with a word.
let premove = null;  // {from, to}
function playPremove() {
  if (!premove || !state.can.move || state.phase !== 'play') return;
  const pm = premove;
  premove = null;
  const ms = movesFrom(pm.from).filter((m) => m.to === pm.to);
  if (!ms.length) { showError(`premove ${pm.from}-${pm.to} dropped: not legal now`); return; }
  send({ type: 'move', move: (ms.find((m) => m.carry) || ms[0]).move });
}
function onPremoveClick(cell) {
  const own = (c) => !!document.querySelector(`#board [data-cell="${c}"] [data-man^="${state.you}"]`);
  if (premove && premove.to === undefined && cell !== premove.from) premove.to = cell;
  else premove = own(cell) && (!premove || premove.from !== cell) ? { from: cell } : null;
  markPremove();
}
function markPremove() {
  for (const e of document.querySelectorAll('#board .premove')) e.remove();
  if (!premove) return;
  for (const c of [premove.from, premove.to]) {
    const g = c && document.querySelector(`#board [data-cell="${c}"]`);
    if (!g) continue;
    const o = document.createElementNS(NS, 'polygon');
    o.setAttribute('points', g.querySelector('polygon').getAttribute('points'));
    o.setAttribute('class', 'premove');
    g.appendChild(o);
  }
}

function onState(msg) {
  const samePly = state && state.ply === msg.ply && state.plies === msg.plies;
  soundsFor(state, msg);
  state = msg;
  if (!samePly) pendingCarry = null;
  if (typeof picked === 'string' && picked.length > 1 && !samePly) picked = null;  // a picked cell
  showRoom();
  render();
  if (state.status !== 'running') premove = null;
  markPremove();
  playPremove();
  if (state.result && state.result !== lastResult && state.status === 'over' && state.plies > 0 && state.ply === state.plies) {
    lastResult = state.result;
    const winners = state.winners.length ? state.winners.join(' and ') + (state.winners.length > 1 ? ' win' : ' wins') : 'Draw';
    $('result-text').textContent = `${winners}: ${state.result} (${state.termination})`;
    if (!$('result-dialog').open) $('result-dialog').showModal?.();
  }
}

function movesFrom(cell) { return state.legal.filter((m) => m.kind === 'play' && m.from === cell); }

function tryMove(from, to) {
  const ms = movesFrom(from).filter((m) => m.to === to);
  if (ms.length === 1) { send({ type: 'move', move: ms[0].move }); return true; }
  if (ms.length === 2) { pendingCarry = ms; $('carry-choice').hidden = false; return true; }
  return false;
}

function onCellClick(cell) {
  // Not this seat's turn in a two-player game in play: the click makes a premove.
  if (state && state.you && !state.can.move && state.status === 'running' && state.players === 2 &&
      state.phase === 'play' && state.ply === state.plies && !state.blind) { onPremoveClick(cell); return; }
  if (!state || !state.can.move || pendingCarry) return;
  if (state.phase === 'place') {
    if (!picked) { showError('pick a piece from the tray first'); return; }
    const m = state.legal.find((x) => x.kind === 'place' && x.piece === picked && x.to === cell);
    if (m) send({ type: 'move', move: m.move });
    else showError(`a ${picked} may not be placed on ${cell}`);
    return;
  }
  if (state.phase === 'heart') {
    const m = state.legal.find((x) => x.kind === 'heart' && x.to === cell);
    if (!m) { showError(`the heart may not go to ${cell}`); return; }
    // A heart that would stand attacked (a red mark) is placed only once the person confirms.
    if (m.danger && !confirm(`An opposing man could take your heart on ${cell} at once. Place it there anyway?`)) return;
    send({ type: 'move', move: m.move });
    return;
  }
  if (picked && picked !== cell && tryMove(picked, cell)) return;
  if (picked && picked !== cell && !movesFrom(cell).length) showError(`${cell}: not a move for the man on ${picked}`);
  picked = movesFrom(cell).length && picked !== cell ? cell : null;
  markBoard();
}

const NS = 'http://www.w3.org/2000/svg';
function centre(name) {
  const g = document.querySelector(`#board [data-cell="${name}"] polygon`);
  if (!g) return null;
  const b = g.getBBox();
  const p = g.getAttribute('points').trim().split(/\s+/).map((xy) => xy.split(',').map(Number));
  return [(p[0][0] + p[1][0] + p[2][0]) / 3 || b.x + b.width / 2, (p[0][1] + p[1][1] + p[2][1]) / 3 || b.y + b.height / 2];
}

function markBoard() {
  for (const e of document.querySelectorAll('#board .dot, #board .picked-outline')) e.remove();
  for (const g of document.querySelectorAll('#board [data-cell]')) g.classList.remove('dest', 'picked');
  if (!state || !state.can.move) return;
  let dests = [];
  if (state.phase === 'play' && picked) {
    const g = document.querySelector(`#board [data-cell="${picked}"]`);
    if (g) {
      g.classList.add('picked');
      const o = document.createElementNS(NS, 'polygon');
      o.setAttribute('points', g.querySelector('polygon').getAttribute('points'));
      o.setAttribute('class', 'picked-outline');
      g.appendChild(o);
    }
    dests = movesFrom(picked).map((m) => m.to);
  } else if (state.phase === 'place' && picked) {
    dests = state.legal.filter((m) => m.piece === picked).map((m) => m.to);
  } else if (state.phase === 'heart') {
    dests = state.legal.filter((m) => m.kind === 'heart').map((m) => m.to);
  }
  for (const d of new Set(dests)) {
    const g = document.querySelector(`#board [data-cell="${d}"]`);
    const c = centre(d);
    if (!g || !c) continue;
    g.classList.add('dest');
    const dot = document.createElementNS(NS, 'circle');
    const capture = !!g.querySelector('[data-man]');
    const risky = state.phase === 'heart' && state.legal.some((m) => m.kind === 'heart' && m.to === d && m.danger);
    dot.setAttribute('class', 'dot' + (capture ? ' capture' : '') + (risky ? ' danger' : ''));
    if (risky) { const t = document.createElementNS(NS, 'title'); t.textContent = `${d}: your heart would stand attacked here`; dot.appendChild(t); }
    dot.setAttribute('cx', c[0]); dot.setAttribute('cy', c[1]); dot.setAttribute('r', capture ? 17 : 6);
    g.appendChild(dot);
    // Kinta: an attack shows the odds of its fight before the person commits (SPEC 26).
    const attack = state.phase === 'play' && picked && movesFrom(picked).find((m) => m.to === d && m.odds);
    if (attack) {
      const t = document.createElementNS(NS, 'text');
      t.setAttribute('class', 'odds');
      t.setAttribute('x', c[0]); t.setAttribute('y', c[1] + 26);
      t.setAttribute('text-anchor', 'middle');
      t.textContent = Math.round(attack.odds.win * 100) + '%';
      const title = document.createElementNS(NS, 'title');
      title.textContent = `wins ${(attack.odds.win * 100).toFixed(1)}%: left with about ${attack.odds.a} if it wins; the defender with about ${attack.odds.d} if it loses`;
      t.appendChild(title);
      g.appendChild(t);
    }
  }
}

// Kinta: the fights to tell (SPEC 26), each a block of the panel, round by round with the
// strengths falling: stepping through the game, the fight of the move shown; at the live end,
// the fights of the last turn round, so that a person's own attack is still told after the
// others have moved. A fight just fought (newer than any ply this page saw before) is revealed
// a round at a time; a block already drawn is kept as it is, its telling not restarted.
const fightBlocks = new Map();  // fightKey(f) -> {block, timer}
let fightsSeenPlies = null;     // the plies of the last state of this room, null at a page load
let fightsRoom = null;
const pieceName = { Q: 'Fencer', R: 'Lancer', B: 'Swift', N: 'Flier', P: 'Vanguard', W: 'Blockader' };  // Klin Zha names (SPEC 2)
function fightBlock(f, animate) {
  const who = (x, start) => `${({ g: 'Green', b: 'Blue', k: 'Black' })[x.colour]} ${pieceName[x.piece]} on ${x.cell} (${x.strength}${start !== x.strength ? ', ' + start + ' with its heart' : ''})`;
  const block = document.createElement('div');
  block.className = 'fight-block';
  block.dataset.ply = f.ply;
  const title = document.createElement('div');
  title.className = 'fight-title';
  title.textContent = `Move ${f.ply}: ${who(f.attacker, f.a_start)} attacks ${who(f.defender, f.d_start)}; the odds gave the attacker ${(f.win * 100).toFixed(1)}%`;
  const table = document.createElement('table');
  table.innerHTML = '<thead><tr><th>Round</th><th>Spindles</th><th>Damage</th><th>Attacker</th><th>Defender</th></tr></thead>';
  const tb = document.createElement('tbody');
  tb.className = 'fight-rounds';
  table.appendChild(tb);
  const res = document.createElement('div');
  res.className = 'fight-result';
  block.append(title, table, res);
  const bar = (v, max, cls) => {
    const d = document.createElement('div');
    d.className = 'bar ' + cls;
    const i = document.createElement('span');
    i.style.width = Math.max(0, Math.min(100, (100 * v) / max)) + '%';
    d.append(i, ' ' + Math.max(0, v));
    return d;
  };
  const rows = f.rounds.map((r, i) => {
    const tr = document.createElement('tr');
    const [x, y, z] = r.spindles;
    tr.insertCell().textContent = i + 1;
    tr.insertCell().textContent = `${r.two} casts ${x},${y}; ${r.two === 'A' ? 'D' : 'A'} casts ${z}`;
    tr.insertCell().textContent = r.damage ? `${r.hit} loses ${r.damage}` : 'no damage';
    tr.insertCell().appendChild(bar(r.a, f.a_start, 'a'));
    tr.insertCell().appendChild(bar(r.d, f.d_start, 'd'));
    return tr;
  });
  const result = `${f.winner === 'A' ? 'The attacker' : 'The defender'} wins, left with ${f.strength}.`;
  const entry = { block, timer: null };
  if (!animate) { tb.append(...rows); res.textContent = result; return entry; }
  let k = 0;
  const step = () => {
    if (k < rows.length) { tb.appendChild(rows[k++]); entry.timer = setTimeout(step, 350); }
    else res.textContent = result;
  };
  step();
  return entry;
}
// (a take-back and another attack at the same ply make another fight)
const fightKey = (f) => `${state.room}:${f.ply}:${JSON.stringify(f.rounds)}`;
function renderFight() {
  const box = $('fight');
  if (fightsRoom !== state.room) { fightsRoom = state.room; fightsSeenPlies = null; }
  const live = state.ply === state.plies;
  const fights = state.fights || [];
  const keys = new Set(fights.map(fightKey));
  for (const [key, e] of fightBlocks) {
    if (!keys.has(key)) { clearTimeout(e.timer); e.block.remove(); fightBlocks.delete(key); }
  }
  for (const f of fights) {
    const key = fightKey(f);
    if (!fightBlocks.has(key)) {
      const animate = live && fightsSeenPlies !== null && f.ply > fightsSeenPlies;
      fightBlocks.set(key, fightBlock(f, animate));
    }
  }
  // (in the order of the game)
  box.replaceChildren(...fights.map((f) => fightBlocks.get(fightKey(f)).block));
  box.hidden = fights.length === 0;
  fightsSeenPlies = state.plies;
}

// The room's chat: each line as text (never markup), the speaker's name and colour before it.
function renderChat() {
  $('chat-box').hidden = !welcome || welcome.chat === false;
  const ol = $('chat');
  const lines = state.chat || [];
  if (ol.children.length === lines.length && ol.dataset.last === JSON.stringify(lines.at(-1) || null)) return;
  ol.replaceChildren(...lines.map((l) => {
    const li = document.createElement('li');
    const who = document.createElement('b');
    who.textContent = l.name + (l.colour ? ` (${l.colour})` : '') + ': ';
    if (l.colour) who.className = 'chat-' + l.colour;
    li.append(who, document.createTextNode(l.text));
    return li;
  }));
  ol.dataset.last = JSON.stringify(lines.at(-1) || null);
  ol.scrollTop = ol.scrollHeight;
}

// Scores from one side everywhere (the analysis's convention): an engine's comment gives its
// score for the mover (`+3.10/12 0.5s`, `-M2/5`); in two players a Blue move's score is
// turned to Green's. In three players each score stays the mover's own standing.
function oneSide(comment, mover) {
  if (!state || state.players !== 2 || mover !== 'b') return comment;
  return comment.replace(/^([+-])(M?\d+(\.\d+)?)/, (_, sign, v) => (sign === '+' ? '-' : '+') + v);
}

// The men's names (SPEC 2): the letter a record writes, its name, and the Klin Zha name.
const RH_NAMES = { Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn', W: 'wall' };
const PIECE_NAMES = Object.fromEntries(Object.keys(RH_NAMES).map((k) => [k, `${RH_NAMES[k]} (${pieceName[k]})`]));

function renderTray() {
  const tray = $('tray');
  tray.innerHTML = '';
  if (!state.can.move || state.phase !== 'place') { $('hint').textContent = state.can.move && state.phase === 'heart' ? 'Place your heart: click a marked cell.' : ''; return; }
  const counts = {};
  for (const m of state.legal) if (m.kind === 'place') counts[m.piece] = (counts[m.piece] || 0) + 1;
  if (picked && !counts[picked]) picked = null;
  if (!picked) picked = Object.keys(counts)[0] || null;  // the tray keeps its pick
  for (const p of Object.keys(counts)) {
    const b = document.createElement('button');
    b.textContent = p;
    b.dataset.piece = p;
    b.textContent = `${p} ${PIECE_NAMES[p] || ''}`;
    b.title = `${PIECE_NAMES[p] || p}: ${counts[p]} cells to place it on`;
    if (picked === p) b.classList.add('picked');
    b.onclick = () => { picked = p; renderTray(); markBoard(); };
    tray.appendChild(b);
  }
  $('hint').textContent = `Place your ${PIECE_NAMES[picked] || picked}: click a marked cell (or pick another piece).`;
}

function fmtClock(ms) {
  if (ms === null || ms === undefined) return '–';
  const neg = ms < 0; ms = Math.abs(ms);
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  return (neg ? '-' : '') + m + ':' + String(s % 60).padStart(2, '0') + (s < 20 ? '.' + Math.floor((ms % 1000) / 100) : '');
}

let clockBase = 0;
function renderPlayers() {
  const box = $('players-box');
  box.innerHTML = '';
  if (!state) return;
  const elapsed = performance.now() - clockBase;
  state.seats.forEach((s, i) => {
    const d = document.createElement('div');
    d.className = `player ${s.colour}` + (state.to_move === s.colour && state.status === 'running' ? ' to-move' : '') +
      (state.clock_running === s.colour ? ' running' : '');
    d.id = 'player-' + s.colour;
    const who = document.createElement('div');
    const name = s.free ? '(free seat)' : s.name + (s.kind === 'engine' ? ' (engine)' : '');
    who.textContent = `${({ g: 'Green', b: 'Blue', k: 'Black' })[s.colour]}: ${name}` + (state.you === s.colour ? ' — you' : '') +
      (s.outcome ? ` · ${s.outcome}` : '') + (!s.in && state.status === 'running' ? ' · out' : '');
    if (s.free && state.can.sit) {
      const b = document.createElement('button');
      b.textContent = 'Sit here';
      b.className = 'sit';
      b.dataset.colour = s.colour;
      b.onclick = () => send({ type: 'sit', colour: s.colour, name: localStorage.getItem('klinzha-name') || 'Player' });
      who.append(' ', b);
    }
    if (!s.present && !s.free) { const a = document.createElement('span'); a.className = 'absent'; a.textContent = ' (away)'; who.appendChild(a); }
    if (s.draw_offer) { const a = document.createElement('span'); a.className = 'offer'; a.textContent = ' offers a draw'; who.appendChild(a); }
    const clock = document.createElement('div');
    clock.className = 'clock';
    clock.id = 'clock-' + s.colour;
    let ms = state.clocks[i];
    if (ms !== null && state.clock_running === s.colour) ms -= elapsed;
    clock.textContent = fmtClock(ms);
    d.append(who, clock);
    box.appendChild(d);
  });
}
setInterval(() => { if (state && state.clock_running) renderPlayers(); }, 200);

function renderActions() {
  const c = state.can, me = state.you;
  const others = state.seats.filter((s) => s.colour !== me);
  const offered = others.some((s) => s.draw_offer);
  $('resign').hidden = !c.resign;
  $('offer-draw').hidden = !c.draw || offered;
  $('accept-draw').hidden = !(c.draw && offered);
  $('decline-draw').hidden = !(me && offered && state.status === 'running');
  $('ask-takeback').hidden = !c.takeback || !!state.takeback_by;
  $('accept-takeback').hidden = !(me && state.takeback_by && state.takeback_by !== me);
  $('decline-takeback').hidden = $('accept-takeback').hidden;
  // Who asks for the take-back, said beside the buttons.
  const asker = state.takeback_by && state.seats.find((s) => s.colour === state.takeback_by);
  $('takeback-by').textContent = asker ? (asker.colour === me ? 'You ask to take back your last move.' : `${asker.name || asker.colour} asks to take back their last move.`) : '';
  $('abort').hidden = !c.abort;
  $('play-on').hidden = !c.play_on;
  $('rematch').hidden = !c.rematch;
  $('hint-button').hidden = !(c.move && c.analyse && state.phase === 'play');
  $('result-rematch').hidden = !c.rematch;
  $('join-rematch').hidden = !state.rematch || state.rematch === roomId;
  $('analyse').disabled = !c.analyse;
  $('review').disabled = !c.analyse || state.status === 'running';
}

function render() {
  clockBase = performance.now();
  $('board').innerHTML = state.svg;
  for (const g of document.querySelectorAll('#board [data-cell]')) {
    g.addEventListener('click', () => onCellClick(g.dataset.cell));
    g.addEventListener('pointerdown', (e) => { dragFrom = g.dataset.cell; e.preventDefault(); });
  }
  // A heart in danger (an opposing man could take it now) is ringed in red, as check is.
  for (const cell of state.danger || []) {
    const g = document.querySelector(`#board [data-cell="${cell}"]`);
    if (!g) continue;
    const o = document.createElementNS(NS, 'polygon');
    o.setAttribute('points', g.querySelector('polygon').getAttribute('points'));
    o.setAttribute('class', 'heart-danger');
    const t = document.createElementNS(NS, 'title');
    t.textContent = `${cell}: this heart is in danger`;
    o.appendChild(t);
    g.appendChild(o);
  }
  renderChat();
  $('fen').textContent = state.fen || '(hidden)';
  $('status').textContent = state.status_text + ((state.danger || []).length ? ' - a heart is in danger' : '');
  $('view').value = state.view;
  $('carry-choice').hidden = !pendingCarry;
  const ol = $('moves');
  ol.innerHTML = '';
  // A player the referee put out (SPEC 7), where it happened: `k out: resigned`.
  const outAt = (i) => {
    for (const r of (state.removals || []).filter((x) => x.before === i)) {
      const li = document.createElement('li');
      li.className = 'removal';
      li.textContent = `${r.colour} out: ${r.why}`;
      ol.appendChild(li);
    }
  };
  state.moves.forEach((m, i) => {
    outAt(i);
    const li = document.createElement('li');
    const mark = review?.points.find((p) => p.ply === i + 1)?.mark || '';
    li.textContent = `${m.mover}: ${m.san}${mark}`;
    if (m.comment) { const s = document.createElement('span'); s.className = 'comment'; s.textContent = ` {${oneSide(m.comment, m.mover)}}`; li.appendChild(s); }
    if (m.spindles) li.title = m.spindles;
    li.dataset.ply = i + 1;
    if (i + 1 === state.ply) li.classList.add('current');
    li.onclick = () => send({ type: 'goto', ply: i + 1 });
    ol.appendChild(li);
  });
  outAt(state.moves.length);
  ol.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  // Blind (SPEC 25): what the arbiter told this seat, the refused proposals last.
  $('told').hidden = !state.told;
  if (state.told) {
    const tl = $('told-list');
    tl.innerHTML = '';
    for (const line of state.told) {
      const li = document.createElement('li');
      li.textContent = line;
      if (line.startsWith('refused')) li.className = 'refused';
      tl.appendChild(li);
    }
    tl.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }
  renderTray();
  markBoard();
  renderFight();
  renderPlayers();
  renderActions();
  renderAnalysis();
  renderGraph();
}

// Drag and drop: press on a man, release on its destination (click-click works too).
let dragFrom = null;
document.addEventListener('pointerup', (e) => {
  const from = dragFrom;
  dragFrom = null;
  if (!from || !state || !state.can.move || state.phase !== 'play') return;
  const el = document.elementFromPoint(e.clientX, e.clientY)?.closest('[data-cell]');
  if (el && el.dataset.cell !== from && movesFrom(from).length) {
    if (tryMove(from, el.dataset.cell)) { picked = null; markBoard(); }
  }
});

// The evaluation graph of a review (docs/gui.md): the score before each move of the play
// phase, marks where a move lost 50 (?!), 100 (?) or 200 centi-pawns (??) or more; a click
// goes to that move.
function renderGraph() {
  const box = $('graph');
  if (!review || !review.points.length) { box.hidden = true; return; }
  box.hidden = false;
  $('review-status').textContent = review.finished ? '' : `reviewing… ${review.done}/${review.plies}`;
  // The play phase only (the setup's moves are not scored): from the position before the
  // first scored move to the last.
  const W = 600, H = 90, clamp = 5;
  const first = review.points[0].ply - 1, n = Math.max(review.plies - first, 2);
  const x = (ply) => ((ply - first) / n) * W;
  const y = (p) => H / 2 - (Math.max(-clamp, Math.min(clamp, p)) / clamp) * (H / 2 - 4);
  const pts = review.points.map((p) => `${x(p.ply).toFixed(1)},${y(p.pawns).toFixed(1)}`).join(' ');
  const colour = { '?!': '#d4a000', '?': '#e06000', '??': '#c00020' };
  let marks = '';
  for (const p of review.points)
    if (p.mark) marks += `<circle cx="${x(p.ply).toFixed(1)}" cy="${y(p.pawns).toFixed(1)}" r="4" fill="${colour[p.mark]}"><title>${p.ply}. ${p.san}${p.mark} (best ${p.best})</title></circle>`;
  const cur = state ? `<line x1="${x(state.ply)}" x2="${x(state.ply)}" y1="0" y2="${H}" stroke="#1a6fb0"/>` : '';
  const pov = review.points[0].pov === review.points[review.points.length - 1].pov ? `score for ${review.points[0].pov}` : 'score for the mover';
  box.innerHTML = `<svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" width="100%" height="90"><rect width="${W}" height="${H}" fill="#fff"/><line x1="0" x2="${W}" y1="${H / 2}" y2="${H / 2}" stroke="#ccc"/>${cur}<polyline points="${pts}" fill="none" stroke="#222" stroke-width="1.5"/>${marks}<text x="4" y="12" font-size="10" fill="#777">${pov} (pawns, +-${clamp})</text></svg>`;
  box.onclick = (e) => {
    const r = box.getBoundingClientRect();
    const ply = first + Math.round(((e.clientX - r.left) / r.width) * n);
    go(ply);
  };
  renderReviewSummary();
}

// The review's summary per player, as `klinzha analyse --record` prints it: moves scored,
// average loss (centi-pawns), inaccuracies (?!), mistakes (?) and blunders (??).
function renderReviewSummary() {
  const t = $('review-summary');
  t.innerHTML = '';
  if (!review || !review.points.length) { t.hidden = true; return; }
  t.hidden = false;
  const head = t.insertRow();
  for (const h of ['', 'moves', 'average loss', '?!', '?', '??']) { const th = document.createElement('th'); th.textContent = h; head.appendChild(th); }
  for (const c of 'gbk'.slice(0, state ? state.players : 2)) {
    const ps = review.points.filter((p) => p.mover === c);
    if (!ps.length) continue;
    const seat = state && state.seats.find((s) => s.colour === c);
    const avg = ps.reduce((a, p) => a + (p.loss || 0), 0) / ps.length;
    const tr = t.insertRow();
    for (const v of [seat && seat.name ? seat.name : c, ps.length, `${Math.round(avg)} cp`,
      ps.filter((p) => p.mark === '?!').length, ps.filter((p) => p.mark === '?').length, ps.filter((p) => p.mark === '??').length])
      tr.insertCell().textContent = v;
  }
}

function renderAnalysis() {
  const t = $('analysis');
  t.innerHTML = '';
  document.querySelector('#board .best-arrow')?.remove();
  if (!analysis || !state || !analysis.fen || analysis.fen !== state.fen) return;
  for (const l of analysis.lines) {
    const tr = t.insertRow();
    tr.className = 'line';
    const score = l.mate !== undefined ? `#${l.mate}` : l.pawns !== undefined ? (l.pawns > 0 ? '+' : '') + l.pawns.toFixed(2) : l.score;
    // Kinta: a line that starts with an attack shows the engine's odds of its fight.
    const odds = l.odds ? `wins ${(l.odds.win * 100).toFixed(0)}%` : '';
    for (const v of [l.multipv, `${score} (${l.pov})`, 'd' + l.depth, odds, l.san]) tr.insertCell().textContent = v ?? '';
  }
  const best = analysis.lines.find((l) => l.multipv === 1);
  if (!best || !best.pv.length) return;
  const cells = best.pv[0].match(/[a-i][1-9][1-9]/g) || [];
  if (cells.length < 2) return;
  const a = centre(cells[0]), b = centre(cells[1]);
  const svg = document.querySelector('#board svg');
  if (!a || !b || !svg) return;
  let defs = svg.querySelector('#arrow-head');
  if (!defs) {
    const d = document.createElementNS(NS, 'defs');
    d.innerHTML = '<marker id="arrow-head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#c0006a"/></marker>';
    svg.appendChild(d);
  }
  const line = document.createElementNS(NS, 'line');
  line.setAttribute('class', 'best-arrow');
  line.setAttribute('x1', a[0]); line.setAttribute('y1', a[1]);
  line.setAttribute('x2', b[0]); line.setAttribute('y2', b[1]);
  line.setAttribute('stroke', '#c0006a'); line.setAttribute('stroke-opacity', '0.7'); line.setAttribute('stroke-width', '6');
  line.setAttribute('marker-end', 'url(#arrow-head)');
  line.setAttribute('pointer-events', 'none');
  svg.appendChild(line);
}

function go(ply) { if (state) send({ type: 'goto', ply: Math.max(0, Math.min(state.plies, ply)) }); }

window.addEventListener('DOMContentLoaded', () => {
  $('players').onchange = fillSeats;
  $('create').onclick = createRoom;
  $('newgame').onsubmit = (e) => { e.preventDefault(); createRoom(); };
  $('refresh').onclick = () => send({ type: 'lobby' });
  // (The lobby keeps itself up to date: the server pushes the list when it changes.)
  $('load').onclick = () => { $('load-game').hidden = true; send({ type: 'load', record: $('load-record').value }); };
  $('copy-fen').onclick = () => navigator.clipboard?.writeText(state?.fen || '').catch(() => {});
  $('view').onchange = () => send({ type: 'view', colour: $('view').value });
  $('save').onclick = () => send({ type: 'save' });
  $('first').onclick = () => go(0);
  $('back').onclick = () => state && go(state.ply - 1);
  $('fwd').onclick = () => state && go(state.ply + 1);
  $('last').onclick = () => state && go(state.plies);
  document.addEventListener('keydown', (e) => {
    if (!state || $('room').hidden || ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName)) return;
    const k = { ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: state.plies }[e.key];
    if (k !== undefined) { go(k); e.preventDefault(); }
  });
  $('resign').onclick = () => { if (confirm('Resign this game?')) send({ type: 'resign' }); };
  $('offer-draw').onclick = () => send({ type: 'draw', action: 'offer' });
  $('accept-draw').onclick = () => send({ type: 'draw', action: 'accept' });
  $('decline-draw').onclick = () => send({ type: 'draw', action: 'decline' });
  $('ask-takeback').onclick = () => send({ type: 'takeback', action: 'ask' });
  $('accept-takeback').onclick = () => send({ type: 'takeback', action: 'accept' });
  $('decline-takeback').onclick = () => send({ type: 'takeback', action: 'decline' });
  $('abort').onclick = () => send({ type: 'abort' });
  $('play-on').onclick = () => {
    // The seats as the lobby's form last had them (you, then the first engine).
    const n = state.players;
    const seats = [], sit = state.to_move;
    for (let i = 0; i < n; ++i) seats.push('gbk'[i] === sit ? { kind: 'person' } : (welcome.engines.length ? { kind: 'engine', engine: welcome.engines[0].name } : { kind: 'person' }));
    // (the clock, the engines' time, options and level stay as the room had them)
    send({ type: 'create', from_room: state.room, ply: state.ply, seats, sit, name: localStorage.getItem('klinzha-name') || 'Player' });
  };
  $('rematch').onclick = () => send({ type: 'rematch' });
  // A hint (games against engines): the analysis engine's best move as an arrow for 3 s.
  $('hint-button').onclick = () => {
    send({ type: 'hint', engine: $('analysis-engine').value });
    setTimeout(() => send({ type: 'analyse', on: false }), 3000);
  };
  const muteLabel = () => { $('mute').textContent = localStorage.getItem('klinzha-mute') === '1' ? 'Sound off' : 'Sound on'; };
  $('mute').onclick = () => { localStorage.setItem('klinzha-mute', localStorage.getItem('klinzha-mute') === '1' ? '0' : '1'); muteLabel(); };
  muteLabel();
  $('chat-text').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || !$('chat-text').value.trim()) return;
    send({ type: 'chat', text: $('chat-text').value });
    $('chat-text').value = '';
  });
  $('join-rematch').onclick = () => { if (state.rematch) location.href = '/game/' + state.rematch; };
  $('analyse').onclick = () => send({ type: 'analyse', on: true, engine: $('analysis-engine').value, multipv: Number($('multipv').value) || 2 });
  $('analyse-stop').onclick = () => send({ type: 'analyse', on: false });
  $('review').onclick = () => { review = null; send({ type: 'review', on: true, engine: $('analysis-engine').value, depth: 5 }); };
  $('result-close').onclick = () => $('result-dialog').close();
  $('result-rematch').onclick = () => { $('result-dialog').close(); send({ type: 'rematch' }); };
  const carry = (withHeart) => { if (pendingCarry) send({ type: 'move', move: pendingCarry.find((m) => m.carry === withHeart).move }); pendingCarry = null; $('carry-choice').hidden = true; };
  $('carry-yes').onclick = () => carry(true);
  $('carry-no').onclick = () => carry(false);
  $('carry-cancel').onclick = () => { pendingCarry = null; picked = null; $('carry-choice').hidden = true; markBoard(); };
  window.addEventListener('popstate', () => location.reload());
  connect();
});
