// huntsolve explorer: vanilla JS, no build step. Talks to the JSON API of
// `huntsolve serve` (documented in the README) and draws everything as SVG.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

// The game line: `root` position text, the moves played from it, the current ply.
const S = {
  rules: 'kaooa',
  rules2: '',
  tables: '',
  root: 'start',
  moves: [],
  ply: 0,
  positions: [], // positions[i]: canonical text after i moves (filled as answers arrive)
  answers: new Map(), // key rules|tables|position -> answer
  boards: new Map(), // rules -> geometry
  selected: null, // point name of the piece chosen to move
  partial: [], // landing points clicked so far
  sets: [],
  seq: 0, // guards against out-of-order answers
};

// ---------- API ----------
async function api(path, params) {
  const q = new URLSearchParams(params).toString();
  const r = await fetch(`/api/${path}?${q}`);
  let body;
  try { body = await r.json(); } catch (e) { throw new Error(`${r.status}: not JSON`); }
  if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

async function board(rules) {
  if (!S.boards.has(rules)) S.boards.set(rules, await api('board', { rules }));
  return S.boards.get(rules);
}

async function answer(rules, position, tables) {
  const key = `${rules}|${tables || ''}|${position}`;
  if (S.answers.has(key)) return S.answers.get(key);
  const params = { rules, position };
  if (tables) params.tables = tables;
  const a = await api('position', params);
  S.answers.set(key, a);
  S.answers.set(`${rules}|${tables || ''}|${a.position}`, a);
  return a;
}

// ---------- values and colours ----------
function parseMove(text) {
  if (text === 'pass') return { pass: true, from: null, path: [] };
  if (text.includes('x')) { const p = text.split('x'); return { from: p[0], path: p.slice(1) }; }
  if (text.includes('-')) { const p = text.split('-'); return { from: p[0], path: [p[1]] }; }
  return { from: null, path: [text] };
}

// Colour of a value for the side choosing it, shaded by distance: darker = sooner.
function colour(value, distance) {
  if (value === 'draw') return 'hsl(50, 90%, 52%)';
  if (value !== 'win' && value !== 'loss') return 'hsl(0, 0%, 62%)';
  const d = Math.min(distance ?? 30, 30);
  const light = 24 + (44 * d) / 30;
  return value === 'win' ? `hsl(130, 65%, ${light}%)` : `hsl(4, 75%, ${light}%)`;
}

// Text colour readable on colour(value, distance).
function ink(value, distance) {
  if (value !== 'win' && value !== 'loss') return '#222';
  return Math.min(distance ?? 30, 30) < 18 ? '#fff' : '#222';
}

function valueText(value, distance) {
  if (value === 'draw') return 'draw';
  if (value === 'win' || value === 'loss') return distance == null ? value : `${value} in ${distance}`;
  return '?';
}

const RANK = { win: 0, draw: 1, loss: 2 };
// Better of two moves for the side choosing: wins sooner, draws, losses later, unknown last.
function better(a, b) {
  const ra = RANK[a.value] ?? 3, rb = RANK[b.value] ?? 3;
  if (ra !== rb) return ra < rb;
  if (a.value === 'win') return (a.distance ?? 0) < (b.distance ?? 0);
  if (a.value === 'loss') return (a.distance ?? 0) > (b.distance ?? 0);
  return (a.score ?? 0) > (b.score ?? 0);
}

function bestOf(moves) {
  let best = null;
  for (const m of moves) if (!best || better(m, best)) best = m;
  return best;
}

// ---------- board drawing ----------
function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Screen coordinates of every point: { name: [x, y] } and the viewBox.
function layout(geo) {
  const pos = {};
  if (geo.kind === 'grid') {
    const c = 46, m = 30;
    for (const p of geo.points) pos[p.name] = [m + c * p.x + c / 2, m + c * (geo.n - 1 - p.y) + c / 2];
    const size = 2 * m + c * geo.n;
    return { pos, box: [0, 0, size, size], cell: c, margin: m };
  }
  const xs = geo.points.map((p) => p.x), ys = geo.points.map((p) => p.y);
  const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
  const span = Math.max(maxX - minX, maxY - minY, 1);
  const unit = 400 / span, m = 34;
  for (const p of geo.points) pos[p.name] = [m + unit * (p.x - minX), m + unit * (maxY - p.y)];
  return { pos, box: [0, 0, 2 * m + unit * (maxX - minX), 2 * m + unit * (maxY - minY)], unit };
}

function drawBoard(svg, geo, a, interactive) {
  svg.innerHTML = '';
  const L = layout(geo);
  svg.setAttribute('viewBox', L.box.join(' '));
  svg.dataset.position = a ? a.position : '';
  const defs = el('defs', {}, svg);
  const mk = el('marker', { id: `arrowhead${svg.id}`, markerWidth: 8, markerHeight: 8, refX: 6, refY: 4, orient: 'auto' }, defs);
  el('path', { d: 'M0,0 L8,4 L0,8 z', fill: '#2563eb' }, mk);
  const pieceR = geo.kind === 'grid' ? 17 : Math.min(20, (L.unit || 60) * 0.3);
  if (geo.kind === 'grid') {
    const special = new Set([geo.throne, ...geo.corners]);
    for (const p of geo.points) {
      const [x, y] = L.pos[p.name];
      el('rect', { x: x - L.cell / 2, y: y - L.cell / 2, width: L.cell, height: L.cell,
        class: `cell${special.has(p.name) ? ' special' : ''}` }, svg);
    }
    for (let i = 0; i < geo.n; i++) {
      const file = String.fromCharCode(97 + i);
      const [fx] = L.pos[`${file}1`];
      const [, ry] = L.pos[`a${i + 1}`];
      el('text', { x: fx - 4, y: L.box[3] - 10, class: 'label' }, svg).textContent = file;
      el('text', { x: 8, y: ry + 4, class: 'label' }, svg).textContent = `${i + 1}`;
    }
  } else {
    for (const line of geo.lines) {
      el('polyline', { points: line.map((n) => L.pos[n].join(',')).join(' '), class: 'line' }, svg);
    }
    for (const p of geo.points) {
      const [x, y] = L.pos[p.name];
      el('circle', { cx: x, cy: y, r: 5, class: 'pt' }, svg);
      el('text', { x: x + 8, y: y - 8, class: 'label' }, svg).textContent = p.name;
    }
  }
  if (!a) return;
  const moves = a.moves.map((m) => ({ ...m, ...parseMove(m.move) }));
  // Rings around pieces that can move, coloured by their best move.
  const fromBest = {};
  for (const m of moves) if (m.from && (!fromBest[m.from] || better(m, fromBest[m.from]))) fromBest[m.from] = m;
  for (const [name, letter] of Object.entries(a.pieces)) {
    const [x, y] = L.pos[name];
    el('circle', { cx: x, cy: y, r: pieceR, class: `piece ${letter}`, 'data-piece': letter, 'data-point': name }, svg);
    el('text', { x, y, class: `letter ${letter}` }, svg).textContent = letter;
    const b = fromBest[name];
    if (b && interactive) {
      el('circle', { cx: x, cy: y, r: pieceR + 5, class: `ring${b.source === 'search' ? ' searched' : ''}`,
        stroke: colour(b.value, b.distance), 'data-from': name, 'data-value': b.value || 'unknown' }, svg);
    }
  }
  // Landing points: drops, or the next landing of the selected piece's moves.
  const targets = {};
  const sel = interactive ? S.selected : null;
  for (const m of moves) {
    let next = null;
    if (sel === null && m.from === null && !m.pass) next = m.path[0];
    if (sel !== null && m.from === sel && S.partial.every((p, i) => m.path[i] === p) && m.path.length > S.partial.length) {
      next = m.path[S.partial.length];
    }
    if (next && (!targets[next] || better(m, targets[next]))) targets[next] = m;
  }
  if (sel) {
    const [x, y] = L.pos[sel];
    el('circle', { cx: x, cy: y, r: pieceR + 5, class: 'ring selected' }, svg);
  }
  for (const [name, m] of Object.entries(targets)) {
    const [x, y] = L.pos[name];
    el('circle', { cx: x, cy: y, r: pieceR * 0.55, fill: colour(m.value, m.distance),
      class: `target${m.source === 'search' ? ' searched' : ''}`, 'data-target': name, 'data-value': m.value || 'unknown',
      'data-distance': m.distance ?? '' }, svg);
  }
  // The best move as an arrow.
  const best = a.best && moves.find((m) => m.move === a.best);
  if (best && best.from && interactive) {
    const [x1, y1] = L.pos[best.from], [x2, y2] = L.pos[best.path[best.path.length - 1]];
    el('line', { x1, y1, x2, y2, class: 'bestArrow', 'marker-end': `url(#arrowhead${svg.id})` }, svg);
  }
  if (interactive) {
    for (const p of geo.points) {
      const [x, y] = L.pos[p.name];
      const hit = el('circle', { cx: x, cy: y, r: pieceR + 4, class: 'hit', 'data-point': p.name }, svg);
      hit.addEventListener('click', () => clickPoint(p.name));
    }
  }
}

// Pieces in hand and captured, drawn as small discs with counts.
function drawHand(div, a) {
  div.innerHTML = '';
  if (!a || !a.hand) return;
  const part = (label, letter, count, cls) => {
    const s = document.createElement('span');
    s.className = `handPart ${cls}`;
    s.dataset.count = count;
    s.innerHTML = `${label} <span class="mini ${letter}">${letter}</span>&times;${count}`;
    div.appendChild(s);
  };
  part(`${a.sides[0]} in hand`, 'H', a.hand[0], 'hunterHand');
  part(`${a.sides[1]} in hand`, 'P', a.hand[1], 'preyHand');
  part('captured', 'P', a.captured, 'captured');
}

function statusHtml(a) {
  if (!a) return '';
  const esc = (s) => String(s).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
  if (a.over) return `game over: <b>${esc(a.over)}</b> for ${esc(a.side)} <span class="src">(rules)</span>`;
  let v = valueText(a.value, a.distance);
  let src;
  if (a.source === 'table') src = `table ${esc(a.tables)}${a.moves.some((m) => m.source === 'search') ? '; dashed moves by search' : ''}`;
  else if (a.source === 'proof') src = 'proof';
  else {
    src = `<span class="notproven">search, not proven</span>: depth ${a.depth}, ${a.nodes} nodes`;
    if (!a.value) v = `score ${a.score > 0 ? '+' : ''}${a.score}`;
  }
  return `${esc(a.side)} to move: <b data-value="${a.value || 'unknown'}">${esc(v)}</b> <span class="src">(${src})</span>`;
}

// ---------- the line of play ----------
function current() {
  const pos = S.positions[S.ply];
  return pos == null ? null : S.answers.get(`${S.rules}|${S.tables}|${pos}`);
}

async function show() {
  const seq = ++S.seq;
  document.body.dataset.ready = '0';
  try {
    const geo = await board(S.rules);
    const a = await answer(S.rules, S.positions[S.ply], S.tables);
    if (seq !== S.seq) return;
    S.positions[S.ply] = a.position;
    drawBoard($('boardA'), geo, a, true);
    $('paneA').querySelector('.paneRules').textContent = a.rules;
    // The statistics selector follows the table set answering, if any.
    const set = S.sets.find((t) => t.name === a.tables) || S.sets.find((t) => t.rules === a.rules);
    if (set) $('tableSets').value = set.name;
    drawHand($('handA'), a);
    $('statusA').innerHTML = statusHtml(a);
    $('posText').value = a.position;
    $('posError').textContent = '';
    drawMoves(a);
    $('undo').disabled = S.ply === 0;
    $('first').disabled = S.ply === 0;
    $('redo').disabled = S.ply >= S.moves.length;
    $('last').disabled = S.ply >= S.moves.length;
    $('best').disabled = !a.best;
    $('plyInfo').textContent = `ply ${S.ply} of ${S.moves.length}`;
    updateUrl(a);
    await showCompare(a, seq);
    await drawChart(seq);
    if (seq === S.seq) document.body.dataset.ready = '1';
  } catch (e) {
    if (seq !== S.seq) return;
    toast(e.message);
    document.body.dataset.ready = 'error';
  }
}

function drawMoves(a) {
  const ol = $('movesA');
  ol.innerHTML = '';
  $('movesNote').textContent = a.moves.length ? `${a.moves.length}, best first` : 'none';
  for (const m of a.moves) {
    const li = document.createElement('li');
    li.dataset.move = m.move;
    li.dataset.value = m.value || 'unknown';
    li.dataset.source = m.source;
    li.style.background = colour(m.value, m.distance);
    li.style.color = ink(m.value, m.distance);
    if (m.source === 'search') li.classList.add('searched');
    if (m.move === a.best) li.classList.add('best');
    const vt = m.value ? valueText(m.value, m.distance) : `${m.score > 0 ? '+' : ''}${m.score}`;
    li.innerHTML = `<span></span><span></span>`;
    li.firstChild.textContent = m.move;
    li.lastChild.textContent = vt;
    li.title = `${m.move}: ${vt} (${m.source})`;
    li.addEventListener('click', () => play(m.move));
    ol.appendChild(li);
  }
}

function play(move) {
  const a = current();
  if (!a) return;
  const m = a.moves.find((x) => x.move === move);
  if (!m) return;
  S.selected = null;
  S.partial = [];
  if (S.moves[S.ply] !== move) {
    S.moves = S.moves.slice(0, S.ply);
    S.positions = S.positions.slice(0, S.ply + 1);
    S.moves.push(move);
  }
  S.positions[S.ply + 1] = m.position;
  S.ply += 1;
  show();
}

function go(ply) {
  if (ply < 0 || ply > S.moves.length || ply === S.ply) return;
  S.ply = ply;
  S.selected = null;
  S.partial = [];
  show();
}

function clickPoint(name) {
  const a = current();
  if (!a) return;
  const moves = a.moves.map((m) => ({ ...m, ...parseMove(m.move) }));
  if (S.selected !== null) {
    const cands = moves.filter((m) => m.from === S.selected && S.partial.every((p, i) => m.path[i] === p));
    const exact = cands.find((m) => m.path.length === S.partial.length && S.partial[S.partial.length - 1] === name);
    if (exact) return play(exact.move); // clicked the last landing again: stop the chain there
    if (cands.some((m) => m.path[S.partial.length] === name)) {
      S.partial.push(name);
      const rest = cands.filter((m) => S.partial.every((p, i) => m.path[i] === p));
      const done = rest.filter((m) => m.path.length === S.partial.length);
      if (done.length === 1 && rest.length === 1) return play(done[0].move);
      return redraw();
    }
  }
  if (moves.some((m) => m.from === name)) {
    S.selected = S.selected === name && S.partial.length === 0 ? null : name;
    S.partial = [];
    return redraw();
  }
  const drop = moves.find((m) => m.from === null && !m.pass && m.path[0] === name);
  if (drop) return play(drop.move);
  S.selected = null;
  S.partial = [];
  redraw();
}

function redraw() {
  const a = current();
  if (a) drawBoard($('boardA'), S.boards.get(S.rules), a, true);
}

// ---------- second variant ----------
async function showCompare(a, seq) {
  const pane = $('paneB');
  $('boards').classList.toggle('two', !!S.rules2);
  if (!S.rules2) { pane.hidden = true; return; }
  pane.hidden = false;
  pane.querySelector('.paneRules').textContent = S.rules2;
  const ol = $('movesB');
  try {
    const geo = await board(S.rules2);
    const b = await answer(S.rules2, a.position, '');
    if (seq !== S.seq) return;
    drawBoard($('boardB'), geo, b, false);
    drawHand($('handB'), b);
    const differs = b.value !== a.value || b.distance !== a.distance;
    $('statusB').innerHTML = statusHtml(b) + (differs ? ' <span class="differs" data-differs="1">differs</span>' : '');
    ol.innerHTML = '';
    for (const m of b.moves) {
      const li = document.createElement('li');
      li.dataset.move = m.move;
      li.dataset.value = m.value || 'unknown';
      li.style.background = colour(m.value, m.distance);
      li.style.color = ink(m.value, m.distance);
      if (m.source === 'search') li.classList.add('searched');
      li.innerHTML = '<span></span><span></span>';
      li.firstChild.textContent = m.move;
      li.lastChild.textContent = m.value ? valueText(m.value, m.distance) : `${m.score}`;
      ol.appendChild(li);
    }
  } catch (e) {
    $('boardB').innerHTML = '';
    $('handB').textContent = '';
    ol.innerHTML = '';
    $('statusB').innerHTML = '';
    $('statusB').textContent = `not comparable here: ${e.message}`;
  }
}

// ---------- value history ----------
// Above the middle line: the first side wins; below: the second; distance from
// the line = plies to the end. Unknown values are left out.
async function drawChart(seq) {
  const svg = $('chart');
  const pts = [];
  for (let i = 0; i <= S.moves.length; i++) {
    let pos = S.positions[i];
    if (pos == null) {
      const prev = S.answers.get(`${S.rules}|${S.tables}|${S.positions[i - 1]}`);
      const m = prev && prev.moves.find((x) => x.move === S.moves[i - 1]);
      if (!m) break;
      pos = S.positions[i] = m.position;
    }
    let a = S.answers.get(`${S.rules}|${S.tables}|${pos}`);
    if (!a) {
      try { a = await answer(S.rules, pos, S.tables); } catch (e) { break; }
      if (seq !== S.seq) return;
    }
    pts.push(a);
  }
  svg.innerHTML = '';
  const W = 340, H = 170, padL = 28, padR = 8, mid = H / 2;
  let maxD = 1;
  for (const a of pts) if (a.value && a.value !== 'draw') maxD = Math.max(maxD, a.distance ?? 0);
  const n = Math.max(S.moves.length, 1);
  const x = (i) => padL + ((W - padL - padR) * i) / n;
  const y = (a) => {
    if (a.value === 'draw') return mid;
    const firstWins = (a.value === 'win') === (a.side === a.sides[0]);
    const off = ((H / 2 - 10) * (a.distance ?? 0)) / maxD;
    return firstWins ? mid - 4 - off : mid + 4 + off;
  };
  el('line', { x1: padL, y1: mid, x2: W - padR, y2: mid, class: 'axis' }, svg);
  el('text', { x: 2, y: 12 }, svg).textContent = `${pts[0] ? pts[0].sides[0] : ''} wins ↑`;
  el('text', { x: 2, y: H - 4 }, svg).textContent = `${pts[0] ? pts[0].sides[1] : ''} wins ↓`;
  el('text', { x: W - 60, y: 12 }, svg).textContent = `max ${maxD} plies`;
  el('line', { x1: x(S.ply), y1: 4, x2: x(S.ply), y2: H - 4, class: 'now' }, svg);
  let path = '';
  pts.forEach((a, i) => { if (a.value) path += `${path ? 'L' : 'M'}${x(i)},${y(a)} `; });
  if (path) el('path', { d: path, fill: 'none', stroke: '#888', 'stroke-width': 1.5 }, svg);
  pts.forEach((a, i) => {
    if (!a.value) return;
    // Colour from the first side's view, so one outcome keeps one colour along the game.
    const first = a.side === a.sides[0] ? a.value : ({ win: 'loss', loss: 'win' })[a.value] || a.value;
    const dot = el('circle', { cx: x(i), cy: y(a), r: 4, fill: colour(first, a.distance), class: 'dot',
      'data-ply': i, 'data-value': a.value }, svg);
    if (!a.exact) dot.setAttribute('stroke-dasharray', '2 2');
    dot.addEventListener('click', () => go(i));
    el('title', {}, dot).textContent = `ply ${i}: ${a.side} ${valueText(a.value, a.distance)}`;
  });
}

// ---------- URL: one per position ----------
function updateUrl(a) {
  const q = new URLSearchParams({ rules: S.rules, position: a.position });
  if (S.moves.length) { q.set('root', S.positions[0]); q.set('moves', S.moves.join(' ')); q.set('ply', S.ply); }
  if (S.rules2) q.set('compare', S.rules2);
  if (S.tables) q.set('tables', S.tables);
  history.replaceState(null, '', `?${q.toString()}`);
}

async function loadFromUrl() {
  const q = new URLSearchParams(location.search);
  S.rules = q.get('rules') || 'kaooa';
  S.rules2 = q.get('compare') || '';
  S.tables = q.get('tables') || '';
  $('rules').value = S.rules;
  $('rules2').value = S.rules2;
  const moves = (q.get('moves') || '').split(' ').filter(Boolean);
  if (q.get('root') && moves.length) {
    S.root = q.get('root');
    S.moves = moves;
    S.positions = [S.root];
    const ply = Math.min(Math.max(parseInt(q.get('ply') ?? moves.length, 10) || 0, 0), moves.length);
    // Replay the line to know every position (and its value, for the chart).
    try {
      for (let i = 0; i < ply; i++) {
        const a = await answer(S.rules, S.positions[i], S.tables);
        S.positions[i] = a.position;
        const m = a.moves.find((x) => x.move === moves[i]);
        if (!m) throw new Error(`move ${i + 1} '${moves[i]}' is not legal there`);
        S.positions[i + 1] = m.position;
      }
      S.ply = ply;
    } catch (e) {
      toast(`URL: ${e.message}`);
      S.moves = []; S.ply = 0; S.positions = [S.root];
    }
  } else {
    S.root = q.get('position') || 'start';
    S.moves = []; S.ply = 0; S.positions = [S.root];
  }
  await show();
}

function newRoot(position) {
  S.root = position; S.moves = []; S.ply = 0; S.positions = [position];
  S.selected = null; S.partial = [];
  return show();
}

function toast(msg) {
  $('toast').textContent = msg;
  clearTimeout(toast.t);
  toast.t = setTimeout(() => { $('toast').textContent = ''; }, 6000);
}

// ---------- statistics ----------
async function showStats(name) {
  const panel = $('statsPanel'), body = $('statsBody');
  panel.hidden = false;
  $('statsName').textContent = name;
  body.textContent = 'computing...';
  try {
    const r = await api('stats', { tables: name });
    const set = S.sets.find((s) => s.name === name);
    const pct = (k) => (r.positions ? ((100 * k) / r.positions).toFixed(1) : '0');
    let html = `<p><code>${r.rules}</code> · fingerprint ${r.fingerprint} · ${r.tiers.length} tiers</p>`;
    html += `<table id="statsTotals"><tr><th class="l"></th><th>positions (symmetry classes)</th><th>wins</th><th>draws</th><th>losses</th></tr>`;
    html += `<tr><td class="l">total</td><td>${r.positions}</td><td>${r.wins} (${pct(r.wins)} %)</td><td>${r.draws} (${pct(r.draws)} %)</td><td>${r.losses} (${pct(r.losses)} %)</td></tr></table>`;
    // Distance histogram over all tiers (wins up, losses down).
    const win = [], loss = [];
    for (const t of r.tiers) {
      t.win_distances.forEach((c, d) => { win[d] = (win[d] || 0) + c; });
      t.loss_distances.forEach((c, d) => { loss[d] = (loss[d] || 0) + c; });
    }
    const len = Math.max(win.length, loss.length, 1);
    const top = Math.max(1, ...win.map((c) => c || 0), ...loss.map((c) => c || 0));
    const W = 640, H = 180, bw = Math.max(1, (W - 40) / len);
    let bars = '';
    for (let d = 0; d < len; d++) {
      // Logarithmic heights: the long tail of rare long wins stays visible.
      const h = (c) => (Math.log1p(c || 0) / Math.log1p(top)) * (H / 2 - 12);
      const hw = h(win[d]), hl = h(loss[d]);
      bars += `<rect x="${30 + d * bw}" y="${H / 2 - hw}" width="${bw * 0.85}" height="${hw}" fill="${colour('win', d)}"><title>win in ${d}: ${win[d] || 0}</title></rect>`;
      bars += `<rect x="${30 + d * bw}" y="${H / 2}" width="${bw * 0.85}" height="${hl}" fill="${colour('loss', d)}"><title>loss in ${d}: ${loss[d] || 0}</title></rect>`;
    }
    html += `<h3>distance histogram (plies; wins up, losses down, side to move's view; log scale)</h3><svg id="statsHist" width="${W}" height="${H}" style="background:#fff">`
      + `<line x1="30" y1="${H / 2}" x2="${W}" y2="${H / 2}" stroke="#aaa"/>${bars}`
      + `<text x="2" y="12" font-size="10">wins</text><text x="2" y="${H - 4}" font-size="10">losses</text><text x="${W - 60}" y="${H - 4}" font-size="10">0 … ${len - 1}</text></svg>`;
    html += `<h3>longest wins</h3><table id="statsLongest"><tr><th>plies</th><th class="l">tier</th><th class="l">position</th></tr>`;
    for (const ex of r.longest_wins) {
      html += `<tr><td>${ex.distance}</td><td class="l">${ex.tier}</td><td class="l"><a data-position="${ex.position}">${ex.position}</a></td></tr>`;
    }
    html += '</table>';
    html += `<h3>per tier</h3><table><tr><th class="l">tier</th><th>positions</th><th>wins</th><th>draws</th><th>losses</th><th>longest win</th></tr>`;
    for (const t of r.tiers) html += `<tr><td class="l">${t.tier}</td><td>${t.positions}</td><td>${t.wins}</td><td>${t.draws}</td><td>${t.losses}</td><td>${t.max_win}</td></tr>`;
    html += '</table>';
    body.innerHTML = html;
    for (const a of body.querySelectorAll('a[data-position]')) {
      a.addEventListener('click', () => {
        S.rules = set ? set.rules : r.rules;
        $('rules').value = S.rules;
        newRoot(a.dataset.position);
        window.scrollTo(0, 0);
      });
    }
  } catch (e) {
    body.textContent = `error: ${e.message}`;
  }
}

// ---------- wiring ----------
async function init() {
  try {
    const p = await api('presets', {});
    const list = $('presetList');
    for (const x of p.presets) {
      const o = document.createElement('option');
      o.value = x.name; o.label = `${x.family}: ${x.description}`;
      list.appendChild(o);
    }
    S.sets = p.tables;
    const sel = $('tableSets');
    for (const t of p.tables) {
      const o = document.createElement('option');
      o.value = t.name; o.textContent = `${t.name} (${t.rules}, ${t.tiers} tiers)`;
      sel.appendChild(o);
    }
    $('statsButton').disabled = p.tables.length === 0;
  } catch (e) {
    toast(e.message);
  }
  $('rules').addEventListener('change', () => {
    S.rules = $('rules').value.trim(); S.tables = '';
    newRoot('start');
  });
  $('rules2').addEventListener('change', () => { S.rules2 = $('rules2').value.trim(); show(); });
  $('statsButton').addEventListener('click', () => { if ($('tableSets').value) showStats($('tableSets').value); });
  $('statsClose').addEventListener('click', () => { $('statsPanel').hidden = true; });
  $('undo').addEventListener('click', () => go(S.ply - 1));
  $('redo').addEventListener('click', () => go(S.ply + 1));
  $('first').addEventListener('click', () => go(0));
  $('last').addEventListener('click', () => go(S.moves.length));
  $('best').addEventListener('click', playBest);
  $('startButton').addEventListener('click', () => newRoot('start'));
  $('posForm').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const text = $('posText').value.trim();
    try {
      const a = await answer(S.rules, text, S.tables);
      await newRoot(a.position);
    } catch (e) {
      $('posError').textContent = e.message;
    }
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    if (ev.key === ' ') { ev.preventDefault(); playBest(); }
    else if (ev.key === 'ArrowLeft') { ev.preventDefault(); go(S.ply - 1); }
    else if (ev.key === 'ArrowRight') { ev.preventDefault(); go(S.ply + 1); }
    else if (ev.key === 'Home') go(0);
    else if (ev.key === 'End') go(S.moves.length);
    else if (ev.key === 'Escape') { S.selected = null; S.partial = []; redraw(); }
  });
  await loadFromUrl();
}

function playBest() {
  const a = current();
  if (a && a.best) play(a.best);
}

init();
