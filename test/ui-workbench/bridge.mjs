// UI side of the hand-over with the extension-host tests of the 'workbench' run (see
// test/integration/workbench/bridge.ts): wait until a step is requested, act, then report it done.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { UI_BRIDGE_DIR } from '../integration/runs.mjs';

/** Waits for the extension-host test to request step `name`; returns the data it sent. */
export async function waitForStep(name, timeoutMs = 90_000) {
  const file = path.join(UI_BRIDGE_DIR, `${name}.request`);
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const data = JSON.parse(await fs.readFile(file, 'utf8'));
      await fs.rm(file, { force: true });
      return data;
    } catch { /* not yet */ }
    if (Date.now() > end) throw new Error(`the extension-host test never requested step "${name}"`);
    await new Promise(r => setTimeout(r, 100));
  }
}

/** Tells the extension-host test that step `name` is finished (with an optional result). */
export async function stepDone(name, result = {}) {
  await fs.mkdir(UI_BRIDGE_DIR, { recursive: true });
  await fs.writeFile(path.join(UI_BRIDGE_DIR, `${name}.done`), JSON.stringify(result));
}
