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
  focus: null, // point name to focus again after a redraw (keyboard play)
  focusList: false, // focus the move list again after a redraw (keyboard play)
  busy: 0, // position requests in flight
  edit: null, // the position editor's state while it is open
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

// Shows "searching…" while any position request runs (a search may take the
// server's whole --search-time).
async function busy(promise) {
  S.busy += 1;
  $('busy').hidden = false;
  try {
    return await promise;
  } finally {
    S.busy -= 1;
    if (S.busy === 0) $('busy').hidden = true;
  }
}

// The answer for `position` (text or `start`), after the line `moves` when given.
async function answer(rules, position, tables, moves) {
  const key = `${rules}|${tables || ''}|${position}${moves && moves.length ? `|${moves.join(' ')}` : ''}`;
  if (S.answers.has(key)) return S.answers.get(key);
  const params = { rules, position };
  if (tables) params.tables = tables;
  if (moves && moves.length) params.moves = moves.join(' ');
  const a = await busy(api('position', params));
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

// HSL (degrees, percent, percent) to an `rgb(...)` string.
function hsl(h, sat, light) {
  const s = sat / 100, l = light / 100;
  const k = (n) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))));
  return `rgb(${f(0)}, ${f(8)}, ${f(4)})`;
}

// Colour of a value for the side choosing it, shaded by distance: darker = sooner.
function colour(value, distance) {
  if (value === 'draw') return hsl(50, 90, 52);
  if (value !== 'win' && value !== 'loss') return hsl(0, 0, 62);
  const d = Math.min(distance ?? 30, 30);
  const light = 24 + (44 * d) / 30;
  return value === 'win' ? hsl(130, 65, light) : hsl(4, 75, light);
}

