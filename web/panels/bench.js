// @ts-check
/**
 * The benchmark scenarios panel: the bucket and scenario pickers and the verdict of the last
 * search on the chosen scenario.
 *
 * @module panels/bench
 */

import { chooseBucket, chooseScenario } from '../scenarios.js';
import { $, fixed } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../app.js').Scenario} Scenario */

/** @param {AppState} app */
export function benchPanel(app) {
  const box = $('scenarios');
  const bucketSel = /** @type {HTMLSelectElement} */ ($('bucket'));
  const scenarioSel = /** @type {HTMLSelectElement} */ ($('scenario'));
  const note = $('bench-result');
  /** what the pickers list now: rebuilt only when that changes */
  const listed = { scenarios: /** @type {Scenario[] | null} */ (null), bucket: NaN };

  bucketSel.addEventListener('change', () => chooseBucket(app, Number(bucketSel.value)));
  scenarioSel.addEventListener('change', () => chooseScenario(app, Number(scenarioSel.value)));

  /** @param {Scenario[]} scenarios */
  function listBuckets(scenarios) {
    bucketSel.textContent = '';
    for (const b of [...new Set(scenarios.map((s) => s.bucket))].sort((x, y) => x - y)) {
      const these = scenarios.filter((s) => s.bucket === b);
      const lo = Math.min(...these.map((s) => s.optimal));
      const hi = Math.max(...these.map((s) => s.optimal));
      const opt = document.createElement('option');
      opt.value = String(b);
      opt.textContent = `${b}: ${fixed(lo, 1)}${hi > lo ? `\u2013${fixed(hi, 1)}` : ''} (${these.length})`;
      opt.title = `bucket ${b}: ${these.length} scenarios, optimal lengths ${fixed(lo, 2)} to ${fixed(hi, 2)}`;
      bucketSel.append(opt);
    }
  }

  /** @param {Scenario[]} scenarios @param {number} bucket */
  function listScenarios(scenarios, bucket) {
    scenarioSel.textContent = '';
    for (const s of scenarios.filter((x) => x.bucket === bucket)) {
      const opt = document.createElement('option');
      opt.value = String(s.id);
      opt.textContent = `#${s.id}: ${s.optimal.toFixed(2)}, (${s.start[0]},${s.start[1]})\u2192(${s.goal[0]},${s.goal[1]})`;
      opt.title = `scenario ${s.id}: from (${s.start[0]}, ${s.start[1]}) to (${s.goal[0]}, ${s.goal[1]}), optimal length ${s.optimal}`;
      scenarioSel.append(opt);
    }
  }

  function show() {
    const bench = app.bench;
    box.hidden = !bench;
    note.textContent = app.benchNote.text;
    note.className = `bench-result${app.benchNote.ok === null ? '' : app.benchNote.ok ? ' ok' : ' bad'}`;
    if (!bench) {
      bucketSel.textContent = '';
      scenarioSel.textContent = '';
      listed.scenarios = null;
      return;
    }
    const chosen = bench.chosen;
    if (listed.scenarios !== bench.scenarios) {
      listBuckets(bench.scenarios);
      listed.scenarios = bench.scenarios;
      listed.bucket = NaN;
    }
    if (chosen && chosen.bucket !== listed.bucket) {
      listScenarios(bench.scenarios, chosen.bucket);
      listed.bucket = chosen.bucket;
    }
    if (chosen) {
      bucketSel.value = String(chosen.bucket);
      scenarioSel.value = String(chosen.id);
    }
  }

  app.on('bench', show);
  show();
}
