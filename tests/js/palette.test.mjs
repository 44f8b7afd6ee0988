// The lab's palette (web/view/colors.js) stays readable with colour-vision deficiencies: the
// pairs a person must tell apart on the map differ by at least MIN_DE (CIEDE2000) in normal
// vision and in simulated protanopia and deuteranopia (Machado 2009).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COLORS, METHOD_COLORS } from '../../web/view/colors.js';
import { ciede2000, lab, over, parseCss, simulate } from './cvd.mjs';

/** The smallest difference allowed between the colours of a key pair. */
const MIN_DE = 12;
const VISIONS = ['normal', 'protanopia', 'deuteranopia'];

const t = COLORS.terrain;
const drawn = {
  ground: t.ground,
  wall: t.wall,
  water: t.water,
  swamp: t.swamp,
  'closed list on ground': over(COLORS.closed, t.ground),
  'open list on ground': over(COLORS.openList, t.ground),
  'open list on swamp': over(COLORS.openList, t.swamp),
  'closed list on swamp': over(COLORS.closed, t.swamp),
  start: parseCss(COLORS.start),
  goal: parseCss(COLORS.goal),
  path: parseCss(COLORS.path),
};

/** The pairs that must never look alike. */
const PAIRS = [
  ['water', 'closed list on ground'],
  ['swamp', 'open list on ground'],
  ['swamp', 'open list on swamp'],
  ['swamp', 'closed list on swamp'],
  ['water', 'open list on ground'],
  ['swamp', 'closed list on ground'],
  ['open list on ground', 'closed list on ground'],
  ['open list on swamp', 'closed list on swamp'],
  ['water', 'wall'],
  ['ground', 'water'],
  ['ground', 'swamp'],
  ['ground', 'wall'],
  ['start', 'goal'],
  ['path', 'closed list on ground'],
  ['path', 'open list on ground'],
];

test('key colour pairs stay distinct in normal vision, protanopia and deuteranopia', () => {
  const failures = [];
  for (const vision of VISIONS) {
    for (const [a, b] of PAIRS) {
      const de = ciede2000(lab(simulate(drawn[a], vision)), lab(simulate(drawn[b], vision)));
      if (de < MIN_DE) failures.push(`${vision}: ${a} vs ${b}: \u0394E00 ${de.toFixed(1)} < ${MIN_DE}`);
    }
  }
  assert.deepEqual(failures, []);
});

test('CIEDE2000 matches the published test data (Sharma et al. 2005, pairs 1 and 17)', () => {
  assert.ok(Math.abs(ciede2000([50, 2.6772, -79.7751], [50, 0, -82.7485]) - 2.0425) < 1e-4);
  assert.ok(Math.abs(ciede2000([50, 2.5, 0], [73, 25, -18]) - 27.1492) < 1e-4);
});

test('the simulation leaves greys grey and merges red and green for deuteranopes', () => {
  for (const v of ['protanopia', 'deuteranopia']) {
    const g = simulate([128, 128, 128], v);
    assert.ok(g.every((c) => Math.abs(c - 128) < 1.5), `${v} grey ${g}`);
  }
  const red = lab(simulate([200, 60, 60], 'deuteranopia'));
  const green = lab(simulate([90, 140, 60], 'deuteranopia'));
  assert.ok(ciede2000(red, green) < ciede2000(lab([200, 60, 60]), lab([90, 140, 60])));
});

test("compare mode's method colours stay distinct from each other and from the background", () => {
  const failures = [];
  const colours = METHOD_COLORS.map(parseCss);
  const background = parseCss(COLORS.background);
  for (const vision of VISIONS) {
    const seen = colours.map((c) => lab(simulate(c, vision)));
    for (let i = 0; i < seen.length; i++) {
      const bg = ciede2000(seen[i], lab(simulate(background, vision)));
      if (bg < 3 * MIN_DE) failures.push(`${vision}: ${METHOD_COLORS[i]} on the background: \u0394E00 ${bg.toFixed(1)}`);
      for (let j = i + 1; j < seen.length; j++) {
        const de = ciede2000(seen[i], seen[j]);
        if (de < MIN_DE) failures.push(`${vision}: ${METHOD_COLORS[i]} vs ${METHOD_COLORS[j]}: \u0394E00 ${de.toFixed(1)} < ${MIN_DE}`);
      }
    }
  }
  assert.deepEqual(failures, []);
});
