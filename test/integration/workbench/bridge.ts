/**
 * Extension-host side of the hand-over with the Playwright suite of the 'workbench' run: `uiStep(name)`
 * asks the UI test named `name` to act in the workbench (click, type) and waits until it says done.
 * Both sides go through the steps in the same (alphabetical file, then declaration) order.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

const dir = () => {
  const d = process.env.MCP_HOST_UI_BRIDGE;
  if (!d) throw new Error('MCP_HOST_UI_BRIDGE is not set (run these tests through the "workbench" run)');
  return d;
};

/** Signals that step `name` may start (the flow is showing), then waits for the UI side's answer. */
export async function uiStep(name: string, data: unknown = {}, timeoutMs = 60_000): Promise<unknown> {
  await fs.mkdir(dir(), { recursive: true });
  const done = path.join(dir(), `${name}.done`);
  await fs.rm(done, { force: true });
  await fs.writeFile(path.join(dir(), `${name}.request`), JSON.stringify(data));
  const end = Date.now() + timeoutMs;
  for (;;) {
    try { return JSON.parse(await fs.readFile(done, 'utf8')) as unknown; } catch { /* not yet */ }
    if (Date.now() > end) throw new Error(`the UI suite did not finish step "${name}" within ${timeoutMs} ms`);
    await new Promise(r => setTimeout(r, 100));
  }
}
