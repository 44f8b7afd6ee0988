// @ts-check
/**
 * Compare mode's controls and view. In the side panel: a box per method the engine offers (2 to
 * 4 ticked), Compare (or C) and Show. Over the map, once a comparison ran: the small multiples
 * (or every method overlaid on one map: O switches),
 * the stats table (method, time, nodes expanded, length, cost, legal), the bar chart of time
 * and expanded, and the race's controls (play or pause, to the start or the end, speed; Space,
 * Home and End while the view has the focus, Esc closes it).
 *
 * @module panels/comparemode
 */

import { hasPath } from '../app.js';
import {
  MAX_METHODS, raceLength, raceSpeed, runCompare, seekRace, setLayout, setRaceSpeed, showCompare, tickMethod, toggleRace,
} from '../compare.js';
import { methodLabel } from '../settings.js';
import { $, fixed, fmt, plural } from '../util.js';
import { MultiplePanel, barChart } from '../view/multiples.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../engine.js').Engine} Engine */
/** @typedef {import('../compare.js').MethodRun} MethodRun */

/** The table's columns: key, heading, how a run's value is written, its raw value. */
const COLUMNS = /** @type {const} */ ([
  ['ms', 'Time (ms)', (/** @type {MethodRun} */ r) => (r.ms === null ? '–' : fixed(r.ms, 2)), (/** @type {MethodRun} */ r) => r.ms],
  ['expanded', 'Expanded', (/** @type {MethodRun} */ r) => (r.expanded === null ? '–' : fmt(r.expanded)), (/** @type {MethodRun} */ r) => r.expanded],
  ['length', 'Length', (/** @type {MethodRun} */ r) => (r.length === null ? '–' : fixed(r.length, 2)), (/** @type {MethodRun} */ r) => r.length],
  ['cost', 'Cost', (/** @type {MethodRun} */ r) => (r.cost === null ? '–' : fixed(r.cost, 2)), (/** @type {MethodRun} */ r) => r.cost],
  ['legal', 'Legal', (/** @type {MethodRun} */ r) => (r.legal === null ? '–' : r.legal ? 'yes' : 'no'), (/** @type {MethodRun} */ r) => r.legal],
]);

/** What the table's headings explain when pointed at. */
const HEAD_TITLES = /** @type {Record<string, string>} */ ({
  'Time (ms)': 'The worker\'s time for the whole plan (search and turning), measured once: it varies from run to run',
  Length: 'The path\'s length in tiles',
  Cost: 'The path\'s cost in the method\'s own units: with 10 / 14 step costs a straight step costs 10; directional methods count tiles of ground',
  Legal: 'Whether the unit\'s body stays clear of walls all along the path',
});

/** What a run that has no path says in its row and caption. */
const STATE_WORDS = Object.freeze({ waiting: 'waiting', running: 'running…', cancelled: 'cancelled', error: 'failed' });

/**
 * @param {AppState} app
 * @param {Engine} engine
 */