// WCAG relative luminance of an `rgb(r, g, b)` string.
function luminance(rgb) {
  const [r, g, b] = rgb.match(/\d+/g).map(Number).map((c) => {
    const x = c / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

// Text colour on colour(value, distance): black or white, whichever contrasts
// more; one of them always reaches 4.58:1, above WCAG AA's 4.5:1 (white on the
// old greens was 2.1-2.7:1).
function ink(value, distance) {
  const l = luminance(colour(value, distance));
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000' : '#fff';
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
    }
  }
  // Point names go on top of everything, beside the point: up and right of
  // the piece and of the ring around it, so no piece hides them.
  const labels = () => {
    if (geo.kind === 'grid') return;
    const g = el('g', { class: 'labels', 'aria-hidden': 'true' }, svg);
    for (const p of geo.points) {
      const [x, y] = L.pos[p.name];
      el('text', { x: x + pieceR + 5, y: y - pieceR - 3, class: 'label' }, g).textContent = p.name;
    }
  };
  if (!a) { labels(); return; }
  const kinds = pieceKinds(geo);
  const moves = a.moves.map((m) => ({ ...m, ...parseMove(m.move) }));
  const arrows = el('g', { class: 'arrows' }, svg); // filled below, drawn under the pieces
  // Rings around pieces that can move, coloured by their best move.
  const fromBest = {};
  for (const m of moves) if (m.from && (!fromBest[m.from] || better(m, fromBest[m.from]))) fromBest[m.from] = m;
  for (const [name, letter] of Object.entries(a.pieces)) {
    const [x, y] = L.pos[name];
    drawPiece(svg, x, y, pieceR, letter, kinds, name);
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
  // Every move of a piece as an arrow along its path, coloured by its value and
  // shaded by its distance (as GamesmanUni draws them); those of the selected
  // piece only, once one is chosen. Drawn below the landing points.
  const markers = new Map();
  const marker = (fill) => {
    if (!markers.has(fill)) {
      const id = `ah${svg.id}${markers.size}`;
      const mk2 = el('marker', { id, markerWidth: 6, markerHeight: 6, refX: 4.5, refY: 3, orient: 'auto',
        markerUnits: 'strokeWidth' }, defs);
      el('path', { d: 'M0,0 L6,3 L0,6 z', fill }, mk2);
      markers.set(fill, id);
    }
    return markers.get(fill);
  };
  // Longest first: a shorter slide along the same line is drawn over a longer
  // one, whose head still shows beyond it.
  const pathLength = (m) => {
    const pts = [m.from, ...m.path].map((n) => L.pos[n]);
    let len = 0;
    for (let i = 1; i < pts.length; i++) len += Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
    return len;
  };
  const pieceMoves = moves.filter((m) => m.from && (sel === null || m.from === sel));
  pieceMoves.sort((x, y) => pathLength(y) - pathLength(x));
  for (const m of pieceMoves) {
    const pts = [m.from, ...m.path].map((n) => L.pos[n]);
    // Stop short of the landing point so the arrowhead stays visible beside a target disc.
    const [xa, ya] = pts[pts.length - 2], [xb, yb] = pts[pts.length - 1];
    const len = Math.hypot(xb - xa, yb - ya) || 1, cut = Math.min(pieceR * 0.7, len / 3);
    pts[pts.length - 1] = [xb - ((xb - xa) * cut) / len, yb - ((yb - ya) * cut) / len];
    const c = colour(m.value, m.distance);
    const arrow = el('polyline', { points: pts.map((p) => p.join(',')).join(' '),
      class: `moveArrow${m.source === 'search' ? ' searched' : ''}${m.move === a.best ? ' best' : ''}`,
      stroke: c, 'marker-end': `url(#${marker(c)})`, 'data-move': m.move, 'data-value': m.value || 'unknown',
      'data-distance': m.distance ?? '' }, arrows);
    el('title', {}, arrow).textContent = `${m.move}: ${valueText(m.value, m.distance)}`;
  }
  for (const [name, m] of Object.entries(targets)) {
    const [x, y] = L.pos[name];
    const t = el('circle', { cx: x, cy: y, r: pieceR * 0.55, fill: colour(m.value, m.distance),
      class: `target${m.source === 'search' ? ' searched' : ''}`, 'data-target': name, 'data-value': m.value || 'unknown',
      'data-distance': m.distance ?? '' }, svg);
    if (m.from === null) t.dataset.move = m.move;
  }
  labels();
  if (interactive) {
    for (const p of geo.points) {
      const [x, y] = L.pos[p.name];
      // Reachable by Tab, played by Enter or Space (as a click).
      const hit = el('circle', { cx: x, cy: y, r: pieceR + 4, class: 'hit', 'data-point': p.name,
        tabindex: 0, role: 'button', 'aria-label': pointLabel(p.name, a, targets, kinds) }, svg);
      hit.addEventListener('click', () => clickPoint(p.name));
      hit.addEventListener('keydown', (ev) => {
        if (ev.key !== 'Enter' && ev.key !== ' ') return;
        ev.preventDefault();
        ev.stopPropagation();
        S.focus = p.name;
        clickPoint(p.name);
      });
    }
    if (S.focus) {
      const f = svg.querySelector(`.hit[data-point="${S.focus}"]`);
      if (f) f.focus();
    }
  }
}

// What a screen reader says of a point: its name, its piece, its move's value
// (in the editor: what a click does).
function pointLabel(name, a, targets, kinds) {
  const parts = [`point ${name}`];
  const letter = a.pieces[name];
  parts.push(letter ? (kinds[letter] ? kinds[letter].name : letter) : 'empty');
  const t = targets[name];
  if (t) parts.push(`move ${t.move}: ${valueText(t.value, t.distance)}`);
  if (S.edit) {
    const k = S.edit.kind;
    parts.push(!k || letter === k ? (letter ? 'click to clear' : '') : `click to place: ${kinds[k].name}`);
  }
  return parts.filter(Boolean).join(', ');
}

// ---------- pieces ----------
// One piece of a side, named from the side's label (plural for several
// pieces): crows → crow.
const SINGULAR = { leopards: 'leopard', cows: 'cow', tigers: 'tiger', goats: 'goat', vultures: 'vulture',
  crows: 'crow', kalikiris: 'kalikiri', citikiris: 'citikiri', muscovites: 'Muscovite', swedes: 'Swede',
  attackers: 'attacker', defenders: 'defender' };
const singular = (label) => SINGULAR[label] || label;
const plural = (word, n) => (n === 1 ? word : `${word}s`);

// The piece kinds of a game (`geo`: its /api/board answer), letter → { name, glyph }:
// the game's own words (leopard and cow, tiger and goat, vulture and crow;
// the tafl roles beside the game's word for them).
function pieceKinds(geo) {
  const labels = geo.side_labels || geo.sides;
  if (geo.family === 'tafl') {
    const role = (label, r) => { const w = singular(label); return w === r ? w : `${w} (${r})`; };
    return {
      A: { name: role(labels[0], 'attacker'), glyph: 'attacker' },
      D: { name: role(labels[1], 'defender'), glyph: 'defender' },
      K: { name: labels[1] === 'citikiris' ? 'ranikiri (king)' : 'king', glyph: 'king' },
    };
  }
  const h = singular(labels[0]), p = singular(labels[1]);
  return { H: { name: h, glyph: GLYPHS[h] ? h : 'hunter' }, P: { name: p, glyph: GLYPHS[p] ? p : 'prey' } };
}

// Each mark drawn around (0, 0) in a disc of radius 20.
const disc = (g, fill) => el('circle', { r: 19, class: 'body', fill }, g);
const mark = (g, d, stroke, width) => el('path', { d, class: 'mark', stroke, 'stroke-width': width }, g);
const GLYPHS = {
  // Hunters: dark or tawny bodies.
  leopard: (g) => {
    disc(g, '#e0a526');
    for (const [x, y, r] of [[-8, -8, 3], [5, -11, 2.6], [11, 1, 3], [-3, 10, 3], [2, -1, 2.6], [-12, 4, 2.4], [8, 11, 2.2]]) {
      el('circle', { cx: x, cy: y, r, fill: '#3b2a10' }, g);
    }
  },
  tiger: (g) => {
    disc(g, '#e8801e');
    mark(g, 'M-16,-8 q7,3 1,8 M-15,7 q7,-1 3,8 M16,-8 q-7,3 -1,8 M15,7 q-7,-1 -3,8 M-5,-18 q5,5 0,10 M5,-18 q-5,5 0,10', '#1d1208', 3);
  },
  vulture: (g) => {
    disc(g, '#6b4423');
    mark(g, 'M-14,-2 L-6,3 L0,10 L6,3 L14,-2', '#fdf6e3', 3.5);
    el('circle', { cx: 0, cy: -6, r: 3.6, fill: '#fdf6e3' }, g);
  },
  hunter: (g) => {
    disc(g, '#7a1f12');
    mark(g, 'M-8,-10 L0,-2 L8,-10 M0,-2 L0,11', '#fff', 3);
  },
  // Prey: light bodies (the crow is black, beside a brown vulture).
  cow: (g) => {
    disc(g, '#f6f1e1');
    mark(g, 'M-6,-6 Q-14,-7 -12,-15 M6,-6 Q14,-7 12,-15', '#222', 2.5);
    el('ellipse', { cx: 0, cy: 6, rx: 7.5, ry: 5, fill: '#e9b8a8', stroke: '#222', 'stroke-width': 1.2 }, g);
    el('circle', { cx: -2.6, cy: 6, r: 1.3, fill: '#222' }, g);
    el('circle', { cx: 2.6, cy: 6, r: 1.3, fill: '#222' }, g);
  },
  goat: (g) => {
    disc(g, '#f6f1e1');
    mark(g, 'M-4,-6 Q-6,-16 -14,-11 M4,-6 Q6,-16 14,-11', '#222', 2.5);
    el('path', { d: 'M-4,4 L0,15 L4,4 Z', fill: '#7a6a55', stroke: '#222', 'stroke-width': 1 }, g);
  },
  crow: (g) => {
    disc(g, '#262626');
    el('path', { d: 'M2,-5 L16,0 L2,5 Z', fill: '#f2c230', stroke: '#222', 'stroke-width': 1 }, g);
    el('circle', { cx: -4, cy: -4, r: 2.6, fill: '#fff' }, g);
  },
  prey: (g) => {
    disc(g, '#f6f1e1');
    el('circle', { r: 6, fill: '#b8a77f' }, g);
  },
  // Tafl: a dark diamond, a light disc with a ring, a golden crown.
  attacker: (g) => {
    el('path', { d: 'M0,-20 L20,0 L0,20 L-20,0 Z', class: 'body', fill: '#3a2a1a' }, g);
    el('circle', { r: 5, fill: '#c9b17a' }, g);
  },
  defender: (g) => {
    disc(g, '#f6f1e1');
    el('circle', { r: 9, fill: 'none', stroke: '#222', 'stroke-width': 2.5 }, g);
  },
  king: (g) => {
    disc(g, '#f6d97a');
    el('path', { d: 'M-12,7 L-12,-6 L-6,0 L0,-11 L6,0 L12,-6 L12,7 Z', fill: '#b8860b', stroke: '#222', 'stroke-width': 1.5 }, g);
  },
};

// One piece at (x, y), radius r: its mark, named for screen readers and on hover.
function drawPiece(parent, x, y, r, letter, kinds, point) {
  const k = kinds[letter] || { name: letter, glyph: 'hunter' };
  const g = el('g', { class: `piece ${letter} ${k.glyph}`, transform: `translate(${x},${y}) scale(${r / 20})`,
    'data-piece': letter, role: 'img', 'aria-label': point ? `${k.name} on ${point}` : k.name }, parent);
  if (point) g.dataset.point = point;
  el('title', {}, g).textContent = k.name;
  GLYPHS[k.glyph](g);
  return g;
}

// A small piece mark for the hands.
function miniPiece(letter, kinds) {
  const svg = el('svg', { class: 'mini', viewBox: '-21 -21 42 42', 'aria-hidden': 'true' });
  drawPiece(svg, 0, 0, 20, letter, kinds, null).querySelector('title').remove();
  return svg;
}

// Pieces in hand and captured, drawn as small discs with counts.
function drawHand(div, a, geo) {
  div.innerHTML = '';
  if (!a || !a.hand) return;
  const kinds = pieceKinds(geo || { family: 'hunt', side_labels: sideLabels(a) });
  const part = (label, letter, count, cls) => {
    const s = document.createElement('span');
    s.className = `handPart ${cls}`;
    s.dataset.count = count;
    s.append(`${label} `, miniPiece(letter, kinds), `\u00d7${count}`);
    div.appendChild(s);
  };
  part(`${sideLabels(a)[0]} in hand`, 'H', a.hand[0], 'hunterHand');
  part(`${sideLabels(a)[1]} in hand`, 'P', a.hand[1], 'preyHand');
  part('captured', 'P', a.captured, 'captured');
}

// The sides in the game's own words (`side_label(s)`: crows, goats, cows ...);
// the machine names (`side`, `sides`) where an answer has none.
const sideLabel = (a) => a.side_label || a.side;
const sideLabels = (a) => a.side_labels || a.sides;

function statusHtml(a) {
  if (!a) return '';
  const esc = (s) => String(s).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
  if (a.over) return `game over: <b>${esc(a.over)}</b> for ${esc(sideLabel(a))} <span class="src">(rules)</span>`;
  let v = valueText(a.value, a.distance);
  let src;
  if (a.source === 'table') src = `table ${esc(a.tables)}${a.moves.some((m) => m.source === 'search') ? '; dashed moves by search' : ''}`;
  else if (a.source === 'proof') src = 'proof';
  else {
    src = `<span class="notproven">search, not proven</span>: depth ${a.depth}, ${a.nodes} nodes`;
    if (!a.value) v = `score ${a.score > 0 ? '+' : ''}${a.score}`;
  }
  // What results/ records here, beside an answer that may be only a search score.
  const recorded = (a.recorded || []).map((k) =>
    `<br><span class="recorded">recorded: ${esc(k.claim)} (${esc(k.evidence)}; ${esc(k.page)})</span>`).join('');
  return `${esc(sideLabel(a))} to move: <b data-value="${a.value || 'unknown'}">${esc(v)}</b> <span class="src">(${src})</span>${recorded}`;
}

// ---------- the line of play ----------
function current() {
  const pos = S.positions[S.ply];
  return pos == null ? null : S.answers.get(`${S.rules}|${S.tables}|${pos}`);
}

async function show(push = true) {
  const seq = ++S.seq;
  document.body.dataset.ready = '0';
  closeEditor();
  try {
    let geo, a;
    try {
      geo = await board(S.rules);
    } catch (e) {
      throw new Error(`rules ${S.rules}: ${e.message}`);
    }
    try {
      a = await answer(S.rules, S.positions[S.ply], S.tables);
    } catch (e) {
      throw new Error(`position ${S.positions[S.ply]}: ${e.message}`);
    }
    if (seq !== S.seq) return;
    pageError('');
    S.positions[S.ply] = a.position;
    drawBoard($('boardA'), geo, a, true);
    S.focus = null;
    $('paneA').querySelector('.paneRules').textContent = a.rules;
    showTableSets(a);
    drawHand($('handA'), a, geo);
    $('statusA').innerHTML = statusHtml(a);
    drawPv($('pvA'), a, true);
    $('posText').value = a.position;
    $('posError').textContent = '';
    drawMoves(a);
    $('undo').disabled = S.ply === 0;
    $('first').disabled = S.ply === 0;
    $('redo').disabled = S.ply >= S.moves.length;
    $('last').disabled = S.ply >= S.moves.length;
    $('best').disabled = !a.best;
    $('plyInfo').textContent = `ply ${S.ply} of ${S.moves.length}`;
    updateUrl(a, push);
    await showCompare(a, seq);
    await drawChart(seq);
    if (seq === S.seq) document.body.dataset.ready = '1';
  } catch (e) {
    if (seq !== S.seq) return;
    // Nothing of the last position stays on the page: a page that looks alive
    // but ignores every click is worse than a plain error.
    pageError(e.message);
    const geo = S.boards.get(S.rules);
    if (geo) drawBoard($('boardA'), geo, null, false); else $('boardA').innerHTML = '';
    for (const id of ['movesA', 'handA', 'statusA', 'movesNote', 'plyInfo', 'chart']) $(id).innerHTML = '';
    $('paneA').querySelector('.paneRules').textContent = S.rules;
    for (const id of ['undo', 'redo', 'first', 'last', 'best']) $(id).disabled = true;
    $('paneB').hidden = true;
    $('pvA').hidden = true;
    $('boards').classList.remove('two');
    document.querySelector('main').classList.remove('two');
    // The table sets (and their statistics) are those of rules that parse;
    // after a rules error none is offered and an open statistics panel closes.
    showTableSets(geo ? { rules: geo.rules, tables: S.tables } : null);
    $('posText').value = S.positions[S.ply] ?? '';
    document.body.dataset.ready = 'error';
  }
}

// The error that stops the page, shown at the top (empty: none).
function pageError(msg) {
  const box = $('pageError');
  box.textContent = msg ? `error: ${msg}` : '';
  box.hidden = !msg;
  $('rules').setAttribute('aria-invalid', msg && msg.startsWith('rules ') ? 'true' : 'false');
}

// The table-set selector lists the sets of the rules shown (`a` null: no rules
// are shown), and follows the set answering; a statistics panel of a set of
// other rules closes.
function showTableSets(a) {
  const sel = $('tableSets');
  const mine = a ? S.sets.filter((t) => t.rules === a.rules) : [];
  if (!mine.some((t) => t.name === $('statsPanel').dataset.set)) $('statsPanel').hidden = true;
  sel.innerHTML = '';
  for (const t of mine) {
    const o = document.createElement('option');
    o.value = t.name; o.textContent = `${t.name} (${t.tiers} ${t.tiers === 1 ? 'tier' : 'tiers'})`;
    sel.appendChild(o);
  }
  if (!mine.length) {
    const o = document.createElement('option');
    o.value = ''; o.textContent = a ? 'none for these rules' : 'none (no rules)';
    sel.appendChild(o);
  }
  sel.disabled = !mine.length;
  $('statsButton').disabled = !mine.length;
  const set = mine.find((t) => t.name === a.tables) || mine[0];
  if (set) sel.value = set.name;
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
    li.tabIndex = 0;
    li.setAttribute('role', 'button');
    li.setAttribute('aria-label', `play ${m.move}: ${vt}`);
    li.addEventListener('click', () => play(m.move));
    li.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Enter' && ev.key !== ' ') return;
      ev.preventDefault();
      ev.stopPropagation();
      S.focusList = true;
      play(m.move);
    });
    ol.appendChild(li);
  }
  if (S.focusList) {
    S.focusList = false;
    if (ol.firstChild) ol.firstChild.focus();
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
  if (S.edit) return editClick(name);
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
  if (S.edit) return drawEdit();
  const a = current();
  if (a) drawBoard($('boardA'), S.boards.get(S.rules), a, true);
}

