// klinzha-gui: the Learn page (learn.html, docs/gui.md). It computes no rule: a man's
// destinations and an exercise's verdict come from the server (`learn_moves`, `exercise`,
// `exercise_move`; tools/gui/learn.h).
const $ = (id) => document.getElementById(id);
let ws = null;
const pending = [];  // messages written before the socket opened

function send(msg) {
  if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg));
  else pending.push(msg);
}

function showError(text) {
  const d = document.createElement('div');
  d.className = 'error';
  d.textContent = text;
  $('errors').appendChild(d);
  setTimeout(() => d.remove(), 6000);
}

// The men (SPEC 2): letter, name, Klin Zha name, steps, carrier; and a glyph apart from the
// board's letters, to tell them apart at a glance.
const PIECES = [
  ['Q', '\u265B', 'queen', 'Fencer', '1, 2 or 3, any path', 'yes'],
  ['R', '\u265C', 'rook', 'Lancer', '1, 2 or 3, straight', 'yes'],
  ['B', '\u265D', 'bishop', 'Swift', '2, 3 or 4, any path', 'no'],
  ['N', '\u265E', 'knight', 'Flier', '3 to 6, straight, jumping', 'no'],
  ['P', '\u265F', 'pawn', 'Vanguard', '1', 'yes'],
  ['W', '\u25A0', 'wall', 'Blockader', '1 or 2, any path', 'no'],
];
const pieceFen = (letter) => `2 Hi99,Pi99,${letter}f48 Hi11,Pi12 - g play 0 1`;
const LESSONS = {
  'board-board': { fen: '2 Hi99,Pi99 Hi11,Pi12 - g play 0 1', cell: '', view: 'k' },
  'board-pieces': { fen: pieceFen('Q'), cell: 'f48', view: 'k' },
  'board-wall': { fen: '2 Hi99,Pi99,Wf48 Hi11,Pi12,Qd38 - b play 0 1', cell: 'd38', view: 'k' },
  'board-heart': { fen: '2 Hf48,Pf48,Pi99 Hi11,Pi12 - g play 0 1', cell: 'f48', view: 'k' },
};

function lesson(tag) {
  const l = LESSONS[tag];
  send({ type: 'learn_moves', fen: l.fen, cell: l.cell, view: l.view, tag });
}

function fillPieces() {
  const body = $('pieces').tBodies[0];
  for (const [letter, glyph, name, kz, steps, carrier] of PIECES) {
    const tr = body.insertRow();
    tr.className = 'piece';
    tr.dataset.piece = letter;
    for (const [text, cls] of [[glyph, 'glyph'], [letter, ''], [name, ''], [kz, ''], [steps, ''], [carrier, '']]) {
      const td = tr.insertCell();
      td.textContent = text;
      if (cls) td.className = cls;
    }
    tr.onclick = () => {
      for (const r of body.rows) r.classList.toggle('picked', r === tr);
      LESSONS['board-pieces'].fen = pieceFen(letter);
      lesson('board-pieces');
    };
  }
  body.rows[0].classList.add('picked');
}

// Exercises: the first click picks a man (the server marks its destinations), the second
// plays the move to a marked cell; the server says whether it solves the exercise.
const ex = { list: [], id: null, fen: null, picked: null, moves: [], done: false };

function startExercise(id) {
  ex.id = id; ex.fen = null; ex.picked = null; ex.moves = []; ex.done = false;  // (no clicks until it comes)
  $('exercise-verdict').textContent = '';
  $('exercise-verdict').className = 'verdict';
  send({ type: 'exercise', id });
}

function clickExercise(cell) {
  if (ex.done || !ex.fen) return;
  const to = ex.moves.filter((m) => m.slice(3, 6) === cell);
  if (ex.picked && to.length) {
    // A carrier's move to a cell comes with and without the heart: carry it along.
    const move = to.find((m) => m.endsWith('h')) || to[0];
    send({ type: 'exercise_move', id: ex.id, move });
    return;
  }
  ex.picked = cell;
  send({ type: 'learn_moves', fen: ex.fen, cell, view: ex.view, tag: 'exercise-pick' });
}

function showBoard(id, svg, onclick) {
  const box = $(id);
  box.innerHTML = svg;
  if (onclick)
    for (const g of box.querySelectorAll('[data-cell]')) g.addEventListener('click', () => onclick(g.dataset.cell));
}

function onMessage(msg) {
  switch (msg.type) {
    case 'learn_moves':
      if (msg.tag === 'exercise-pick') {
        ex.moves = msg.moves;
        if (!msg.moves.length) ex.picked = null;
        showBoard('board-exercise', msg.svg, clickExercise);
      } else if (msg.tag) {
        showBoard(msg.tag, msg.svg);
      }
      break;
    case 'exercise':
      ex.fen = msg.fen;
      ex.view = msg.fen.split(' ').at(-4);  // the player to move (SPEC 10)
      $('exercise-title').textContent = msg.title;
      $('exercise-text').textContent = msg.text;
      showBoard('board-exercise', msg.svg, clickExercise);
      break;
    case 'exercise_move':
      ex.done = msg.solved;
      $('exercise-verdict').textContent = msg.why;
      $('exercise-verdict').className = 'verdict ' + (msg.solved ? 'solved' : 'failed');
      showBoard('board-exercise', msg.svg, msg.solved ? null : () => startExercise(ex.id));
      break;
    case 'error':
      if (ex.picked && msg.message.startsWith('learn_moves')) ex.picked = null;
      else showError(msg.message);
      break;
  }
}

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  ws = new WebSocket(`${scheme}://${location.host}/ws`);
  ws.onopen = () => { while (pending.length) ws.send(JSON.stringify(pending.shift())); };
  ws.onmessage = (e) => onMessage(JSON.parse(e.data));
  ws.onclose = () => { $('status').textContent = 'Disconnected: reconnecting…'; setTimeout(connect, 1500); };
}

const EXERCISES = [['take-rook', 'Take the heart'], ['take-flier', 'A flier jumps'], ['save-capture', 'Save your heart']];
fillPieces();
for (const [id, title] of EXERCISES) $('exercise').add(new Option(title, id));
$('exercise').onchange = () => startExercise($('exercise').value);
$('exercise-again').onclick = () => startExercise(ex.id);
connect();
for (const tag of Object.keys(LESSONS)) lesson(tag);
startExercise(EXERCISES[0][0]);
