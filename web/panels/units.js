// @ts-check
/**
 * The Units panel: what the mouse does on the map (edit the terrain, or command units), the
 * scenario presets, the tool (select, or place a tank, car or person) and team, what a right-click
 * orders (move, patrol, nearest; the points marked so far, Send, Last point back, Cancel), play, pause,
 * step and the simulation speed, the avoidance method, the fog player, the claimed-tiles and
 * paths toggles, the selected units (kind, speed, status, orders) with Stop and Remove, and what
 * the world last said. Under the map, the world's metrics in a small table.
 *
 * @module panels/units
 */

import { fixed, plural, $ } from '../util.js';
import { ORDER_KINDS, cancelOrder, dropOrderPoint, orderHint, sendOrder, setOrderKind } from '../orders.js';
import { openScenario } from '../io/work.js';
import { teamColor } from '../view/units.js';
import {
  KINDS, SPEEDS, TEAMS, kindSize, removeUnits, setAvoidance, setMode, setRunning, setSpeed, setView,
  stepWorld, stopSelected,
} from '../world.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../engine.js').Engine} Engine */

/** The presets' names for people. */
const PRESET_NAMES = Object.freeze(/** @type {Record<string, string>} */ ({
  corridor_bay: 'Corridor with a passing bay (2 tanks head-on)',
  junction: 'Junction (2 cars crossing)',
  door: 'Door (20 people, room to room)',
  group_swap: 'Group swap (10 + 10 through a corridor)',
  fog_dead_end: 'Fog: a hidden dead end',
  crowd: 'Crowd (100 units, 128 x 128)',
}));

/**
 * Options of a select, kept when they are the same.
 * @param {HTMLSelectElement} select
 * @param {Array<[string, string]>} entries  [value, text]
 */
function fill(select, entries) {
  const same = select.options.length === entries.length && entries.every(([v, t], i) => select.options[i].value === v && select.options[i].textContent === t);
  if (same) return;
  select.textContent = '';
  for (const [value, text] of entries) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    select.append(o);
  }
}

/**
 * @param {AppState} app
 * @param {Engine} engine
 */