// ---------- position editor ----------
// Board A becomes the editor: a click places the chosen kind of piece (or
// clears the point); the side to move and, in hunt games, the pieces in hand
// and the prey captured complete the position text of docs/positions.md, which
// "analyse" sends through the server's own parser (/api/position) like any
// typed position. The counts in hand follow the board: what is not on it (nor
// captured) is in hand.
function openEditor() {
  const a = current();
  const geo = S.boards.get(S.rules);
  if (!a || !geo) return;
  const kinds = pieceKinds(geo);
  const letters = Object.keys(kinds);
  const hunt = geo.family === 'hunt';
  const on = (l) => Object.values(a.pieces).filter((x) => x === l).length;
  S.edit = {
    geo, kinds, hunt,
    pieces: { ...a.pieces },
    kind: letters[0],
    side: a.sides.indexOf(a.side),
    hand: hunt ? [...a.hand] : null,
    captured: hunt ? a.captured : 0,
    totals: hunt ? [on('H') + a.hand[0], on('P') + a.hand[1] + a.captured] : null,
    labels: sideLabels(a),
  };
  const radios = (div, name, items, checked, change) => {
    div.innerHTML = '';
    for (const [value, text] of items) {
      const label = document.createElement('label');
      const input = document.createElement('input');
      input.type = 'radio';
      input.name = name;
      input.value = value;
      input.checked = value === checked;
      input.addEventListener('change', () => { if (input.checked) change(value); });
      label.append(input, ` ${text}`);
      div.appendChild(label);
    }
  };
  radios($('editKinds'), 'editKind', [...letters.map((l) => [l, `place ${kinds[l].name}`]), ['', 'clear']], S.edit.kind,
    (v) => { S.edit.kind = v; drawEdit(); });
  radios($('editSide'), 'editSide', S.edit.labels.map((l, i) => [String(i), `${l} to move`]), String(S.edit.side),
    (v) => { S.edit.side = Number(v); editUpdate(); });
  const counts = $('editCounts');
  counts.innerHTML = '';
  if (hunt) {
    const number = (id, text, value, change) => {
      const label = document.createElement('label');
      const input = document.createElement('input');
      input.type = 'number'; input.min = 0; input.id = id; input.value = value;
      input.addEventListener('input', () => { change(Math.max(0, parseInt(input.value, 10) || 0)); editUpdate(false); });
      label.append(`${text} `, input);
      counts.appendChild(label);
    };
    const E = S.edit;
    number('editHandH', `${E.labels[0]} in hand`, E.hand[0], (n) => { E.hand[0] = n; });
    number('editHandP', `${E.labels[1]} in hand`, E.hand[1], (n) => {
      E.hand[1] = n;
      E.captured = Math.max(0, E.totals[1] - onBoard('P') - n);
      $('editCaptured').value = E.captured;
    });
    number('editCaptured', `${E.labels[1]} captured`, E.captured, (n) => {
      E.captured = n;
      E.hand[1] = Math.max(0, E.totals[1] - onBoard('P') - n);
      $('editHandP').value = E.hand[1];
    });
  }
  $('editor').hidden = false;
  $('editButton').setAttribute('aria-expanded', 'true');
  $('paneA').classList.add('editing');
  editUpdate();
}

