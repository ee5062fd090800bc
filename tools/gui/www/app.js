// klinzha-gui page logic (docs/gui.md). The server draws the board (the same SVG code as
// `klinzha svg`) and referees the game; this module only shows what the server sends and
// turns clicks into the WebSocket messages of docs/gui.md.
const $ = (id) => document.getElementById(id);
let ws = null;
let state = null;        // the last "state" message
let welcome = null;      // the "welcome" message: engines, rules, variants
let picked = null;       // a picked cell (play) or piece letter (placement)
let pendingCarry = null; // [leave, carry] moves waiting for the person's choice
let analysis = null;     // the last "analysis" message

// For tests and other tools driving the page (docs/gui.md): the last state and analysis.
window.klinzha = { get state() { return state; }, get analysis() { return analysis; } };

function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }

function showError(text) {
  const d = document.createElement('div');
  d.textContent = text;
  $('errors').prepend(d);
  while ($('errors').children.length > 5) $('errors').lastChild.remove();
}

function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onopen = () => send({ type: 'hello' });
  ws.onclose = () => { $('status').textContent = 'Disconnected from klinzha-gui (reload to reconnect)'; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === 'welcome') { welcome = msg; fillForms(); }
    else if (msg.type === 'state') { state = msg; picked = null; pendingCarry = null; render(); }
    else if (msg.type === 'analysis') { analysis = msg; renderAnalysis(); }
    else if (msg.type === 'record') { $('record').value = msg.pgn; }
    else if (msg.type === 'error') { showError(msg.message); }
  };
}

function fillForms() {
  const v = $('variant');
  v.innerHTML = '';
  for (const name of welcome.variants) v.add(new Option(name, name));
  const ae = $('analysis-engine');
  ae.innerHTML = '';
  for (const e of welcome.engines) ae.add(new Option(e.name, e.name));
  const rules = $('rules');
  rules.innerHTML = '';
  for (const r of welcome.rules) {
    const l = document.createElement('label');
    l.title = r.help;
    l.textContent = r.name + ' ';
    const i = document.createElement('input');
    i.size = 8; i.dataset.rule = r.name; i.placeholder = r.default;
    l.appendChild(i);
    rules.appendChild(l);
  }
  const eo = $('engine-options');
  eo.innerHTML = '';
  for (const e of welcome.engines)
    for (const o of e.options) {
      if (o.type === 'button') continue;
      const l = document.createElement('label');
      l.textContent = `${e.name}: ${o.name} `;
      const i = document.createElement('input');
      i.size = 8; i.dataset.engine = e.name; i.dataset.option = o.name; i.placeholder = o.default;
      l.appendChild(i);
      eo.appendChild(l);
    }
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
    s.add(new Option('human', 'human'));
    for (const e of welcome.engines) s.add(new Option(e.name, e.name));
    if (i > 0 && welcome.engines.length) s.selectedIndex = 1;
    l.appendChild(s);
    seats.appendChild(l);
  });
}

function newGame() {
  const n = Number($('players').value);
  const seats = [];
  for (let i = 0; i < n; ++i) seats.push($('seat-' + i).value);
  const rules = {};
  for (const i of document.querySelectorAll('#rules input')) if (i.value) rules[i.dataset.rule] = i.value;
  const engine_options = {};
  for (const i of document.querySelectorAll('#engine-options input'))
    if (i.value) (engine_options[i.dataset.engine] ??= {})[i.dataset.option] = i.value;
  send({ type: 'new_game', players: n, seats, variant: $('variant').value, rules, engine_options,
         tc: $('tc').value.trim(), delay: Number($('delay').value) || 0,
         movetime: Number($('movetime').value) || 1000 });
}

function movesFrom(cell) { return state.legal.filter((m) => m.kind === 'play' && m.from === cell); }

function onCellClick(cell) {
  if (!state || !state.human_to_move || pendingCarry) return;
  if (state.phase === 'place') {
    if (!picked) { showError('pick a piece from the tray first'); return; }
    const m = state.legal.find((x) => x.kind === 'place' && x.piece === picked && x.to === cell);
    if (m) send({ type: 'move', move: m.move });
    return;
  }
  if (state.phase === 'heart') {
    const m = state.legal.find((x) => x.kind === 'heart' && x.to === cell);
    if (m) send({ type: 'move', move: m.move });
    return;
  }
  if (picked) {
    const ms = movesFrom(picked).filter((m) => m.to === cell);
    if (ms.length === 1) { send({ type: 'move', move: ms[0].move }); return; }
    if (ms.length === 2) {  // carry the heart or leave it: ask
      pendingCarry = ms;
      $('carry-choice').hidden = false;
      return;
    }
  }
  picked = movesFrom(cell).length ? cell : null;
  markBoard();
}

function markBoard() {
  for (const g of document.querySelectorAll('#board [data-cell]')) g.classList.remove('dest', 'picked');
  if (!state) return;
  let dests = [];
  if (state.phase === 'play' && picked) {
    document.querySelector(`#board [data-cell="${picked}"]`)?.classList.add('picked');
    dests = movesFrom(picked).map((m) => m.to);
  } else if (state.phase === 'place' && picked) {
    dests = state.legal.filter((m) => m.piece === picked).map((m) => m.to);
  } else if (state.phase === 'heart' && state.human_to_move) {
    dests = state.legal.filter((m) => m.kind === 'heart').map((m) => m.to);
  }
  for (const d of dests) document.querySelector(`#board [data-cell="${d}"]`)?.classList.add('dest');
}

