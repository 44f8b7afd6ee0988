// @ts-check
/**
 * The terrain panel: the palette (pick the terrain the Paint tool lays), each terrain's move cost
 * (checked as typed, applied as one undo step), the Paint and Erase tools, the brush, and Undo,
 * Redo and Clear.
 *
 * @module panels/terrain
 */

import { parseCost, showCost } from '../controls.js';
import { terrainCss } from '../view/colors.js';
import { $, messageOf } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../app.js').TerrainType} TerrainType */

/** The brush sides offered, in tiles. */
export const BRUSHES = Object.freeze([1, 2, 3, 5]);

/**
 * Choose the terrain the Paint tool lays (and the Paint tool).
 * @param {AppState} app
 * @param {number} code
 */
export function selectTerrain(app, code) {
  if (!app.terrainOf(code)) return;
  app.paint.code = code;
  app.paint.tool = 'paint';
  app.emit('terrain');
}

/**
 * @param {AppState} app
 * @param {'paint' | 'erase'} tool
 */
export function setTool(app, tool) {
  app.paint.tool = tool;
  app.emit('terrain');
}

/**
 * @param {AppState} app
 * @param {number} n  the brush side in tiles (1 to 5)
 */
export function setBrush(app, n) {
  app.paint.brush = Math.max(1, Math.min(5, Math.round(n)));
  app.emit('terrain');
}

/** @param {AppState} app */
export function terrainPanel(app) {
  const body = $('palette');
  const costError = $('cost-error');
  const paintBtn = $('tool-paint');
  const eraseBtn = $('tool-erase');
  const brushBox = $('brushes');
  const undoBtn = /** @type {HTMLButtonElement} */ ($('undo'));
  const redoBtn = /** @type {HTMLButtonElement} */ ($('redo'));
  const model = app.model;

  /**
   * Check a cost input; apply it (one undo step) when `commit` and it is valid.
   * @param {TerrainType} t
   * @param {HTMLInputElement} input
   * @param {boolean} commit
   */
  function checkCost(t, input, commit) {
    try {
      const cost = parseCost(input.value, t.name);
      app.costErrors.delete(t.code);
      input.removeAttribute('aria-invalid');
      if (commit) {
        model.setCost(t.code, cost, t.name);
        input.value = showCost(model.costs[t.code]);
      }
    } catch (e) {
      app.costErrors.set(t.code, messageOf(e));
      input.setAttribute('aria-invalid', 'true');
    }
    app.emit('terrain');
  }

  /** @param {TerrainType} t @param {number} i */
  function paletteRow(t, i) {
    const tr = document.createElement('tr');
    const btn = document.createElement('button');
    btn.type = 'button';
    btn.className = 'terrain-btn';
    btn.dataset.code = String(t.code);
    btn.dataset.testid = `terrain-${t.name}`;
    btn.setAttribute('aria-pressed', 'false');
    btn.title = `Paint ${t.name} ("${t.char}")${i < 9 ? ` (key ${i + 1})` : ''}`;
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = terrainCss(t.name);
    const name = document.createElement('span');
    name.textContent = t.name;
    btn.append(sw, name);
    if (i < 9) {
      const k = document.createElement('kbd');
      k.textContent = String(i + 1);
      btn.append(k);
    }
    btn.addEventListener('click', () => selectTerrain(app, t.code));
    const input = document.createElement('input');
    input.type = 'text';
    input.inputMode = 'decimal';
    input.autocomplete = 'off';
    input.spellcheck = false;
    input.dataset.code = String(t.code);
    input.dataset.testid = `cost-${t.name}`;
    input.setAttribute('aria-label', `Cost of ${t.name}`);
    input.title = `Cost of ${t.name}: a positive number (1 = ground), or \u221E for impassable; Enter applies, Esc reverts`;
    input.addEventListener('input', () => checkCost(t, input, false));
    input.addEventListener('change', () => checkCost(t, input, true));
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        checkCost(t, input, true);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        input.value = showCost(model.costs[t.code]);
        checkCost(t, input, false);
      }
    });
    const pick = document.createElement('td');
    pick.append(btn);
    const costCell = document.createElement('td');
    costCell.className = 'cost';
    costCell.append(input);
    tr.append(pick, costCell);
    return tr;
  }

  /** Show the model's costs in the inputs (after undo, a load), dropping their errors. */
  function showCosts() {
    for (const input of body.querySelectorAll('input')) {
      input.value = showCost(model.costs[Number(input.dataset.code)]);
      input.removeAttribute('aria-invalid');
    }
    app.costErrors.clear();
    show();
  }

  function show() {
    const { code, tool, brush } = app.paint;
    for (const btn of body.querySelectorAll('.terrain-btn')) {
      const on = Number(/** @type {HTMLElement} */ (btn).dataset.code) === code;
      btn.classList.toggle('on', on);
      btn.setAttribute('aria-pressed', String(on));
    }
    for (const [btn, which] of /** @type {const} */ ([[paintBtn, 'paint'], [eraseBtn, 'erase']])) {
      btn.classList.toggle('on', tool === which);
      btn.setAttribute('aria-checked', String(tool === which));
    }
    for (const btn of brushBox.querySelectorAll('button')) {
      const on = Number(btn.dataset.brush) === brush;
      btn.classList.toggle('on', on);
      btn.setAttribute('aria-checked', String(on));
    }
    const errors = app.costErrors;
    costError.hidden = errors.size === 0;
    costError.textContent = [...errors.values()].join('\n') + (errors.size ? '\nNot applied: the search uses the last valid cost.' : '');
  }

  function showHistory() {
    const u = model.undoStack[model.undoStack.length - 1];
    const r = model.redoStack[model.redoStack.length - 1];
    undoBtn.disabled = !u;
    redoBtn.disabled = !r;
    undoBtn.title = u ? `Undo ${u.label} (Ctrl+Z)` : 'Nothing to undo (Ctrl+Z)';
    redoBtn.title = r ? `Redo ${r.label} (Ctrl+Shift+Z or Ctrl+Y)` : 'Nothing to redo (Ctrl+Shift+Z or Ctrl+Y)';
  }

  body.textContent = '';
  app.core.terrains.forEach((t, i) => body.append(paletteRow(t, i)));
  paintBtn.addEventListener('click', () => setTool(app, 'paint'));
  eraseBtn.addEventListener('click', () => setTool(app, 'erase'));
  brushBox.addEventListener('click', (e) => {
    const btn = /** @type {HTMLElement} */ (e.target).closest('button');
    if (btn && btn.dataset.brush) setBrush(app, Number(btn.dataset.brush));
  });
  undoBtn.addEventListener('click', () => model.undo());
  redoBtn.addEventListener('click', () => model.redo());
  $('clear').addEventListener('click', () => model.clearWalls());
  app.on('terrain', show);
  app.on('costs', showCosts);
  app.on('controls', showHistory);
  showCosts();
  showHistory();
}