function closeEditor() {
  if (!S.edit) return;
  S.edit = null;
  $('editor').hidden = true;
  $('editButton').setAttribute('aria-expanded', 'false');
  $('paneA').classList.remove('editing');
  $('editCheck').textContent = '';
}

const onBoard = (letter) => Object.values(S.edit.pieces).filter((l) => l === letter).length;

function editClick(name) {
  const E = S.edit;
  if (!E.kind || E.pieces[name] === E.kind) delete E.pieces[name];
  else {
    // One king at most: placing it moves it.
    if (E.kind === 'K') for (const [p, l] of Object.entries(E.pieces)) if (l === 'K') delete E.pieces[p];
    E.pieces[name] = E.kind;
  }
  if (E.hunt) {
    // What is not on the board is in hand (captures kept while they fit).
    E.hand[0] = Math.max(0, E.totals[0] - onBoard('H'));
    E.captured = Math.min(E.captured, Math.max(0, E.totals[1] - onBoard('P')));
    E.hand[1] = Math.max(0, E.totals[1] - onBoard('P') - E.captured);
    $('editHandH').value = E.hand[0];
    $('editHandP').value = E.hand[1];
    $('editCaptured').value = E.captured;
  }
  S.focus = name;
  editUpdate();
}

// The position text of the editor (docs/positions.md).
function editText() {
  const E = S.edit;
  if (E.hunt) {
    const pts = [...E.geo.points].sort((p, q) => p.id - q.id);
    const board = pts.map((p) => E.pieces[p.name] || '.').join('');
    return `${board}/h${E.hand[0]}p${E.hand[1]}c${E.captured}/${E.side === 0 ? 'h' : 'p'}`;
  }
  const n = E.geo.n;
  const at = {};
  for (const p of E.geo.points) at[`${p.x},${p.y}`] = p.name;
  const rows = [];
  for (let y = n - 1; y >= 0; y--) {
    let row = '';
    for (let x = 0; x < n; x++) row += E.pieces[at[`${x},${y}`]] || '.';
    rows.push(row);
  }
  return `${rows.join('/')} ${E.side === 0 ? 'a' : 'd'}`;
}