export function unitsPanel(app, engine) {
  const w = app.world;
  const modeEdit = $('mode-edit');
  const modeUnits = $('mode-units');
  const preset = /** @type {HTMLSelectElement} */ ($('world-preset'));
  const load = /** @type {HTMLButtonElement} */ ($('world-load'));
  const tools = /** @type {HTMLElement} */ ($('world-tools'));
  const team = /** @type {HTMLSelectElement} */ ($('world-team'));
  const orderKinds = /** @type {HTMLElement} */ ($('world-orders'));
  const pending = $('order-pending');
  const hint = $('order-hint');
  const send = /** @type {HTMLButtonElement} */ ($('order-send'));
  const undoPoint = /** @type {HTMLButtonElement} */ ($('order-undo'));
  const cancel = /** @type {HTMLButtonElement} */ ($('order-cancel'));
  const play = /** @type {HTMLButtonElement} */ ($('world-play'));
  const step = /** @type {HTMLButtonElement} */ ($('world-step'));
  const speed = /** @type {HTMLSelectElement} */ ($('world-speed'));
  const avoidance = /** @type {HTMLSelectElement} */ ($('world-avoidance'));
  const player = /** @type {HTMLSelectElement} */ ($('world-player'));
  const claimed = /** @type {HTMLInputElement} */ ($('world-claimed'));
  const paths = /** @type {HTMLInputElement} */ ($('world-paths'));
  const selected = $('world-selected');
  const stop = /** @type {HTMLButtonElement} */ ($('world-stop'));
  const remove = /** @type {HTMLButtonElement} */ ($('world-remove'));
  const message = $('world-message');
  const metrics = $('world-metrics');
  const clock = $('world-clock');

  fill(team, TEAMS.map((t) => [t, t]));
  fill(speed, SPEEDS.map((s) => [String(s), `${s}\u00D7`]));
  modeEdit.addEventListener('click', () => setMode(app, 'edit'));
  modeUnits.addEventListener('click', () => setMode(app, 'units'));
  load.addEventListener('click', () => {
    if (preset.value) void openScenario(app, engine, preset.value);
  });
  tools.addEventListener('click', (e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest('button');
    if (!b || !b.dataset.tool) return;
    w.tool = /** @type {'select' | 'tank' | 'car' | 'person'} */ (b.dataset.tool);
    if (w.mode !== 'units') setMode(app, 'units');
    app.emit('world');
  });
  orderKinds.addEventListener('click', (e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest('button');
    const kind = /** @type {'move' | 'patrol' | 'nearest' | undefined} */ (b?.dataset.order);
    if (kind && ORDER_KINDS.includes(kind)) setOrderKind(app, kind);
  });
  send.addEventListener('click', (e) => void sendOrder(app, engine, e.shiftKey));
  undoPoint.addEventListener('click', () => dropOrderPoint(app));
  cancel.addEventListener('click', () => cancelOrder(app));
  team.addEventListener('change', () => {
    w.team = team.value;
    app.emit('world');
  });
  play.addEventListener('click', () => void setRunning(app, engine, !w.running));
  step.addEventListener('click', () => void stepWorld(app, engine));
  speed.addEventListener('change', () => void setSpeed(app, engine, Number(speed.value)));
  avoidance.addEventListener('change', () => void setAvoidance(app, engine, avoidance.value));
  player.addEventListener('change', () => void setView(app, engine, { player: player.value }));
  claimed.addEventListener('change', () => void setView(app, engine, { showClaimed: claimed.checked }));
  paths.addEventListener('change', () => void setView(app, engine, { showPaths: paths.checked }));
  stop.addEventListener('click', () => void stopSelected(app, engine));
  remove.addEventListener('click', () => void removeUnits(app, engine, [...w.selected]));

  function showSelected() {
    const units = w.units.filter((u) => w.selected.has(u.id));
    selected.textContent = '';
    if (!units.length) {
      selected.textContent = w.units.length
        ? 'No unit selected: click one, or drag a box round several.'
        : 'No units: load a scenario, or choose a kind above and click the map.';
      return;
    }
    const table = document.createElement('table');
    const head = table.createTHead().insertRow();
    for (const h of ['unit', 'kind', 'speed', 'status', 'orders']) {
      const th = document.createElement('th');
      th.textContent = h;
      head.append(th);
    }
    const body = table.createTBody();
    for (const u of units.slice(0, 12)) {
      const row = body.insertRow();
      row.dataset.unit = u.id;
      const name = row.insertCell();
      const dot = document.createElement('span');
      dot.className = 'team-dot';
      dot.style.background = teamColor(u.team);
      name.append(dot, u.id);
      row.insertCell().textContent = u.kind ?? 'custom';
      const sp = row.insertCell();
      sp.className = 'num';
      sp.textContent = `${fixed(Math.abs(u.speed), 2)}/${fixed(u.topSpeed, 1)}${u.speed < 0 ? ' rev' : ''}`;
      const st = row.insertCell();
      st.textContent = u.note === u.status ? u.status : u.note;
      if (u.status === 'failed' || u.status === 'stuck') st.className = 'bad';
      row.insertCell().textContent = u.orders.length ? u.orders.join(', then ') : '–';
    }
    selected.append(table);
    if (units.length > 12) selected.append(`… and ${plural(units.length - 12, 'more unit')}.`);
  }

  function showMetrics() {
    metrics.hidden = !w.on;
    if (!w.on) return;
    const m = w.metrics;
    /** @type {Array<[string, string, string]>} */
    const cells = [
      ['units', 'Units', m ? String(m.units) : '–'],
      ['arrived', 'Arrived', m ? `${m.arrived} / ${m.units}` : '–'],
      ['time', 'Game time', `${fixed(w.time, 1)} s`],
      ['makespan', 'Makespan', m && m.makespan !== null ? `${fixed(m.makespan, 2)} s` : '–'],
      ['travel', 'Sum of travel times', m ? `${fixed(m.travel_sum, 1)} s` : '–'],
      ['overlap', 'Deepest overlap', m ? `${fixed(m.deepest_overlap, 3)} tiles` : '–'],
      ['stuck', 'Longest stuck', m ? `${fixed(m.longest_stuck, 1)} s` : '–'],
      ['avoidance', 'Avoidance', w.avoidance],
    ];
    const table = document.createElement('table');
    const head = table.createTHead().insertRow();
    const body = table.createTBody().insertRow();
    for (const [key, label, value] of cells) {
      const th = document.createElement('th');
      th.textContent = label;
      head.append(th);
      const td = body.insertCell();
      td.dataset.metric = key;
      td.textContent = value;
      if (key === 'overlap' && m && m.deepest_overlap > 0.05) td.className = 'bad';
    }
    const title = document.createElement('h3');
    title.textContent = w.preset ? `Scenario: ${PRESET_NAMES[w.preset] ?? w.preset}` : 'Units on this map';
    metrics.replaceChildren(title, table);
  }

  /** The scenario the select was last set to from the state. */
  let shownPreset = '';

  function show() {
    const info = w.info;
    const ready = app.engineState === 'ready' && !!info;
    modeEdit.classList.toggle('on', w.mode === 'edit');
    modeEdit.setAttribute('aria-checked', String(w.mode === 'edit'));
    modeUnits.classList.toggle('on', w.mode === 'units');
    modeUnits.setAttribute('aria-checked', String(w.mode === 'units'));
    document.body.dataset.mode = w.mode;
    fill(preset, [['', 'choose a scenario…'], ...(info?.presets ?? Object.keys(PRESET_NAMES)).map((p) => /** @type {[string, string]} */ ([p, PRESET_NAMES[p] ?? p]))]);
    // follow the loaded scenario when it changes, but never undo a choice the user has made and not loaded yet
    if (w.preset !== shownPreset) {
      shownPreset = w.preset;
      if (w.preset) preset.value = w.preset;
    }
    load.disabled = !ready;
    for (const b of tools.querySelectorAll('button')) {
      const on = b.dataset.tool === w.tool;
      b.classList.toggle('on', on);
      b.setAttribute('aria-checked', String(on));
      const kind = b.dataset.tool ?? '';
      if (info && KINDS.includes(/** @type {any} */ (kind))) {
        const k = kindSize(app, kind);
        b.title = `Click the map to place a ${kind}: ${k.width} wide, turning radius ${k.radius}, top speed ${k.speed} tiles/s`;
      }
    }
    if (team.value !== w.team) team.value = w.team;
    for (const b of orderKinds.querySelectorAll('button')) {
      const on = b.dataset.order === w.order.kind;
      b.classList.toggle('on', on);
      b.setAttribute('aria-checked', String(on));
    }
    pending.hidden = w.order.kind === 'move';
    hint.textContent = orderHint(app);
    send.disabled = !w.order.points.length || w.selected.size === 0;
    undoPoint.disabled = !w.order.points.length;
    play.textContent = w.running ? 'Pause' : 'Play';
    play.setAttribute('aria-pressed', String(w.running));
    play.disabled = !w.on;
    step.disabled = !w.on;
    stop.disabled = remove.disabled = w.selected.size === 0;
    if (speed.value !== String(w.speed)) speed.value = String(w.speed);
    fill(avoidance, (info?.avoidance ?? ['none']).map((a) => [a, a]));
    avoidance.value = w.avoidance;
    const teams = [...new Set(w.units.map((u) => u.team).filter(Boolean))];
    fill(player, [['', 'everyone sees all'], ...teams.map((t) => /** @type {[string, string]} */ ([t, t]))]);
    player.value = w.player;
    player.disabled = !w.fog;
    player.title = !info?.fog
      ? 'Fog of war is not built in this core yet'
      : w.fog
        ? 'Whose known map to show: tiles that team has not seen are dimmed'
        : 'This world has no fog (the fog scenario has)';
    claimed.checked = w.showClaimed;
    paths.checked = w.showPaths;
    message.textContent = w.message?.text ?? '';
    message.classList.toggle('error', !!w.message?.error);
    message.setAttribute('role', w.message?.error ? 'alert' : 'status');
    clock.textContent = w.on
      ? `${fixed(w.time, 1)} s${w.running ? ` \u00B7 ${w.speed}\u00D7` : ' \u00B7 paused'}${w.lag > 0.5 ? ` \u00B7 ${fixed(w.lag, 1)} s behind` : ''}`
      : 'no world';
    showSelected();
    showMetrics();
  }

  app.on('world', show);
  app.on('controls', show);
  show();
}
