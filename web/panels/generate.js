// @ts-check
/**
 * The Map panel's Generate and Resize parts. Generate: the kind, the size, the seed (the dice
 * draws a new one and generates, as the N key does) and the density where the kind takes one.
 * Resize: the width and height. A bad field is named under the part and marked; the map stays.
 *
 * @module panels/generate
 */

import {
  DEFAULT_GENERATOR, DENSITY, KIND_NAMES, KINDS, SettingError, checkSettings, generateMap, newSeed, resizeMap,
} from '../generator.js';
import { $, messageOf } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../engine.js').Engine} Engine */
/** @typedef {import('../generator.js').GeneratorSettings} GeneratorSettings */

const input = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id));

/**
 * A number field's value: NaN when empty or not a number (the browser's value is '' then).
 * @param {HTMLInputElement} el
 */
const numberIn = (el) => (el.value.trim() === '' ? NaN : Number(el.value));

/** @type {{busy: boolean}} a generate request is under way (the button waits) */
const running = { busy: false };

/**
 * Say what is wrong in a part of the panel (an empty text clears it), marking the bad field.
 * @param {HTMLElement} box
 * @param {Record<string, HTMLInputElement | HTMLSelectElement>} fields
 * @param {string} text
 * @param {string} [field]
 */
function tell(box, fields, text, field = '') {
  box.textContent = text;
  box.hidden = !text;
  for (const [name, el] of Object.entries(fields)) el.setAttribute('aria-invalid', String(!!text && name === field));
}

/**
 * The settings as typed (checked here first, so a typo is named at once; the core checks again).
 * @returns {GeneratorSettings}
 */
function typed() {
  const kind = /** @type {HTMLSelectElement} */ ($('gen-kind')).value;
  const density = DENSITY[kind] ? numberIn(input('gen-density')) : null;
  return checkSettings({
    kind, width: numberIn(input('gen-width')), height: numberIn(input('gen-height')), seed: numberIn(input('gen-seed')),
    density: density === null || Number.isNaN(density) ? null : density,
  });
}

/**
 * Generate the map the Generate part describes (with a new seed first when asked: the dice and N).
 * Errors are shown under the part and in the status line; the map stays.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {boolean} [reseed]
 */
export async function generateFromUi(app, engine, reseed = false) {
  if (running.busy) return;
  const box = $('gen-error');
  const fields = { kind: /** @type {HTMLSelectElement} */ ($('gen-kind')), width: input('gen-width'), height: input('gen-height'), seed: input('gen-seed'), density: input('gen-density') };
  if (reseed) fields.seed.value = String(newSeed());
  const button = /** @type {HTMLButtonElement} */ ($('gen-go'));
  try {
    const settings = typed();
    running.busy = true;
    button.disabled = true;
    tell(box, fields, '');
    await generateMap(app, engine, settings);
  } catch (e) {
    const field = e instanceof SettingError || (e instanceof Error && 'field' in e) ? String(/** @type {any} */ (e).field) : '';
    const text = `Could not generate: ${messageOf(e)}`;
    tell(box, fields, text, field);
    app.setStatus('error', `Error: ${text}. The map is unchanged.`, 0);
  } finally {
    running.busy = false;
    button.disabled = false;
  }
}

/**
 * @param {AppState} app
 * @param {Engine} engine
 */
export function generatePanel(app, engine) {
  const kind = /** @type {HTMLSelectElement} */ ($('gen-kind'));
  const density = input('gen-density');
  const densityField = $('gen-density-field');
  const densityHint = $('gen-density-hint');
  const resizeBox = $('resize-error');
  const resizeFields = { width: input('resize-width'), height: input('resize-height') };
  /** @type {{settings: GeneratorSettings | null, size: string}} what the fields last showed */
  const shown = { settings: null, size: '' };

  kind.textContent = '';
  for (const k of KINDS) kind.append(new Option(KIND_NAMES[k], k));

  /** The density field for the kind chosen: shown only where it applies, with its range. */
  function showDensity() {
    const range = DENSITY[kind.value];
    densityField.hidden = !range;
    densityHint.hidden = !range;
    if (!range) return;
    density.min = String(range[1]);
    density.max = String(range[2]);
    const now = numberIn(density);
    if (!(now >= range[1] && now <= range[2])) density.value = String(range[3]);
    densityHint.textContent = `Density: the ${range[0]}, ${range[1]} to ${range[2]} (default ${range[3]}).`;
  }

  /** The fields show the last generator's settings when they change (a restored or new one). */
  function showSettings() {
    const s = app.generator ?? DEFAULT_GENERATOR;
    if (s !== shown.settings) {
      shown.settings = s;
      kind.value = s.kind;
      input('gen-width').value = String(s.width);
      input('gen-height').value = String(s.height);
      input('gen-seed').value = String(s.seed);
      density.value = s.density === null ? '' : String(s.density);
      showDensity();
    }
    const size = `${app.model.width}x${app.model.height}`;
    if (size !== shown.size) {
      shown.size = size;
      resizeFields.width.value = String(app.model.width);
      resizeFields.height.value = String(app.model.height);
      tell(resizeBox, resizeFields, '');
    }
  }

  kind.addEventListener('change', showDensity);
  $('gen-go').addEventListener('click', () => void generateFromUi(app, engine));
  $('gen-dice').addEventListener('click', () => void generateFromUi(app, engine, true));
  $('gen-form').addEventListener('submit', (e) => {
    e.preventDefault();
    void generateFromUi(app, engine);
  });
  $('resize-form').addEventListener('submit', (e) => {
    e.preventDefault();
    try {
      tell(resizeBox, resizeFields, '');
      if (!resizeMap(app, engine, numberIn(resizeFields.width), numberIn(resizeFields.height))) {
        app.setStatus(app.status.state, 'The map is that size already.', app.status.progress);
      }
    } catch (err) {
      const text = messageOf(err);
      tell(resizeBox, resizeFields, text, err instanceof SettingError ? err.field : '');
      app.setStatus('error', `Error: could not resize: ${text}. The map is unchanged.`, 0);
    }
  });
  app.on('maps', showSettings);
  app.on('map', showSettings);
  showSettings();
}