// What the editor can tell before asking the server: the counts of
// docs/positions.md add up (hunt games), one king at most (tafl). '' when fine.
function editProblem() {
  const E = S.edit;
  if (!E.hunt) return onBoard('K') > 1 ? 'more than one king' : '';
  const [h, p] = [onBoard('H'), onBoard('P')];
  const [nh, np] = [E.kinds.H.name, E.kinds.P.name];
  if (h + E.hand[0] !== E.totals[0]) {
    return `${h} ${plural(nh, h)} on the board and ${E.hand[0]} in hand make ${h + E.hand[0]}; the rules have ${E.totals[0]}`;
  }
  if (p + E.hand[1] + E.captured !== E.totals[1]) {
    return `${p} ${plural(np, p)} on the board, ${E.hand[1]} in hand and ${E.captured} captured make ${p + E.hand[1] + E.captured}; the rules have ${E.totals[1]}`;
  }
  return '';
}

function editUpdate(draw = true) {
  const text = editText();
  $('posText').value = text;
  $('posError').textContent = '';
  const bad = editProblem();
  $('editCheck').textContent = bad || 'the counts add up; "analyse" asks the server';
  $('editCheck').classList.toggle('bad', !!bad);
  $('editAnalyse').disabled = !!bad;
  if (draw) drawEdit();
}

