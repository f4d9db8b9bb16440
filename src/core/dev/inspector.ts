/**
 * `dev.debug`: start a Node.js server under the inspector on loopback, and read the port it chose
 * from its stderr ("Debugger listening on ws://127.0.0.1:PORT/uuid").
 */
import * as path from 'node:path';
import type { ResolvedLaunch } from '../config/types';

type StdioLaunch = Extract<ResolvedLaunch, { type: 'stdio' }>;

/** Port 0: the OS picks a free port, so two debugged servers never collide; loopback only. */
export const INSPECT_FLAG = '--inspect=127.0.0.1:0';

/** Which announcement names the server: see {@link withInspector}. */
export type InspectorPick = 'first' | 'last';

/**
 * `node x.js` gets the flag before the script: Node announces before any of the server's code runs,
 * so the first announcement is the real one. Anything else (`npx pkg`, a shebang script, `tsx`) gets
 * it through `NODE_OPTIONS` of this child only, so every Node process of the server's tree listens
 * and the one that answers `initialize` is the last to announce itself before it does.
 */
export function withInspector(launch: StdioLaunch): { launch: StdioLaunch; pick: InspectorPick } {
  const program = path.basename(launch.command).toLowerCase().replace(/\.exe$/, '');
  if (program === 'node' || program === 'nodejs') return { launch: { ...launch, args: [INSPECT_FLAG, ...launch.args] }, pick: 'first' };
  const existing = launch.env.NODE_OPTIONS?.trim();
  return { launch: { ...launch, env: { ...launch.env, NODE_OPTIONS: existing ? `${existing} ${INSPECT_FLAG}` : INSPECT_FLAG } }, pick: 'last' };
}

const ANNOUNCEMENT = /^Debugger listening on ws:\/\/([^/\s]+)\/[^\s]*\s*$/;

/**
 * The port of an inspector announcement, only for loopback: stderr is the server's to write, and a
 * forged line must not point the debugger at another machine.
 */
export function inspectorPort(line: string): number | undefined {
  const m = ANNOUNCEMENT.exec(line);
  if (!m) return undefined;
  let url: URL;
  try { url = new URL(`ws://${m[1]}`); } catch { return undefined; }
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost' && url.hostname !== '[::1]') return undefined;
  const port = Number(url.port);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
}

/**
 * Listens to a starting server's stderr for inspector announcements (after its own log handler).
 * `port()` is the first or last loopback port announced before `close()` (see {@link withInspector}).
 */
export function listenForInspector(target: { onstderr?: (line: string) => void }, pick: InspectorPick): { port(): number | undefined; close(): void } {
  let port: number | undefined;
  let open = true;
  const log = target.onstderr;
  target.onstderr = line => {
    log?.(line);
    if (!open || (pick === 'first' && port !== undefined)) return;
    const p = inspectorPort(line);
    if (p !== undefined) port = p;
  };
  return { port: () => port, close: () => { open = false; } };
}
