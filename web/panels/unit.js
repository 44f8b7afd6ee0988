// @ts-check
/**
 * The unit panel: the turning method, radius, width, fixed-angle art and reversing that plans
 * are made for, the driving speed, and the errors of the fields that cannot be sent.
 *
 * @module panels/unit
 */

import { ON_EDIT_CHOICES, TURNING_CHOICES, parseUnit, readOptions } from '../controls.js';
import { readHeadings, setHeading, readHeading } from '../headings.js';
import { methodLabel, plansCurves, plansForPeople } from '../settings.js';
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
  people: 'people',
  start_heading: 'start-heading',
  goal_heading: 'goal-heading',
});
/** The heading fields, by marker. */
const HEADING_KEYS = /** @type {const} */ ([['start', 'start_heading'], ['goal', 'goal_heading']]);

/** @param {AppState} app */
export function unitPanel(app) {
  const els = /** @type {Record<string, HTMLInputElement | HTMLSelectElement>} */ (
    Object.fromEntries(Object.entries(UNIT_IDS).map(([k, id]) => [k, $(id)]))
  );
  const turning = /** @type {HTMLSelectElement} */ (els.turning);
  const reverse = /** @type {HTMLInputElement} */ (els.can_reverse);
  const people = /** @type {HTMLInputElement} */ (els.people);
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
  for (const [which, k] of HEADING_KEYS) {
    // A heading typed is one undo step once it is read (on change); while typing it is only checked.
    els[k].addEventListener('input', () => {
      const deg = readHeading(els[k].value, which);
      if (deg.error) {
        input[k] = els[k].value;
        app.emit('unit');
      }
    });
    els[k].addEventListener('change', () => {
      const deg = readHeading(els[k].value, which);
      if (deg.error) {
        input[k] = els[k].value;
        app.emit('unit');
      } else setHeading(app, which, deg.deg);
    });
  }
  for (const [k, el] of Object.entries(els)) {
    if (k === 'start_heading' || k === 'goal_heading') continue;
    const typed = () => {
      input[k] = el === reverse || el === people ? /** @type {HTMLInputElement} */ (el).checked : el.value;
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
      else if (el === people) people.checked = app.unitInput.people;
      else if (el.value !== input[k]) el.value = String(input[k]);
    }
    const unit = parseUnit(app.unitInput);
    const { values } = unit;
    const errors = { ...unit.errors, ...readHeadings(app.unitInput).errors };
    const method = readOptions(app.search).options.method;
    const curves = plansCurves(app, method);
    els.art.disabled = !values.turning || curves;
    turning.disabled = curves;
    const walks = plansForPeople(app, method);
    people.disabled = !walks;
    people.title = walks
      ? 'Plan as a person walks (Pinter): the core\'s tight turning radius and strong turn penalty replace the radius and the turn cost'
      : `${methodLabel(app, method)} does not plan for people: choose a directional method that charges turns (Directional-24 or -48)`;
    const walking = walks && app.unitInput.people;
    els.radius.disabled = walking;
    els.radius.title = walking ? 'People: the core\'s tight turning radius' : 'The tightest circle the unit can turn on, in tiles';
    turning.title = curves
      ? `${methodLabel(app, method)} plans legal curves itself: no turning method is applied`
      : 'How the path is made drivable: none is the tile path; the others plan lines and arcs (Pinter)';
    for (const [k, el] of Object.entries(els)) {
      if (errors[k]) el.setAttribute('aria-invalid', 'true');
      else el.removeAttribute('aria-invalid');
    }
    const msgs = Object.values(errors);
    errorBox.hidden = msgs.length === 0;
    errorBox.textContent = msgs.join('\n');
  }

  app.on('options', show);
  app.on('choices', show);
  app.on('unit', () => {
    show();
    showSpeed();
  });
  show();
  showSpeed();
}
