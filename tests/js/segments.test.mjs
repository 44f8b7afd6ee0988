// The lab's pose lookup (web/segments.js) against the core's (arcstar Path.pose_at): the page
// drives the unit each frame with its own copy of Pinter's Listing 2, so it must agree with the
// core's at every distance. The poses come from tests/unit/segment_samples.py, run with
// $ARCSTAR_PYTHON (default python3; it needs numpy).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** @type {any} */
let segments;
/** @type {string} */
let webCopy;
/** @type {Array<{segments: any[], length: number, poses: number[][], reverses: boolean}>} */
let cases;

before(async () => {
  webCopy = mkdtempSync(join(tmpdir(), 'arcstar-web-'));
  cpSync(join(ROOT, 'web'), webCopy, { recursive: true });
  writeFileSync(join(webCopy, 'package.json'), '{"type": "module"}\n');
  segments = await import(pathToFileURL(join(webCopy, 'segments.js')).href);
  const python = process.env.ARCSTAR_PYTHON || 'python3';
  const env = { ...process.env, PYTHONPATH: [join(ROOT, 'pycore'), join(ROOT, 'tests', 'unit'), process.env.PYTHONPATH]
    .filter(Boolean).join(delimiter) };
  const run = spawnSync(python, ['-m', 'segment_samples'], { cwd: ROOT, env, encoding: 'utf8', timeout: 300_000 });
  assert.equal(run.status, 0, `${python} -m segment_samples failed:\n${run.stderr}`);
  cases = JSON.parse(run.stdout);
});

after(() => {
  if (webCopy) rmSync(webCopy, { recursive: true, force: true });
});

/** @param {number} a @param {number} b  equal headings, up to whole turns */
function sameHeading(a, b) {
  const d = Math.atan2(Math.sin(a - b), Math.cos(a - b));
  return Math.abs(d) < 1e-9;
}

describe('the lab drives the path the core planned', () => {
  test('poses agree with Path.pose_at at every sampled distance, reversing included', () => {
    assert.ok(cases.length >= 4 && cases.some((c) => c.reverses), 'the samples include a reversing path');
    for (const c of cases) {
      const path = new segments.SegmentPath(c.segments);
      assert.ok(Math.abs(path.length - c.length) < 1e-9, `length ${path.length} vs ${c.length}`);
      for (const [d, x, y, heading] of c.poses) {
        const p = path.poseAt(d);
        assert.ok(Math.abs(p.x - x) < 1e-9 && Math.abs(p.y - y) < 1e-9, `at ${d}: (${p.x}, ${p.y}) vs (${x}, ${y})`);
        assert.ok(sameHeading(p.heading, heading), `at ${d}: heading ${p.heading} vs ${heading}`);
      }
    }
  });
});
