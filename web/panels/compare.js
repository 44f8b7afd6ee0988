// @ts-check
/**
 * The Compare switch and the legend of Pinter's Figure 1: per plan its colour, name, length,
 * turns and whether it is legal, with a box to show or hide it on the map.
 *
 * @module panels/compare
 */

import { hasPath } from '../app.js';
import { $ } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */

/** @param {AppState} app */
export function comparePanel(app) {
  const box = /** @type {HTMLInputElement} */ ($('compare'));
  const legend = $('compare-legend');

  box.addEventListener('change', () => {
    app.compare.on = box.checked;
    app.emit('compare', 'unit');
  });

  function show() {
    box.checked = app.compare.on;
    legend.replaceChildren();
    const plans = app.compare.plans;
    legend.hidden = !app.compare.on || !plans;
    if (!plans || legend.hidden) return;
    const h = document.createElement('h3');
    h.textContent = `Pinter's Figure 1: one query, ${plans.length === 5 ? 'five' : plans.length} ways`;
    const table = document.createElement('table');
    const head = table.insertRow();
    for (const t of ['', 'length', 'turns', 'legal']) {
      const th = document.createElement('th');
      th.textContent = t;
      head.append(th);
    }
    plans.forEach((e, i) => {
      const tr = table.insertRow();
      tr.dataset.testid = `compare-${e.key}`;
      const lab = document.createElement('label');
      const shown = document.createElement('input');
      shown.type = 'checkbox';
      shown.checked = e.visible;
      shown.dataset.testid = `compare-show-${e.key}`;
      shown.addEventListener('change', () => {
        e.visible = shown.checked;
        app.emit('view');
      });
      const sw = document.createElement('span');
      sw.className = 'swatch';
      sw.style.background = e.color;
      lab.append(shown, ' ', sw, `${String.fromCharCode(97 + i)}. ${e.label}`);
      tr.insertCell().append(lab);
      const found = hasPath(e.status);
      const length = tr.insertCell();
      length.className = 'num';
      length.textContent = found && e.length !== null ? e.length.toFixed(2) : '–';
      const turns = tr.insertCell();
      turns.className = 'num';
      turns.textContent = found && e.turns !== null ? String(e.turns) : '–';
      const legal = tr.insertCell();
      legal.dataset.testid = `compare-legal-${e.key}`;
      legal.className = e.legal ? 'ok' : 'bad';
      legal.textContent = found ? (e.legal ? '\u2713' : '\u2717') : 'no path';
      legal.title = e.message || (e.legal ? 'the body never overlaps a wall' : 'the body overlaps a wall');
    });
    legend.append(h, table);
  }

  app.on('compare', show);
  show();
}
