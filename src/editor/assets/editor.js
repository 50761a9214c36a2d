// The save editor's page: a virtualized tree of values beside a virtualized hex view, over the JSON API (docs/editor.md).
'use strict';

const TOKEN = new URLSearchParams(location.search).get('token') || '';
const PAGE = 200;        // children fetched per request
const CHUNK = 4096;      // bytes fetched per hex request
const TREE_ROW = 20, HEX_ROW = 18;
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

async function api(method, url, body) {
  const r = await fetch(url, {
    method,
    headers: { 'X-Gdvariant-Token': TOKEN, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const j = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(j.error || `HTTP ${r.status}`);
  return j;
}

// A list of fixed-height rows of which only the visible ones exist; past a few million
// pixels the scroll position is scaled, so any number of rows scrolls.
class VList {
  constructor(el, rowHeight, renderRow) {
    this.el = el; this.h = rowHeight; this.renderRow = renderRow; this.count = 0;
    this.spacer = el.querySelector('.spacer'); this.rows = el.querySelector('.rows');
    this.queued = false;
    el.addEventListener('scroll', () => this.schedule());
    new ResizeObserver(() => this.schedule()).observe(el);
  }
  get maxPx() { return 8e6; }
  setCount(n) { this.count = n; this.spacer.style.height = Math.min(n * this.h, this.maxPx) + 'px'; this.schedule(); }
  visible() { return Math.ceil(this.el.clientHeight / this.h) + 1; }
  first() {
    const full = this.count * this.h;
    if (full <= this.maxPx) return Math.floor(this.el.scrollTop / this.h);
    const room = this.maxPx - this.el.clientHeight;
    return Math.floor((this.el.scrollTop / Math.max(room, 1)) * Math.max(this.count - this.visible() + 1, 0));
  }
  scrollTo(row) {
    const first = this.first(), n = this.visible();
    if (row >= first && row < first + n - 2) return;
    const full = this.count * this.h;
    const target = Math.max(row - 3, 0);
    if (full <= this.maxPx) this.el.scrollTop = target * this.h;
    else this.el.scrollTop = (target / Math.max(this.count - this.visible() + 1, 1)) * (this.maxPx - this.el.clientHeight);
    this.schedule();
  }
  schedule() { if (!this.queued) { this.queued = true; requestAnimationFrame(() => { this.queued = false; this.render(); }); } }
  render() {
    const first = this.first(), n = Math.min(this.visible(), Math.max(this.count - first, 0));
    let html = '';
    for (let i = 0; i < n; i++) html += this.renderRow(first + i);
    this.rows.style.transform = `translateY(${this.el.scrollTop}px)`;
    this.rows.innerHTML = html;
    // Indents are set here: the page's policy forbids inline style attributes.
    for (const r of this.rows.children) if (r.dataset.depth) r.style.paddingLeft = `${r.dataset.depth * 16 + 4}px`;
  }
}

// ---- state ----
const S = { files: [], options: null, file: 0, info: null, root: null, sel: null, hex: new Map(), loading: new Set() };

// A tree node: its children's descriptions in pages, and its expanded children.
function tnode(path, info) {
  return { path, info, expanded: false, total: 0, pages: new Map(), kids: new Map(), open: [], size: 1 };
}

function resize(n) {
  n.size = 1 + (n.expanded ? n.total + n.open.reduce((s, i) => s + n.kids.get(i).size - 1, 0) : 0);
}
function resizeUp(path) {
  const chain = [S.root];
  for (const i of path) { const k = chain[chain.length - 1].kids.get(i); if (!k) break; chain.push(k); }
  for (let j = chain.length - 1; j >= 0; j--) resize(chain[j]);
  tree.setCount(S.root.size - 1);
}

// The row `k` of `node`'s children block: its parent, index and depth.
function rowAt(node, k, depth) {
  let base = 0, idx = 0;
  for (const i of node.open) {
    const kid = node.kids.get(i);
    if (k < base + (i - idx)) return { parent: node, index: idx + (k - base), depth };
    base += i - idx;
    if (k < base + kid.size) return k === base ? { parent: node, index: i, depth } : rowAt(kid, k - base - 1, depth + 1);
    base += kid.size; idx = i + 1;
  }
  return { parent: node, index: idx + (k - base), depth };
}
function rowOf(path) {
  let node = S.root, row = 0;
  for (let d = 0; d < path.length; d++) {
    const i = path[d];
    let before = i;
    for (const j of node.open) { if (j < i) before += node.kids.get(j).size - 1; else break; }
    row += before;
    if (d === path.length - 1) return row;
    row += 1; node = node.kids.get(i);
  }
  return row;
}

function childInfo(node, i) {
  const p = node.pages.get(Math.floor(i / PAGE));
  if (p && p !== 'loading') return p[i % PAGE];
  if (!p) loadPage(node, Math.floor(i / PAGE));
  return null;
}
async function loadPage(node, page) {
  node.pages.set(page, 'loading');
  const file = S.file;
  try {
    const r = await api('GET', `/api/files/${file}/children?path=${node.path.join(',')}&from=${page * PAGE}&count=${PAGE}`);
    if (file !== S.file) return;
    node.pages.set(page, r.children);
    // Open children whose value changed under them: a new count, or no longer a container.
    let moved = r.total !== node.total;
    node.total = r.total;
    for (const c of r.children) {
      const kid = node.kids.get(c.index);
      if (!kid || !kid.expanded || kid.total === c.count) continue;
      moved = true;
      if (c.count == null) { node.kids.delete(c.index); node.open = node.open.filter((j) => j !== c.index); } else { kid.total = c.count; resize(kid); }
    }
    if (moved) resizeUp(node.path);
    tree.schedule();
    if (!window.gdvFirstDraw) requestAnimationFrame(() => { window.gdvFirstDraw = performance.now(); });
  } catch (e) { node.pages.delete(page); say(e.message, true); }
}
function ensurePage(node, i) {
  const page = Math.floor(i / PAGE);
  const p = node.pages.get(page);
  if (p && p !== 'loading') return Promise.resolve(p[i % PAGE]);
  return loadPage(node, page).then(() => (node.pages.get(page) || [])[i % PAGE]);
}

function badge(info) {
  const bits = info.bits ? ` ${info.bits}` : '';
  const el = info.element ? `[${esc(info.element)}]` : '';
  return `<span class="badge${info.count != null ? ' c' : ''}">${esc(info.kind)}${el}${bits}</span>`;
}
function treeRow(k) {
  const { parent, index, depth } = rowAt(S.root, k, 0);
  const path = parent.path.concat(index);
  const info = childInfo(parent, index);
  const kid = parent.kids.get(index);
  const pad = `data-depth="${depth}"`;
  const sel = S.sel && S.sel.path.join(',') === path.join(',') ? ' sel' : '';
  if (!info) return `<div class="row" ${pad}>…</div>`;
  const tog = info.count != null ? (kid && kid.expanded ? '▾' : '▸') : '';
  const tail = info.error ? `<span class="err">${esc(info.error)}</span>`
    : info.count != null ? `<span class="count">${info.count} ${info.count === 1 ? 'child' : 'children'}</span> <span class="summary">${esc(info.summary)}</span>`
    : `<span class="summary">${esc(info.summary)}</span>`;
  return `<div class="row${sel}" data-path="${path.join(',')}" ${pad}><span class="tog">${tog}</span><span class="label">${esc(info.label)}</span>${badge(info)}${tail}</div>`;
}
const tree = new VList($('tree'), TREE_ROW, treeRow);

async function toggle(path, open) {
  let node = S.root;
  for (let d = 0; d < path.length; d++) {
    const i = path[d];
    const info = await ensurePage(node, i);
    if (!info) return;
    let kid = node.kids.get(i);
    if (!kid) { kid = tnode(node.path.concat(i), info); node.kids.set(i, kid); }
    const last = d === path.length - 1;
    const want = last ? (open === undefined ? !kid.expanded : open) : true;
    if (info.count != null && kid.expanded !== want) {
      kid.expanded = want; kid.total = info.count;
      if (want) { node.open.push(i); node.open.sort((a, b) => a - b); } else node.open = node.open.filter((j) => j !== i);
    }
    node = kid;
  }
  resizeUp(path);
}

// ---- selection, bytes ----
async function select(path, { scroll = true } = {}) {
  if (!path || !path.length) return;
  await toggle(path.slice(0, -1), true);
  const r = await api('GET', `/api/files/${S.file}/node?path=${path.join(',')}`);
  S.sel = { path, info: r.node, pointer: r.pointer };
  if (scroll) tree.scrollTo(rowOf(path));
  tree.schedule();
  const b = r.node.bytes;
  $('pointer').textContent = (S.info.frames > 1 ? `frame ${path[0]} ` : '') + (r.pointer === null ? '(a key on the way has no path)' : (r.pointer || '/'));
  $('span').textContent = b ? `bytes ${b.start}–${b.end - 1} (${b.end - b.start})` : '';
  if (b && scroll) hexView.scrollTo(Math.floor(b.start / 16));
  hexView.schedule();
  buildEditor(r.node, path);
}

function hexByte(o) {
  const c = S.hex.get(Math.floor(o / CHUNK));
  if (!c) { loadChunk(Math.floor(o / CHUNK)); return null; }
  return c[o % CHUNK];
}
async function loadChunk(n) {
  if (S.loading.has(n)) return;
  S.loading.add(n);
  const file = S.file;
  try {
    const r = await api('GET', `/api/files/${file}/hex?from=${n * CHUNK}&len=${CHUNK}`);
    if (file !== S.file) return;
    const a = new Uint8Array(r.hex.length / 2);
    for (let i = 0; i < a.length; i++) a[i] = parseInt(r.hex.substr(i * 2, 2), 16);
    S.hex.set(n, a);
    if (S.hex.size > 512) S.hex.delete(S.hex.keys().next().value);
    hexView.schedule();
  } finally { S.loading.delete(n); }
}
function hexRow(r) {
  const start = r * 16, end = Math.min(start + 16, S.info.size);
  const b = S.sel && S.sel.info.bytes;
  let hex = '', ascii = '';
  for (let o = start; o < end; o++) {
    const v = hexByte(o);
    const cls = b && o >= b.start && o < b.end ? ' class="sel"' : '';
    hex += `<b data-o="${o}"${cls}>${v === null ? '··' : v.toString(16).padStart(2, '0')}</b>`;
    ascii += v === null ? ' ' : v >= 32 && v < 127 ? String.fromCharCode(v) : '.';
  }
  return `<div class="hrow"><span class="off">${start.toString(16).padStart(8, '0')}</span>${hex}<span class="ascii">${esc(ascii)}</span></div>`;
}
const hexView = new VList($('hex'), HEX_ROW, hexRow);

let hoverTimer = 0, lastHover = -1;
$('hex').addEventListener('mousemove', (e) => {
  const o = e.target.dataset && e.target.dataset.o;
  if (o === undefined || +o === lastHover) return;
  lastHover = +o;
  clearTimeout(hoverTimer);
  hoverTimer = setTimeout(async () => {
    const r = await api('GET', `/api/files/${S.file}/at?offset=${o}`).catch(() => null);
    const l = r && r.line;
    $('explain').textContent = l ? `0x${l.offset.toString(16)} +${l.len}  ${l.field}  ${l.value}${l.description ? '  — ' + l.description : ''}` : '';
  }, 80);
});
$('hex').addEventListener('click', async (e) => {
  const o = e.target.dataset && e.target.dataset.o;
  if (o === undefined) return;
  const r = await api('GET', `/api/files/${S.file}/at?offset=${o}`);
  if (r.path) await select(r.path, { scroll: true });
});
$('tree').addEventListener('click', (e) => {
  const row = e.target.closest('.row');
  if (!row || !row.dataset.path) return;
  const path = row.dataset.path.split(',').map(Number);
  if (e.target.classList.contains('tog')) toggle(path);
  else select(path).catch((err) => say(err.message, true));
});
$('tree').addEventListener('dblclick', (e) => {
  const row = e.target.closest('.row');
  if (row && row.dataset.path) toggle(row.dataset.path.split(',').map(Number));
});

// ---- editing ----
function say(text, bad) { const m = $('message'); m.textContent = text; m.className = bad ? 'bad' : ''; }

// An input for each scalar of a JSON-form value; `get()` gives the value back in the same shape.
function inputs(v, name, info) {
  if (typeof v === 'boolean') {
    const el = document.createElement('input'); el.type = 'checkbox'; el.checked = v; el.title = name;
    return { el, get: () => el.checked };
  }
  if (typeof v === 'number' || (typeof v === 'string' && /^(-?\d+|-?inf|-?nan.*)$/.test(v) && info.number)) {
    const el = document.createElement('input'); el.type = 'text'; el.value = String(v); el.title = name;
    el.className = 'num';
    const get = () => {
      const t = el.value.trim();
      if (/^-?(inf|nan(:0x[0-9a-f]+)?)$/i.test(t)) return t.toLowerCase();
      if (info.int) {
        if (!/^-?\d+$/.test(t)) throw new Error(`${name}: not an integer`);
        const n = BigInt(t), [lo, hi] = info.range;
        if (n < lo || n > hi) throw new Error(`${name}: ${t} does not fit ${info.bits}-bit ${info.unsigned ? 'unsigned ' : ''}integers`);
        return Number.isSafeInteger(Number(n)) ? Number(n) : t;
      }
      const f = Number(t);
      if (t === '' || Number.isNaN(f)) throw new Error(`${name}: not a number`);
      return f;
    };
    el.addEventListener('input', () => { try { get(); el.classList.remove('bad'); } catch (_) { el.classList.add('bad'); } });
    return { el, get };
  }
  if (typeof v === 'string') {
    const el = document.createElement('input'); el.type = 'text'; el.value = v; el.className = 'wide'; el.title = name;
    return { el, get: () => el.value };
  }
  const box = document.createElement('fieldset');
  const lg = document.createElement('legend'); lg.textContent = name; box.appendChild(lg);
  const parts = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
  const got = parts.map(([k, x]) => { const p = inputs(x, Array.isArray(v) ? 'xyzw'[k] || String(k) : k, info); box.appendChild(p.el); return [k, p]; });
  return { el: box, get: () => (Array.isArray(v) ? got.map(([, p]) => p.get()) : Object.fromEntries(got.map(([k, p]) => [k, p.get()]))) };
}

// Which numbers a value's inputs take: a packed array's elements keep its element width,
// the integer math types (Vector2i, Rect2i, …) hold 32-bit components, an int 64 bits.
function numberInfo(node) {
  const int = node.kind === 'Int' || node.kind === 'Rid' || /i$/.test(node.kind);
  const bits = node.element_bits || (/i$/.test(node.kind) ? 32 : 64), unsigned = bits === 8;
  const range = unsigned ? [0n, 255n] : [-(2n ** BigInt(bits - 1)), 2n ** BigInt(bits - 1) - 1n];
  // Strings that look like numbers are numbers only where the JSON form has numbers: a
  // 64-bit int beyond 2^53 and the non-numbers (`"inf"`, `"nan"`) are written as strings.
  const number = !['String', 'StringName', 'NodePath', 'Object', 'Signal'].includes(node.kind);
  return { bits, unsigned, range, int, number };
}

function button(text, f) { const b = document.createElement('button'); b.textContent = text; b.addEventListener('click', f); return b; }
function textInput(ph) { const t = document.createElement('input'); t.type = 'text'; t.placeholder = ph; t.className = 'wide'; return t; }

function buildEditor(node, path) {
  const ed = $('editor'); ed.innerHTML = ''; say('');
  if (!S.info.writable) return;
  if (node.json && node.json.value !== undefined) {
    const ni = numberInfo(node);
    const form = inputs(node.json.value, node.kind, ni);
    ed.appendChild(form.el);
    if (node.kind === 'Color') {
      const pick = document.createElement('input'); pick.type = 'color';
      const c = node.json.value.map((x) => (typeof x === 'number' ? x : 0));
      pick.value = '#' + c.slice(0, 3).map((x) => Math.round(Math.min(Math.max(x, 0), 1) * 255).toString(16).padStart(2, '0')).join('');
      pick.addEventListener('input', () => {
        const boxes = form.el.querySelectorAll('input.num');
        for (let i = 0; i < 3; i++) boxes[i].value = String(parseInt(pick.value.substr(1 + i * 2, 2), 16) / 255);
      });
      ed.appendChild(pick);
    }
    ed.appendChild(button('apply', () => {
      let value;
      try { value = form.get(); } catch (e) { say(e.message, true); return; }
      edit({ op: 'set', path, value: { type: node.json.type, value } });
    }));
  }
  if (node.count != null) {
    const isDict = node.kind === 'Dictionary';
    const key = isDict ? textInput('key, as text: "name"') : null;
    const val = textInput('new value, as text: 1, "x", Vector2(1, 2)');
    if (key) ed.appendChild(key);
    ed.appendChild(val);
    ed.appendChild(button(isDict ? 'add entry' : 'append', () => {
      const body = { op: 'insert', path, text: val.value };
      if (isDict) body.key_text = key.value;
      edit(body, () => toggle(path, true).then(() => select(path, { scroll: false })));
    }));
  }
  const asText = textInput('replace with a value as text');
  ed.appendChild(asText);
  ed.appendChild(button('replace', () => edit({ op: 'set', path, text: asText.value })));
  if (path.length > 1) ed.appendChild(button('remove', () => edit({ op: 'remove', path }, () => select(path.slice(0, -1)))));
}

async function edit(body, after) {
  try {
    const r = await api('POST', `/api/files/${S.file}/edit`, body);
    changed(r.file, r.frame, body.op === 'remove' ? body.path.slice(0, -1) : body.path);
    say('edited');
    if (after) await after(); else if (S.sel) await select(S.sel.path, { scroll: false });
  } catch (e) { say('refused: ' + e.message, true); }
}

// After an edit, undo or redo: every description and byte is fetched again as it is shown,
// and in the frame that changed only the containers along `keep` stay open (what was open
// elsewhere in it may have moved or gone).
function changed(file, frame, keep = []) {
  S.info = file; showFile();
  const forget = (n) => { n.pages.clear(); n.kids.forEach(forget); };
  forget(S.root);
  if (keep[0] !== frame) keep = [frame];
  let node = frame == null ? null : S.root.kids.get(frame);
  for (let d = 1; node; d++) {
    const next = keep[d];
    for (const i of [...node.kids.keys()]) if (i !== next) node.kids.delete(i);
    node.open = node.open.filter((i) => node.kids.has(i));
    node = d < keep.length ? node.kids.get(next) : null;
  }
  S.root.total = file.frames;
  const resizeAll = (n) => { n.kids.forEach(resizeAll); resize(n); };
  resizeAll(S.root); tree.setCount(S.root.size - 1);
  S.hex.clear(); hexView.setCount(Math.ceil(file.size / 16));
}

async function history(op) {
  try {
    const r = await api('POST', `/api/files/${S.file}/${op}`);
    changed(r.file, r.frame, S.sel ? S.sel.path : []);
    if (S.sel) await select(S.sel.path, { scroll: false }).catch(() => select(S.sel.path.slice(0, 1)));
  } catch (e) { say(e.message, true); }
}
$('undo').addEventListener('click', () => history('undo'));
$('redo').addEventListener('click', () => history('redo'));
document.addEventListener('keydown', (e) => {
  if (!(e.ctrlKey || e.metaKey) || e.target.tagName === 'INPUT') return;
  if (e.key === 'z' && !e.shiftKey) { e.preventDefault(); history('undo'); }
  if (e.key === 'y' || (e.key === 'Z' && e.shiftKey)) { e.preventDefault(); history('redo'); }
});
$('save').addEventListener('click', async () => {
  try { const r = await api('POST', `/api/files/${S.file}/save`); S.info = r.file; showFile(); say(`saved; the original is kept as ${r.backup}`); } catch (e) { say(e.message, true); }
});
$('copy').addEventListener('click', () => {
  const t = S.sel && S.sel.pointer;
  if (t != null && navigator.clipboard) navigator.clipboard.writeText(t).then(() => say('path copied'), () => say(t));
});

// ---- search ----
async function runSearch(q, frame) {
  const box = $('results');
  if (!frame) box.innerHTML = '';
  const r = await api('GET', `/api/files/${S.file}/search?q=${encodeURIComponent(q)}&frame=${frame || 0}`);
  for (const p of r.matches) {
    const d = document.createElement('div');
    d.textContent = p.join(' / ');
    d.addEventListener('click', () => { box.hidden = true; select(p); });
    box.appendChild(d);
  }
  if (r.next_frame != null) { const m = document.createElement('div'); m.textContent = 'more…'; m.addEventListener('click', () => { m.remove(); runSearch(q, r.next_frame); }); box.appendChild(m); }
  if (!box.children.length) box.textContent = 'nothing found';
  box.hidden = false;
}
$('search').addEventListener('keydown', (e) => { if (e.key === 'Enter' && e.target.value) runSearch(e.target.value).catch((err) => say(err.message, true)); if (e.key === 'Escape') $('results').hidden = true; });

// ---- comparing two files ----
async function runDiff(other) {
  const a = S.file, box = $('results');
  const r = await api('GET', `/api/diff?a=${a}&b=${other}`);
  box.innerHTML = '';
  for (const d of r.differences) {
    const line = document.createElement('div');
    const what = d.a && d.b ? `${d.before} → ${d.after}` : d.a ? `only here: ${d.before}` : `only in ${S.files[other].name}: ${d.after}`;
    line.textContent = `${d.at}  ${what}`;
    line.addEventListener('click', async () => {
      box.hidden = true;
      if (!d.a) openFile(other, await api('GET', `/api/files/${other}`));
      await select(d.a || d.b);
    });
    box.appendChild(line);
  }
  if (r.truncated) box.appendChild(Object.assign(document.createElement('div'), { textContent: '(more differences not listed)' }));
  if (!r.differences.length) box.textContent = 'no differences';
  box.hidden = false;
}
$('diff').addEventListener('change', (e) => {
  const chosen = e.target.value;
  e.target.value = '';
  if (chosen !== '') runDiff(+chosen).catch((err) => say(err.message, true));
});
function diffChoices() {
  const others = S.files.map((f, i) => ({ name: String(i), label: `compare with ${f.name}` })).filter((o) => +o.name !== S.file);
  options($('diff'), [{ name: '', label: 'compare with…' }, ...others], '');
  $('diff').hidden = S.files.length < 2;
}

// ---- files and readings ----
function options(sel, list, value) {
  sel.innerHTML = list.map((o) => `<option value="${esc(o.name || o.version)}">${esc(o.label)}</option>`).join('');
  sel.value = value;
}
function showFile() {
  const f = S.info, o = S.options;
  options($('dialect'), o.dialects, f.reading.dialect);
  const d = o.dialects.find((x) => x.name === $('dialect').value);
  const versions = d.versions.map((v) => ({ version: v.version, label: v.label }));
  if (!versions.some((v) => v.version === f.reading.version)) versions.push({ version: f.reading.version, label: f.reading.version });
  options($('version'), versions, f.reading.version);
  options($('framing'), o.framings, f.reading.framing);
  $('confidence').textContent = `${f.writable ? '' : f.container + ' · '}${f.confidence}${f.error ? ' · stops at ' + f.error.offset + ': ' + f.error.message : ''}${f.dirty ? ' · edited' : ''}`;
  $('undo').disabled = !f.undo; $('redo').disabled = !f.redo; $('save').disabled = !f.writable;
  $('download').href = `/api/files/${S.file}/download?token=${TOKEN}`;
  document.querySelectorAll('#files button').forEach((b, i) => b.classList.toggle('on', i === S.file));
  diffChoices();
}
async function reread() {
  const body = { dialect: $('dialect').value, version: $('version').value, framing: $('framing').value };
  if (this === $('dialect')) body.version = S.options.dialects.find((x) => x.name === body.dialect).versions.slice(-1)[0].version;
  try { const r = await api('POST', `/api/files/${S.file}/reading`, body); openFile(S.file, r); } catch (e) { say(e.message, true); }
}
['dialect', 'version', 'framing'].forEach((id) => $(id).addEventListener('change', reread));

function openFile(i, info) {
  S.file = i; S.info = info; S.sel = null; S.hex.clear();
  S.root = tnode([], null); S.root.expanded = true; S.root.total = info.frames; resize(S.root);
  showFile();
  tree.setCount(S.root.size - 1); tree.el.scrollTop = 0;
  hexView.setCount(Math.ceil(info.size / 16)); hexView.el.scrollTop = 0;
  $('editor').innerHTML = ''; $('pointer').textContent = ''; $('span').textContent = '';
  if (info.locked) askPassword(i);
}

// A file whose container needs a password: ask for it, then open the file with it.
function askPassword(i) {
  const pw = document.createElement('input'); pw.type = 'password'; pw.placeholder = 'password';
  $('editor').appendChild(pw);
  $('editor').appendChild(button('open', async () => {
    try { openFile(i, await api('POST', `/api/files/${i}/unlock`, { password: pw.value })); } catch (e) { say(e.message, true); }
  }));
  say('this file needs a password');
}

(async function start() {
  const r = await api('GET', '/api/files');
  S.options = r; S.files = r.files;
  $('files').innerHTML = '';
  r.files.forEach((f, i) => $('files').appendChild(button(f.name, async () => openFile(i, await api('GET', `/api/files/${i}`)))));
  openFile(0, r.files[0]);
  window.gdv = { select, toggle, state: S };
})().catch((e) => say(e.message, true));