function drawEdit() {
  const E = S.edit;
  drawBoard($('boardA'), E.geo, { pieces: E.pieces, moves: [], position: editText(), best: null }, true);
  S.focus = null;
}

async function analyseEdit() {
  if (!S.edit || editProblem()) return;
  const text = editText();
  try {
    const a = await answer(S.rules, text, S.tables);
    await newRoot(a.position);
  } catch (e) {
    $('editCheck').textContent = `the server does not accept it: ${refusal(e.message)}`;
    $('editCheck').classList.add('bad');
  }
}

// ---------- second variant ----------
// What the second pane says beside its value: "differs" only between two exact
// values (table, proof or rules) that differ; a search score is not a value,
// so it is never compared with one (nor with another score): the pane says so.
function compareMark(a, b) {
  if (a.exact && b.exact) {
    return a.value !== b.value || a.distance !== b.distance
      ? ' <span class="differs" data-compare="differs">differs</span>' : '';
  }
  const which = !a.exact && !b.exact ? 'two search scores'
    : b.exact ? 'exact value here, search score in the first pane' : 'search score here, exact value in the first pane';
  return ` <span class="notcompared" data-compare="not-compared">not compared: ${which}</span>`;
}

// Why the position `a` (of the first pane's rules, board `geoA`) cannot be set
// up under the second variant's rules (board `geoB`, start `startB`): a
// sentence, or '' when it may be (then the server has the last word). Known
// misfits are not even asked: a request known to fail would only log an error.
function misfit(a, geoA, geoB, startB) {
  const rules2 = S.rules2;
  if (geoA.family !== geoB.family) return `${rules2} is a ${geoB.family} game, this is a ${geoA.family} game`;
  const names = (g) => g.points.map((p) => p.name).join(' ');
  if (names(geoA) !== names(geoB)) {
    return `${rules2} is played on another board (${geoB.points.length} points; this one has ${geoA.points.length})`;
  }
  if (geoA.family !== 'hunt' || !a.hand || !startB.hand) return '';
  const material = (x) => {
    const on = Object.values(x.pieces);
    return [on.filter((l) => l === 'H').length + x.hand[0], on.filter((l) => l === 'P').length + x.hand[1] + x.captured];
  };
  const [ha, pa] = material(a), [hb, pb] = material(startB);
  if (ha === hb && pa === pb) return '';
  const kinds = pieceKinds(geoB);
  const count = (h, p) => `${h} ${plural(kinds.H.name, h)} and ${p} ${plural(kinds.P.name, p)}`;
  return `${rules2} is played with ${count(hb, pb)}; this position has ${count(ha, pa)}`;
}

// The rules' refusal of a position, said as a sentence (the parser's words
// after its "invalid position ...:" prefix).
function refusal(message) {
  const why = String(message).replace(/^.*invalid position[^:]*:\s*/i, '').replace(/^error:\s*/i, '');
  return why ? `its rules do not allow it (${why})` : 'its rules do not allow it';
}

// The second variant at the same moves from its start, played move by move
// on answers that exist (no request for a move it cannot play); null when a
// move of the line is not legal there.
async function sameLine(startB, moves) {
  let b = startB;
  for (const mv of moves) {
    const m = b.moves.find((x) => x.move === mv);
    if (!m) return null;
    b = await answer(S.rules2, m.position, '');
  }
  return b;
}

// Longest line replayed in the second variant when it cannot hold the position.
const SAME_LINE_MAX = 24;

