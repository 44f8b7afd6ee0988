// @ts-check
/**
 * The unit panel: the turning method, radius, width, fixed-angle art and reversing that plans
 * are made for, the driving speed, and the errors of the fields that cannot be sent.
 *
 * @module panels/unit
 */

import { ON_EDIT_CHOICES, TURNING_CHOICES, parseUnit } from '../controls.js';
import { $ } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */

/** The unit's fields, by option name. */
const UNIT_IDS = Object.freeze({
  turning: 'turning',
  radius: 'radius',
  width: 'unit-width',
  art: 'art',
  can_reverse: 'can-reverse',
  on_edit: 'on-edit',
});

/** @param {AppState} app */
export function unitPanel(app) {
  const els = /** @type {Record<string, HTMLInputElement | HTMLSelectElement>} */ (
    Object.fromEntries(Object.entries(UNIT_IDS).map(([k, id]) => [k, $(id)]))
  );
  const turning = /** @type {HTMLSelectElement} */ (els.turning);
  const reverse = /** @type {HTMLInputElement} */ (els.can_reverse);
  const errorBox = $('unit-error');
  const speed = /** @type {HTMLInputElement} */ ($('speed'));
  const speedOut = $('speed-out');
  const input = /** @type {Record<string, unknown>} */ (app.unitInput);

  for (const [select, choices] of /** @type {const} */ ([[turning, TURNING_CHOICES], [els.on_edit, ON_EDIT_CHOICES]])) {
    select.textContent = ''; // index.html's placeholder option goes: each choice is listed once
    for (const [value, text] of choices) {
      const o = document.createElement('option');
      o.value = value;
      o.textContent = text;
      select.append(o);
    }
  }
  for (const [k, el] of Object.entries(els)) {
    const typed = () => {
      input[k] = el === reverse ? reverse.checked : el.value;
      app.emit('unit');
    };
    el.addEventListener('input', typed);
    el.addEventListener('change', typed);
  }
  speed.addEventListener('input', () => {
    app.driveSpeed = Number(speed.value);
    app.unit.setSpeed(app.driveSpeed, performance.now());
    app.emit('unit');
  });

  function showSpeed() {
    speed.value = String(app.driveSpeed);
    speedOut.textContent = `${app.driveSpeed} tiles/s`;
  }

  function show() {
    for (const [k, el] of Object.entries(els)) {
      if (el === reverse) reverse.checked = app.unitInput.can_reverse;
      else if (el.value !== input[k]) el.value = String(input[k]);
    }
    const { values, errors } = parseUnit(app.unitInput);
    els.art.disabled = !values.turning;
    for (const [k, el] of Object.entries(els)) {
      if (errors[k]) el.setAttribute('aria-invalid', 'true');
      else el.removeAttribute('aria-invalid');
    }
    const msgs = Object.values(errors);
    errorBox.hidden = msgs.length === 0;
    errorBox.textContent = msgs.join('\n');
  }

  app.on('unit', () => {
    show();
    showSpeed();
  });
  show();
  showSpeed();
}
