// @ts-check
/**
 * The search options panel: method, neighbourhood, corner rule, step costs, heuristic, weight,
 * open list, turn cost, stop rule, budget and recording; what the settings guarantee (the core's
 * own words, from `describe`), and the errors of the fields that cannot be sent.
 *
 * @module panels/search
 */

import { label, readOptions } from '../controls.js';
import { NUMBER_KEYS, lastStep, methodLabel, plansCurves, plansForPeople } from '../settings.js';
import { $ } from '../util.js';
import { methodMisfit } from '../verdict.js';

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
    for (const [k, el] of Object.entries(numbers)) {
      if (errors[k]) el.setAttribute('aria-invalid', 'true');
      else el.removeAttribute('aria-invalid');
    }
    const msgs = Object.values(errors);
    errorBox.hidden = msgs.length === 0;
    errorBox.textContent = msgs.join('\n');
    askGuarantee(options);
  }

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