async function showCompare(a, seq) {
  const pane = $('paneB');
  $('boards').classList.toggle('two', !!S.rules2);
  document.querySelector('main').classList.toggle('two', !!S.rules2);
  if (!S.rules2) { pane.hidden = true; return; }
  pane.hidden = false;
  pane.querySelector('.paneRules').textContent = S.rules2;
  const ol = $('movesB');
  const note = $('noteB');
  note.textContent = '';
  note.hidden = true;
  try {
    const geo = await board(S.rules2);
    const startB = await answer(S.rules2, 'start', '');
    let b = null, why = misfit(a, S.boards.get(S.rules), geo, startB);
    if (!why) {
      try {
        b = await answer(S.rules2, a.position, '');
      } catch (e) {
        why = refusal(e.message);
      }
    }
    if (why) {
      // Another material (kaooa's seven crows in kaooa-6): compare the same line
      // from the second variant's start where it is legal there, else its start.
      let shown = 'its start';
      b = startB;
      const startA = await answer(S.rules, 'start', S.tables);
      if (S.positions[0] === startA.position && S.ply > 0 && S.ply <= SAME_LINE_MAX) {
        const same = await sameLine(startB, S.moves.slice(0, S.ply));
        if (same) {
          b = same;
          shown = `the same ${S.ply === 1 ? 'move' : `${S.ply} moves`} from its start`;
        }
      }
      why = `${S.rules2} cannot hold this position: ${why}. Shown instead: ${shown}.`;
    }
    if (seq !== S.seq) return;
    if (why) { note.textContent = why; note.hidden = false; }
    drawBoard($('boardB'), geo, b, false);
    drawHand($('handB'), b, geo);
    $('statusB').innerHTML = statusHtml(b) + (why ? '' : compareMark(a, b));
    drawPv($('pvB'), b, false);
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
    if (seq !== S.seq) return;
    $('boardB').innerHTML = '';
    $('handB').textContent = '';
    ol.innerHTML = '';
    $('statusB').innerHTML = '';
    drawPv($('pvB'), null, false);
    // Above the (empty) board, where it is seen.
    note.textContent = `not comparable: ${e.message}`;
    note.hidden = false;
  }
}

// ---------- principal variation ----------
// Most moves of a principal variation shown (a drawn table line goes on).
const PV_SHOWN = 16;

// The answer's principal variation under its status: in the first pane each
// move is a button playing the line up to it.
function drawPv(div, a, interactive) {
  div.innerHTML = '';
  const pv = (a && !a.over && a.pv) || [];
  div.hidden = !pv.length;
  if (!pv.length) return;
  const what = a.source === 'search' ? 'principal variation (search, not proven)' : 'principal variation';
  const lab = document.createElement('span');
  lab.className = 'pvLabel';
  lab.textContent = `${what}:`;
  div.appendChild(lab);
  pv.slice(0, PV_SHOWN).forEach((mv, i) => {
    let e;
    if (interactive) {
      e = document.createElement('button');
      e.type = 'button';
      e.setAttribute('aria-label', `play the principal variation up to ${mv} (${i + 1} ${plural('move', i + 1)})`);
      e.addEventListener('click', () => playLine(pv.slice(0, i + 1)));
    } else {
      e = document.createElement('span');
    }
    e.className = 'pvMove';
    e.dataset.ply = i;
    e.textContent = mv;
    div.appendChild(e);
  });
  if (pv.length > PV_SHOWN) div.append(` … (${pv.length} plies)`);
}

// Plays `moves` from the current ply (asking each position on the way, as the
// chart would), then shows the last; a later line that starts the same way stays.
async function playLine(moves) {
  const token = S.seq;
  const line = S.moves.slice(0, S.ply), positions = S.positions.slice(0, S.ply + 1);
  let a = current();
  try {
    for (const [i, mv] of moves.entries()) {
      const m = a && a.moves.find((x) => x.move === mv);
      if (!m) break;
      line.push(mv);
      positions.push(m.position);
      if (i + 1 < moves.length) a = await answer(S.rules, m.position, S.tables);
      if (token !== S.seq) return;
    }
  } catch (e) {
    toast(e.message);
    return;
  }
  if (line.length === S.ply) return;
  if (line.every((mv, i) => S.moves[i] === mv)) {
    S.positions = [...positions, ...S.positions.slice(positions.length)];
  } else {
    S.moves = line;
    S.positions = positions;
  }
  S.ply = line.length;
  S.selected = null; S.partial = [];
  show();
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
  // The labels sit in bands above and below the plotting area, which the
  // current-ply line never leaves.
  const W = 340, H = 200, padL = 8, padR = 8, band = 20, top = band, bottom = H - band, mid = H / 2;
  let maxD = 1;
  for (const a of pts) if (a.value && a.value !== 'draw') maxD = Math.max(maxD, a.distance ?? 0);
  const n = Math.max(S.moves.length, 1);
  const x = (i) => padL + ((W - padL - padR) * i) / n;
  const y = (a) => {
    if (a.value === 'draw') return mid;
    const firstWins = (a.value === 'win') === (a.side === a.sides[0]);
    const off = ((mid - top - 10) * (a.distance ?? 0)) / maxD;
    return firstWins ? mid - 4 - off : mid + 4 + off;
  };
  el('rect', { x: 0, y: top, width: W, height: bottom - top, class: 'plot' }, svg);
  el('line', { x1: padL, y1: mid, x2: W - padR, y2: mid, class: 'axis' }, svg);
  el('text', { x: 4, y: 14, class: 'upper' }, svg).textContent = `↑ win for ${pts[0] ? sideLabels(pts[0])[0] : 'the first side'}`;
  el('text', { x: 4, y: H - 6, class: 'lower' }, svg).textContent = `↓ win for ${pts[0] ? sideLabels(pts[0])[1] : 'the second side'}`;
  el('text', { x: W - 4, y: 14, class: 'max', 'text-anchor': 'end' }, svg).textContent = `max ${maxD} plies`;
  el('line', { x1: x(S.ply), y1: top + 1, x2: x(S.ply), y2: bottom - 1, class: 'now' }, svg);
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
    el('title', {}, dot).textContent = `ply ${i}: ${sideLabel(a)} ${valueText(a.value, a.distance)}`;
  });
}