function renderTray() {
  const tray = $('tray');
  tray.innerHTML = '';
  if (!state.human_to_move || state.phase !== 'place') return;
  const counts = {};
  for (const m of state.legal) if (m.kind === 'place') counts[m.piece] = true;
  for (const p of Object.keys(counts)) {
    const b = document.createElement('button');
    b.textContent = p;
    b.dataset.piece = p;
    if (picked === p) b.classList.add('picked');
    b.onclick = () => { picked = p; renderTray(); markBoard(); };
    tray.appendChild(b);
  }
}

function fmtClock(ms) {
  if (ms === null) return '–';
  const neg = ms < 0; ms = Math.abs(ms);
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  return (neg ? '-' : '') + m + ':' + String(s % 60).padStart(2, '0') + '.' + Math.floor((ms % 1000) / 100);
}

let clockBase = 0;
function renderClocks() {
  const el = $('clocks');
  el.innerHTML = '';
  if (!state) return;
  const elapsed = performance.now() - clockBase;
  state.seats.forEach((s, i) => {
    const span = document.createElement('span');
    span.id = 'clock-' + s.colour;
    let ms = state.clocks[i];
    if (ms !== null && state.clock_running === s.colour) ms -= elapsed;
    if (state.clock_running === s.colour) span.classList.add('running');
    span.textContent = `${s.colour} ${s.name}: ${fmtClock(ms)}`;
    el.appendChild(span);
  });
}
setInterval(renderClocks, 100);

function render() {
  clockBase = performance.now();
  $('board').innerHTML = state.svg;
  for (const g of document.querySelectorAll('#board [data-cell]'))
    g.addEventListener('click', () => onCellClick(g.dataset.cell));
  $('fen').textContent = state.fen;
  $('status').textContent = state.status;
  $('view').value = state.view;
  $('carry-choice').hidden = true;
  const ol = $('moves');
  ol.innerHTML = '';
  state.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.textContent = `${m.mover}: ${m.san}` + (m.comment ? `  {${m.comment}}` : '');
    li.dataset.ply = i + 1;
    if (i + 1 === state.ply) li.classList.add('current');
    li.onclick = () => send({ type: 'goto', ply: i + 1 });
    ol.appendChild(li);
  });
  ol.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  renderTray();
  markBoard();
  renderClocks();
  renderAnalysis();
}

function cellCentre(name) {
  const g = document.querySelector(`#board [data-cell="${name}"] polygon`);
  if (!g) return null;
  const b = g.getBBox();
  return [b.x + b.width / 2, b.y + b.height / 2];
}

function renderAnalysis() {
  const t = $('analysis');
  t.innerHTML = '';
  document.querySelector('#board .best-arrow')?.remove();
  if (!analysis || !state || analysis.fen !== state.fen) return;
  for (const l of analysis.lines) {
    const tr = t.insertRow();
    tr.className = 'line';
    for (const v of [l.multipv, l.score, 'd' + l.depth, (l.nps ? Math.round(l.nps / 1000) + ' kn/s' : ''), l.san])
      tr.insertCell().textContent = v ?? '';
  }
  const best = analysis.lines.find((l) => l.multipv === 1);
  if (!best || !best.pv.length) return;
  const mv = best.pv[0];
  const cells = mv.match(/[a-i][1-9][1-9]/g) || [];
  if (cells.length < 2) return;
  const a = cellCentre(cells[0]), b = cellCentre(cells[1]);
  const svg = document.querySelector('#board svg');
  if (!a || !b || !svg) return;
  const ns = 'http://www.w3.org/2000/svg';
  const line = document.createElementNS(ns, 'line');
  line.setAttribute('class', 'best-arrow');
  line.setAttribute('x1', a[0]); line.setAttribute('y1', a[1]);
  line.setAttribute('x2', b[0]); line.setAttribute('y2', b[1]);
  line.setAttribute('stroke', '#d0007099'); line.setAttribute('stroke-width', '6');
  line.setAttribute('stroke-linecap', 'round');
  line.setAttribute('pointer-events', 'none');
  svg.appendChild(line);
}

window.addEventListener('DOMContentLoaded', () => {
  $('players').onchange = fillSeats;
  $('start').onclick = newGame;
  $('stop').onclick = () => send({ type: 'stop_game' });
  $('takeback').onclick = () => send({ type: 'takeback' });
  $('set-fen').onclick = () => send({ type: 'set_position', fen: $('fen-input').value.trim() });
  $('copy-fen').onclick = () => { $('fen-input').value = state ? state.fen : ''; navigator.clipboard?.writeText($('fen-input').value).catch(() => {}); };
  $('view').onchange = () => send({ type: 'view', colour: $('view').value });
  $('save').onclick = () => send({ type: 'save' });
  $('load').onclick = () => send({ type: 'load', record: $('record').value });
  $('first').onclick = () => send({ type: 'goto', ply: 0 });
  $('back').onclick = () => state && send({ type: 'goto', ply: Math.max(0, state.ply - 1) });
  $('fwd').onclick = () => state && send({ type: 'goto', ply: Math.min(state.plies, state.ply + 1) });
  $('last').onclick = () => state && send({ type: 'goto', ply: state.plies });
  $('analyse').onclick = () => send({ type: 'analyse', on: true, engine: $('analysis-engine').value, multipv: Number($('multipv').value) || 2 });
  $('analyse-stop').onclick = () => send({ type: 'analyse', on: false });
  $('carry-yes').onclick = () => { if (pendingCarry) send({ type: 'move', move: pendingCarry.find((m) => m.carry).move }); pendingCarry = null; $('carry-choice').hidden = true; };
  $('carry-no').onclick = () => { if (pendingCarry) send({ type: 'move', move: pendingCarry.find((m) => !m.carry).move }); pendingCarry = null; $('carry-choice').hidden = true; };
  connect();
});
