// @ts-check
/**
 * The search options panel: method, neighbourhood, corner rule, step costs, heuristic, weight,
 * open list, turn cost, stop rule, budget and recording; what the settings guarantee (the core's
 * own words, from `describe`), and the errors of the fields that cannot be sent. On a hex map or
 * a waypoint graph the square grid's settings are greyed, saying why, the methods that plan on
 * squares only are greyed, and the note says what runs there (graphsearch.js).
 *
 * @module panels/search
 */

import { label, readOptions } from '../controls.js';
import { NUMBER_KEYS, lastStep, methodLabel, plansCurves, plansForPeople } from '../settings.js';
import { $, fmt } from '../util.js';
import { methodMisfit } from '../verdict.js';
import { GRAPH_METHODS, graphOptions } from '../graphsearch.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../engine.js').Engine} Engine */

/** The menus, by option name. */
const SELECT_IDS = Object.freeze({
  method: 'method',
  neighbours: 'neighbours',
  diagonal: 'diagonal',
  costs: 'costs',
  heuristic: 'heuristic',
  open_list: 'open-list',
  stop: 'stop',
});
/** The number fields, by option name. */
const NUMBER_IDS = Object.freeze({ weight: 'weight', turn_penalty: 'turn-penalty', max_expansions: 'budget' });

/** The square grid's settings, greyed on hexes and waypoints (the graph search does not send them). */
const SQUARE_ONLY = Object.freeze(['neighbours', 'diagonal', 'costs', 'heuristic', 'turn_penalty']);

/** On each graph kind: its moves, and the heuristic its A* uses (the core's graphs: hexgrid, waypoint_graph). */
const GRAPH_WORDS = Object.freeze({
  hex: {
    name: 'the hex map',
    moves: 'every hex has 6 neighbours, and a step costs the terrain cost of the hex it enters',
    heuristic: "the core's hex heuristic: the hex distance to the goal times the cheapest terrain cost",
  },
  waypoints: {
    name: 'the waypoint graph',
    moves: 'it moves along the links, each costing its length',
    heuristic: 'the straight-line distance to the goal',
  },
});

/**
 * What runs on a hex map or a waypoint graph with these settings, and what does not apply.
 * @param {'hex' | 'waypoints'} kind
 * @param {string | null} fallback  the chosen method's label when it plans on squares only (A* runs), else null
 * @param {Record<string, unknown>} sent  the options the graph search sends (graphOptions)
 */
export function graphNote(kind, fallback, sent) {
  const w = GRAPH_WORDS[kind];
  const dijkstra = sent.method === 'dijkstra';
  const weight = Number(sent.weight ?? 1);
  const parts = [];
  if (fallback) parts.push(`${fallback} plans on square grids only: here A* runs instead.`);
  parts.push(dijkstra
    ? `Dijkstra over ${w.name} (H = 0): ${w.moves}; always a least-cost path, expanding the most.`
    : `A* over ${w.name} with ${w.heuristic}; ${w.moves}.`);
  if (!dijkstra) {
    if (sent.stop === 'reached') parts.push('Stopping when the goal is first reached: the path may cost more than the least.');
    else if (weight > 1) parts.push(`Weight ${fmt(weight)}: the path costs at most ${fmt(weight)} times the least.`);
    else parts.push('The heuristic never overestimates: a least-cost path.');
  } else if (sent.stop === 'reached') {
    parts.push('Stopping when the goal is first reached: the path may cost more than the least.');
  }
  parts.push('Moves, diagonals, step costs, heuristic and turn cost are for square grids (greyed).');
  return parts.join(' ');
}

/**
 * @param {AppState} app
 * @param {Engine} engine  says what the settings guarantee
 */