// ---------- URL: one per position ----------
// Each new position is a history entry, so the browser's Back steps back in
// the game (`push` false: this URL replaces the entry, as on loading a URL).
function updateUrl(a, push) {
  const q = new URLSearchParams({ rules: S.rules, position: a.position });
  if (S.moves.length) { q.set('root', S.positions[0]); q.set('moves', S.moves.join(' ')); q.set('ply', S.ply); }
  if (S.rules2) q.set('compare', S.rules2);
  if (S.tables) q.set('tables', S.tables);
  const url = `?${q.toString()}`;
  if (push && url !== location.search) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}

async function loadFromUrl(push = false) {
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
    // Replay the whole line to know every position (and its value, for the
    // chart); a move that cannot be played cuts the line there, and the panel
    // says which and why until the user closes it or starts another line.
    const bad = await replayLine(moves);
    S.moves = moves.slice(0, bad ? bad.index : moves.length);
    S.positions.length = S.moves.length + 1;
    S.ply = Math.min(ply, S.moves.length);
    lineError(bad ? bad.message : '');
  } else {
    lineError('');
    S.root = q.get('position') || 'start';
    S.moves = []; S.ply = 0; S.positions = [S.root];
  }
  S.selected = null; S.partial = [];
  await show(push);
}

// Plays the cited line `moves` from S.positions[0], filling S.positions.
// Returns null, or the first move that cannot be played: { index, message }.
async function replayLine(moves) {
  for (let i = 0; i < moves.length; i++) {
    const at = i === 0 ? 'at the start of the line' : `after ${moves.slice(0, i).join(' ')}`;
    const cut = i === 0 ? 'shown: the position the line starts from' : `shown: the line up to move ${i}`;
    let a;
    try {
      a = await answer(S.rules, S.positions[i], S.tables);
    } catch (e) {
      if (i === 0) return { index: 0, message: '' }; // the start itself is bad: show() says why
      return { index: i, message: `move ${i + 1} '${moves[i]}': the position ${at} cannot be answered (${e.message}); ${cut}` };
    }
    S.positions[i] = a.position;
    const m = a.moves.find((x) => x.move === moves[i]);
    if (!m) {
      let why;
      if (a.over) why = `the game is over there (${a.over} for ${sideLabel(a)})`;
      else {
        const legal = a.moves.map((x) => x.move);
        const few = legal.length > 12 ? `${legal.slice(0, 12).join(', ')}, …` : legal.join(', ');
        why = legal.length ? `it is not a legal move there (${legal.length} legal: ${few})` : 'there is no legal move there';
      }
      return { index: i, message: `move ${i + 1} '${moves[i]}' of the line cannot be played ${at}: ${why}; ${cut}` };
    }
    S.positions[i + 1] = m.position;
  }
  return null;
}

// The error of a cited line (empty: none); it stays until closed or a new line starts.
function lineError(msg) {
  $('lineErrorText').textContent = msg ? `URL: ${msg}` : '';
  $('lineError').hidden = !msg;
}

function newRoot(position) {
  lineError('');
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
  panel.dataset.set = name;
  $('statsName').textContent = name;
  body.textContent = 'computing...';
  try {
    const r = await api('stats', { tables: name });
    const set = S.sets.find((s) => s.name === name);
    const pct = (k) => (r.positions ? ((100 * k) / r.positions).toFixed(1) : '0');
    let html = `<p><code>${r.rules}</code> · fingerprint ${r.fingerprint} · ${r.tiers.length} ${r.tiers.length === 1 ? 'tier' : 'tiers'}</p>`;
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
  $('lineErrorClose').addEventListener('click', () => lineError(''));
  $('undo').addEventListener('click', () => go(S.ply - 1));
  $('redo').addEventListener('click', () => go(S.ply + 1));
  $('first').addEventListener('click', () => go(0));
  $('last').addEventListener('click', () => go(S.moves.length));
  $('best').addEventListener('click', playBest);
  $('startButton').addEventListener('click', () => newRoot('start'));
  $('editButton').addEventListener('click', () => { if (S.edit) { closeEditor(); redraw(); } else openEditor(); });
  $('editCancel').addEventListener('click', () => { closeEditor(); redraw(); $('posText').value = current()?.position ?? ''; });
  $('editClear').addEventListener('click', () => {
    if (!S.edit) return;
    const keep = S.edit.kind;
    S.edit.kind = '';
    for (const p of Object.keys(S.edit.pieces)) editClick(p);
    S.edit.kind = keep;
  });
  $('editAnalyse').addEventListener('click', analyseEdit);
  // Skip to the moves: the first move (or the list when there is none).
  $('skipLink').addEventListener('click', (ev) => {
    ev.preventDefault();
    const li = $('movesA').querySelector('li');
    (li || $('movesA')).focus();
  });
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
  window.addEventListener('popstate', () => loadFromUrl(false));
  document.addEventListener('keydown', (ev) => {
    const t = ev.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
    // While editing a position, only Escape (cancel the editor) is a shortcut.
    if (S.edit) {
      if (ev.key === 'Escape') { closeEditor(); redraw(); $('posText').value = current()?.position ?? ''; }
      return;
    }
    // Space on a focused button or move is that control's own (a click), never "best move".
    const onControl = t instanceof Element && t !== document.body && !!t.closest('button, a, [tabindex], [role=button]');
    if (ev.key === ' ') { if (onControl) return; ev.preventDefault(); playBest(); }
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