export function compareModePanel(app, engine) {
  const cm = app.methods;
  const boxes = $('cmp-methods');
  const runBtn = /** @type {HTMLButtonElement} */ ($('cmp-run'));
  const showBtn = /** @type {HTMLButtonElement} */ ($('cmp-show'));
  const errorBox = $('cmp-error');
  const view = $('cmp-view');
  const title = $('cmp-title');
  const note = $('cmp-note');
  const grid = $('cmp-grid');
  const head = /** @type {HTMLElement} */ (view.querySelector('.cmp-head'));
  const stats = /** @type {HTMLElement} */ (view.querySelector('.cmp-stats'));
  const table = /** @type {HTMLTableElement} */ ($('cmp-table'));
  const chart = $('cmp-chart');
  const playBtn = /** @type {HTMLButtonElement} */ ($('cmp-race-play'));
  const startBtn = /** @type {HTMLButtonElement} */ ($('cmp-race-start'));
  const endBtn = /** @type {HTMLButtonElement} */ ($('cmp-race-end'));
  const speed = /** @type {HTMLInputElement} */ ($('cmp-race-speed'));
  const speedOut = $('cmp-race-speed-out');
  const pos = $('cmp-race-pos');
  /** @type {MultiplePanel[]} one per run, rebuilt when the runs change */
  const panels = [];
  /** @type {HTMLElement[]} their captions */
  const captions = [];
  /** the runs the panels were built for */
  const built = { runs: /** @type {MethodRun[] | null} */ (null), layout: cm.layout };
  const layoutBtns = /** @type {HTMLButtonElement[]} */ ([...view.querySelectorAll('[data-layout]')]);
  for (const b of layoutBtns) b.addEventListener('click', () => setLayout(app, b.dataset.layout === 'overlay' ? 'overlay' : 'side'));

  runBtn.addEventListener('click', () => void runCompare(app, engine));
  showBtn.addEventListener('click', () => {
    showCompare(app, !cm.open);
    if (cm.open) view.focus();
  });
  $('cmp-close').addEventListener('click', () => {
    showCompare(app, false);
    showBtn.focus();
  });
  playBtn.addEventListener('click', () => toggleRace(app));
  startBtn.addEventListener('click', () => seekRace(app, 0));
  endBtn.addEventListener('click', () => seekRace(app, Infinity));
  speed.addEventListener('input', () => setRaceSpeed(app, Number(speed.value)));
  view.addEventListener('keydown', (e) => {
    const t = /** @type {HTMLElement} */ (e.target);
    if (t.tagName === 'INPUT' || e.ctrlKey || e.metaKey || e.altKey) return;
    const act = {
      ' ': () => t.tagName !== 'BUTTON' && toggleRace(app),
      Home: () => seekRace(app, 0),
      End: () => seekRace(app, Infinity),
      o: () => setLayout(app, cm.layout === 'side' ? 'overlay' : 'side'),
      Escape: () => !app.searching && (showCompare(app, false), showBtn.focus()),
    }[e.key];
    // Esc while a comparison runs is the page's: it cancels.
    if (!act || (e.key === 'Escape' && app.searching)) return;
    if (e.key === ' ' && t.tagName === 'BUTTON') return;
    e.preventDefault();
    e.stopPropagation();
    act();
  });

  function showChoice() {
    const offered = app.choices.method ?? [];
    const present = [...boxes.querySelectorAll('input')].map((b) => b.value);
    if (present.join() !== offered.join()) {
      boxes.replaceChildren();
      for (const m of offered) {
        const lab = document.createElement('label');
        lab.className = 'check';
        const box = document.createElement('input');
        box.type = 'checkbox';
        box.value = m;
        box.dataset.testid = `cmp-method-${m}`;
        box.addEventListener('change', () => {
          if (!tickMethod(app, m, box.checked)) box.checked = cm.chosen.includes(m);
        });
        lab.append(box, ` ${methodLabel(app, m)}`);
        boxes.append(lab);
      }
    }
    for (const box of boxes.querySelectorAll('input')) box.checked = cm.chosen.includes(box.value);
    const n = cm.chosen.length;
    runBtn.disabled = app.engineState !== 'ready' || cm.running;
    runBtn.textContent = cm.running ? 'Comparing…' : n >= 2 && n <= MAX_METHODS ? `Compare ${n}` : 'Compare';
    showBtn.disabled = !cm.runs;
    showBtn.setAttribute('aria-pressed', String(cm.open));
    showBtn.textContent = cm.open ? 'Hide' : 'Show';
    errorBox.hidden = !cm.error;
    errorBox.textContent = cm.error;
  }

  /** Build a panel (canvas and caption) per run, or one for them all overlaid. */
  function buildPanels() {
    const runs = cm.runs ?? [];
    built.runs = cm.runs;
    built.layout = cm.layout;
    grid.replaceChildren();
    panels.length = 0;
    captions.length = 0;
    const overlay = cm.layout === 'overlay';
    grid.dataset.count = String(overlay ? 1 : runs.length);
    if (overlay) {
      addPanel('cmp-panel-overlay', `${runs.map((r) => r.label).join(', ')} on one map: the closed tiles of each outlined, and their paths`).classList.add('cmp-overlay');
    } else {
      for (const run of runs) {
        addPanel(`cmp-panel-${run.method}`, `${run.label}: its explored tiles and path`).style.setProperty('--run-color', run.color);
      }
    }
    sizePanels();
  }

  /**
   * One small multiple: a figure with its canvas and caption, in the grid.
   * @param {string} testid
   * @param {string} label  what the canvas shows, for screen readers
   */
  function addPanel(testid, label) {
    const fig = document.createElement('figure');
    fig.className = 'cmp-panel';
    fig.dataset.testid = testid;
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', label);
    const cap = document.createElement('figcaption');
    fig.append(canvas, cap);
    grid.append(fig);
    panels.push(new MultiplePanel(canvas));
    captions.push(cap);
    return fig;
  }

  /** Equal canvases that fit the view: 2 side by side, 3 or 4 in two rows. */
  function sizePanels() {
    const map = cm.map;
    if (!map || !panels.length || view.hidden) return;
    const n = panels.length;
    const cols = n <= 2 ? n : 2;
    // Overlaid, one map takes the room of the grid.
    const rows = Math.ceil(n / cols);
    const gap = 8;
    const caption = 22;
    // The grid takes what the head, the note and the table with its chart leave (the view scrolls below 90 px).
    const below = head.offsetHeight + (note.hidden ? 0 : note.offsetHeight + gap) + stats.offsetHeight + 2 * gap + 20;
    const w = (grid.clientWidth - gap * (cols - 1)) / cols;
    // Over the map the view has the map's height; in the page's flow (phones) about half the window.
    const room = getComputedStyle(view).position === 'absolute' ? view.clientHeight - below : window.innerHeight * 0.55;
    const h = Math.max(90, (room - gap * (rows - 1)) / rows - caption);
    const ts = Math.min(w / map.width, h / map.height);
    for (const p of panels) p.resize(Math.floor(map.width * ts), Math.floor(map.height * ts));
    drawPanels();
  }

  function drawPanels() {
    const map = cm.map;
    const runs = cm.runs;
    if (!map || !runs || view.hidden) return;
    if (cm.layout === 'overlay' && panels[0]) {
      panels[0].drawOverlay(map, app.core.terrains, runs);
      captions[0].replaceChildren(...runs.map((run) => {
        const entry = document.createElement('span');
        entry.className = 'cmp-entry';
        entry.append(swatch(run.color), ` ${run.label}`, caption(run));
        return entry;
      }));
      captions[0].title = captions[0].textContent ?? '';
    } else runs.forEach((run, i) => {
      const p = panels[i];
      if (!p) return;
      p.draw(map, app.core.terrains, run);
      captions[i].replaceChildren(swatch(run.color), ` ${run.label}`, caption(run));
      captions[i].title = captions[i].textContent ?? ''; // the whole line, where it is cut short
    });
    const n = raceLength(app);
    const k = Math.floor(cm.race.k);
    playBtn.textContent = cm.race.playing ? 'Pause' : 'Race';
    playBtn.setAttribute('aria-pressed', String(cm.race.playing));
    playBtn.disabled = !n || cm.running;
    startBtn.disabled = !n || cm.running;
    endBtn.disabled = !n || cm.running;
    pos.textContent = cm.running ? 'the race starts when all have run' : n ? `expansion ${fmt(Math.min(k, n))} of ${fmt(n)}` : 'nothing recorded to race';
    speed.value = String(cm.race.slider);
    speedOut.textContent = `${fmt(raceSpeed(app))}/s`;
  }

  /**
   * What a panel's caption says after the name: how far it is in the race, or how it ended.
   * @param {MethodRun} run
   */
  function caption(run) {
    const span = document.createElement('span');
    span.className = 'cmp-state';
    if (run.state !== 'done') span.textContent = ` · ${STATE_WORDS[run.state]}`;
    else if (run.replay && !run.replay.atEnd) span.textContent = ` · ${fmt(run.replay.k)} of ${fmt(run.replay.n)}`;
    else {
      const end = hasPath(run.status) ? 'finished' : run.status.replace(/_/g, ' ');
      span.textContent = ` · ${end}, ${plural(run.expanded ?? 0, 'node')} expanded${run.replay ? '' : ' (not raced)'}`;
      if (!run.replay) span.title = 'Its expansions were not recorded one by one (a directional search, or over 50,000 expansions): it is shown finished';
      span.classList.add('done');
    }
    return span;
  }

  /** @param {string} color */
  function swatch(color) {
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = color;
    return sw;
  }

  function showTable() {
    const runs = cm.runs ?? [];
    table.replaceChildren();
    const cap = table.createCaption();
    cap.textContent = 'Each method on the same query, with the same settings';
    const head = table.createTHead().insertRow();
    for (const t of ['Method', ...COLUMNS.map((c) => c[1])]) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = t;
      th.title = HEAD_TITLES[t] ?? '';
      head.append(th);
    }
    const body = table.createTBody();
    for (const run of runs) {
      const tr = body.insertRow();
      tr.dataset.testid = `cmp-row-${run.method}`;
      tr.dataset.state = run.state;
      const name = document.createElement('th');
      name.scope = 'row';
      name.append(swatch(run.color), run.label);
      if (run.ran !== run.method) name.append(` (planned with ${methodLabel(app, run.ran)})`);
      if (run.message) name.title = run.message;
      tr.append(name);
      if (run.state !== 'done') {
        const td = tr.insertCell();
        td.colSpan = COLUMNS.length;
        td.className = run.state === 'error' ? 'bad' : 'muted';
        td.dataset.testid = `cmp-why-${run.method}`;
        td.textContent = run.state === 'error' ? `failed: ${run.message}` : STATE_WORDS[run.state];
        continue;
      }
      for (const [key, , text, value] of COLUMNS) {
        const td = tr.insertCell();
        td.className = key === 'legal' ? (run.legal === false ? 'bad' : 'ok') : 'num';
        td.dataset.testid = `cmp-${key}-${run.method}`;
        const v = value(run);
        td.dataset.value = v === null ? '' : String(v);
        td.textContent = text(run);
      }
      if (!hasPath(run.status)) tr.title = `${run.status.replace(/_/g, ' ')}: ${run.message}`;
    }
    chart.replaceChildren(runs.some((r) => r.state === 'done') ? barChart(runs, { ms: (v) => fixed(v, 2), count: fmt }) : '');
  }

  function showView() {
    view.hidden = !cm.open;
    if (!cm.open) return;
    title.textContent = `Compare: ${(cm.runs ?? []).map((r) => r.label).join(' · ')}`;
    const stale = !!cm.map && cm.map.version !== app.model.version;
    note.hidden = !stale;
    note.textContent = stale ? 'The map has changed since this comparison: Compare again to see the map as it is.' : '';
    showTable();
    for (const b of layoutBtns) {
      const on = b.dataset.layout === cm.layout;
      b.classList.toggle('on', on);
      b.setAttribute('aria-checked', String(on));
    }
    if (built.runs !== cm.runs || built.layout !== cm.layout) buildPanels();
    else sizePanels();
  }

  new ResizeObserver(() => sizePanels()).observe(view);
  app.on('methods', () => {
    showChoice();
    showView();
  });
  app.on('choices', showChoice);
  app.on('controls', showChoice);
  app.on('map', () => {
    if (cm.open) showView();
  });
  app.on('race', drawPanels);
  showChoice();
  showView();
}
