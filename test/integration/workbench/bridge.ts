/**
 * Extension-host side of the hand-over with the Playwright suite of the 'workbench' run: `uiStep(name)`
 * asks the UI test named `name` to act in the workbench (click, type) and waits until it says done.
 * Both sides go through the steps in the same (alphabetical file, then declaration) order. The 'reload'
 * run uses the same hand-over across a window reload (test/integration/reload, test/ui-reload).
 */
import { readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

const dir = () => {
  const d = process.env.MCP_HOST_UI_BRIDGE;
  if (!d) throw new Error('MCP_HOST_UI_BRIDGE is not set (run these tests through the "workbench" run)');
  return d;
};

/** Signals that step `name` may start (the flow is showing), then waits for the UI side's answer. */
export async function uiStep(name: string, data: unknown = {}, timeoutMs = 60_000): Promise<unknown> {
  const done = await requestStep(name, data);
  const end = Date.now() + timeoutMs;
  for (;;) {
    try { return JSON.parse(await fs.readFile(done, 'utf8')) as unknown; } catch { /* not yet */ }
    if (Date.now() > end) throw new Error(`the UI suite did not finish step "${name}" within ${timeoutMs} ms`);
    await new Promise(r => setTimeout(r, 100));
  }
}

/**
 * Requests step `name` without waiting for its end; returns the file the UI side writes when done.
 * For a step this extension host does not outlive (the UI side reloads the window).
 */
export async function requestStep(name: string, data: unknown = {}): Promise<string> {
  await fs.mkdir(dir(), { recursive: true });
  const done = path.join(dir(), `${name}.done`);
  await fs.rm(done, { force: true });
  await fs.writeFile(path.join(dir(), `${name}.request`), JSON.stringify(data));
  return done;
}

/**
 * The data the UI side left in the hand-over folder as `<name>.json`, if any: a marker across a window reload.
 * Synchronous, so that a test file can read it while mocha loads it.
 */
export function uiNote<T>(name: string): T | undefined {
  try { return JSON.parse(readFileSync(path.join(dir(), `${name}.json`), 'utf8')) as T; } catch { return undefined; }
}