export function searchPanel(app, engine) {
  const selects = /** @type {Record<string, HTMLSelectElement>} */ (
    Object.fromEntries(Object.entries(SELECT_IDS).map(([k, id]) => [k, $(id)]))
  );
  const numbers = /** @type {Record<string, HTMLInputElement>} */ (
    Object.fromEntries(Object.entries(NUMBER_IDS).map(([k, id]) => [k, $(id)]))
  );
  const traceBox = /** @type {HTMLInputElement} */ ($('explored'));
  const settingsNote = $('settings-note');
  const settingsText = /** @type {HTMLElement} */ (settingsNote.querySelector('span'));
  const settingsUndo = $('settings-undo');
  settingsUndo.addEventListener('click', () => app.settingsNote?.undo?.());
  const note = $('method-note');
  const errorBox = $('options-error');
  const input = /** @type {Record<string, unknown>} */ (app.search);
  /** answers to older settings are dropped */
  const asked = { seq: 0 };

  for (const [k, el] of Object.entries(selects)) {
    el.addEventListener('change', () => {
      input[k] = el.value;
      app.emit('options');
    });
  }
  /** @param {string} k @param {HTMLInputElement} el */
  const typed = (k, el) => {
    input[k] = el.value;
    app.search.unreadable = NUMBER_KEYS.filter((n) => numbers[n].validity.badInput);
    app.emit('options');
  };
  for (const [k, el] of Object.entries(numbers)) {
    el.addEventListener('input', () => typed(k, el));
    el.addEventListener('change', () => typed(k, el));
  }
  traceBox.addEventListener('change', () => {
    app.search.trace = traceBox.checked;
    app.emit('options');
  });

  function showChoices() {
    for (const [k, el] of Object.entries(selects)) {
      el.textContent = '';
      for (const v of app.choices[k] ?? []) {
        const opt = document.createElement('option');
        opt.value = v;
        opt.textContent = k === 'neighbours' ? `${v} neighbours` : k === 'method' ? methodLabel(app, v) : label(/** @type {any} */ (k), v);
        el.append(opt);
      }
    }
    showKind(app.search.method);
  }

  /**
   * Show what these settings guarantee, in the core's words (the planner's method registry): the
   * lab keeps no copy of those rules.
   * @param {Record<string, unknown>} options
   */
  async function askGuarantee(options) {
    const seq = ++asked.seq;
    try {
      const g = await engine.describe(options);
      if (seq === asked.seq) app.guarantee = { text: g.text, optimal: g.optimal };
    } catch {
      if (seq === asked.seq) app.guarantee = null;
    }
    if (seq === asked.seq) showGuarantee();
  }

  function showGuarantee() {
    const kind = app.model.kind;
    if (kind !== 'squares') {
      const { options: sent } = graphOptions(app);
      const fallback = GRAPH_METHODS.includes(app.search.method) ? null : methodLabel(app, app.search.method);
      note.textContent = graphNote(kind, fallback, sent);
      note.classList.toggle('warn', !!fallback || sent.stop === 'reached' || (sent.method !== 'dijkstra' && Number(sent.weight ?? 1) > 1));
      return;
    }
    const misfit = methodMisfit(app, readOptions(app.search).options);
    const instead = misfit ? ` Here it will plan with A* instead: ${misfit}.` : '';
    note.textContent = (app.guarantee?.text ?? '') + instead;
    note.classList.toggle('warn', app.guarantee?.optimal === false || !!misfit);
  }

  /** What a map, a preset or a benchmark changed in the settings, with Undo while it is the last step. */
  function showSettingsNote() {
    const n = app.settingsNote;
    settingsNote.hidden = !n;
    settingsText.textContent = n ? n.text : '';
    settingsUndo.hidden = !n || !n.undo || !n.step || lastStep(app) !== n.step;
  }

  function show() {
    for (const [k, el] of Object.entries(selects)) el.value = String(input[k]);
    for (const [k, el] of Object.entries(numbers)) {
      if (el.value !== input[k] && !app.search.unreadable.includes(k)) el.value = String(input[k]);
    }
    traceBox.checked = app.search.trace;
    const { options, errors } = readOptions(app.search);
    const dijkstra = options.method === 'dijkstra';
    selects.heuristic.disabled = dijkstra;
    numbers.weight.disabled = dijkstra;
    selects.heuristic.title = dijkstra ? 'Dijkstra uses no heuristic (H = 0)' : 'H: the estimate of the cost still to go';
    selects.diagonal.disabled = options.neighbours === 4;
    selects.diagonal.title = options.neighbours === 4 ? 'With 4 neighbours there are no diagonal steps' : 'When a diagonal step is allowed next to walls';
    // A method that plans curves has its own moves: the grid's neighbours and corner rule do not apply.
    const curves = plansCurves(app, options.method);
    const own = `${methodLabel(app, options.method)} plans its own moves (curves between tiles, for the unit's width and radius)`;
    selects.neighbours.disabled = curves;
    // The turn cost where the method charges turns (its limits), and not for people (the core's own).
    const lim = app.limits[options.method];
    const people = app.unitInput.people && plansForPeople(app, options.method);
    numbers.turn_penalty.disabled = lim?.turn_penalty === false || people;
    numbers.turn_penalty.title = people
      ? 'People: the core\'s turn penalty'
      : lim?.turn_penalty === false
        ? `${methodLabel(app, options.method)} charges no turns`
        : 'Added to G at every change of direction (smoother paths, no longer least-cost)';
    selects.neighbours.title = curves ? own : 'Neighbourhood: 4 (straight moves only) or 8 (with diagonals)';
    if (curves) {
      selects.diagonal.disabled = true;
      selects.diagonal.title = own;
      selects.heuristic.disabled = true;
      selects.heuristic.title = `${methodLabel(app, options.method)} uses its own heuristic: the curve length to the goal, and the distance round the walls`;
    }
    showKind(options.method);
    for (const [k, el] of Object.entries(numbers)) {
      if (errors[k]) el.setAttribute('aria-invalid', 'true');
      else el.removeAttribute('aria-invalid');
    }
    const msgs = Object.values(errors);
    errorBox.hidden = msgs.length === 0;
    errorBox.textContent = msgs.join('\n');
    askGuarantee(options);
  }

  /**
   * On a hex map or a waypoint graph: grey the square grid's settings and the methods that plan
   * on squares only, each saying why (on squares, the method menu is all open again).
   * @param {string} method
   */
  function showKind(method) {
    const kind = app.model.kind;
    seen.kind = kind;
    const graph = kind !== 'squares';
    for (const opt of selects.method.options) {
      const squaresOnly = graph && !GRAPH_METHODS.includes(opt.value);
      opt.disabled = squaresOnly && opt.value !== method; // the chosen one stays shown, its note says A* runs
      opt.title = squaresOnly ? `${methodLabel(app, opt.value)} plans on square grids only` : '';
    }
    if (!graph) {
      selects.costs.disabled = false;
      selects.costs.title = '';
      selects.method.title = '';
      return;
    }
    const why = kind === 'hex' ? 'hex maps' : 'waypoint graphs';
    const titles = {
      neighbours: `On ${why}: ${GRAPH_WORDS[kind].moves}`,
      diagonal: `On ${why} there are no diagonal steps`,
      costs: `On ${why}: ${GRAPH_WORDS[kind].moves}`,
      heuristic: `On ${why}, A* uses ${GRAPH_WORDS[kind].heuristic}`,
      turn_penalty: `On ${why} no turns are charged (turn cost is for square grids)`,
    };
    for (const k of SQUARE_ONLY) {
      const el = k === 'turn_penalty' ? numbers.turn_penalty : selects[k];
      el.disabled = true;
      el.title = titles[/** @type {keyof typeof titles} */ (k)];
    }
    selects.method.title = `On ${why}: A* or Dijkstra (the other methods plan on square grids)`;
  }

  /** the kind the panel last showed */
  const seen = { kind: app.model.kind };
  // A switch of the map's kind changes what applies.
  app.on('map', () => {
    if (app.model.kind !== seen.kind) show();
  });
  app.on('choices', showChoices);
  app.on('options', show);
  app.on('costs', showGuarantee);
  app.on('unit', show);
  app.on('notes', showSettingsNote);
  app.on('controls', showSettingsNote);
  showChoices();
  show();
  showSettingsNote();
}
