/** Validates a stdio declaration's `dev` field: `{ "watch": "<glob>", "debug": { "type": "node" | "python" } }`. */
import type { DevDeclaration } from './types';

type ErrorSink = (message: string, field?: string) => void;

export function parseDev(value: unknown, error: ErrorSink): DevDeclaration | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    error('"dev" must be an object such as { "watch": "src/**/*.js", "debug": { "type": "node" } }.', 'dev');
    return undefined;
  }
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) if (key !== 'watch' && key !== 'debug') error(`dev: unknown field "${key}"; use "watch" or "debug".`, `dev.${key}`);
  let watch: string | undefined;
  if (v.watch !== undefined) {
    if (typeof v.watch !== 'string' || !v.watch.trim()) error('dev.watch must be a glob of the files whose changes restart the server, e.g. "src/**/*.ts".', 'dev.watch');
    else watch = v.watch;
  }
  let debug: DevDeclaration['debug'];
  if (v.debug !== undefined) {
    const d = v.debug as Record<string, unknown> | null;
    if (typeof d !== 'object' || d === null || Array.isArray(d) || (d.type !== 'node' && d.type !== 'python')) {
      error('dev.debug must be { "type": "node" } (a Node.js server) or { "type": "python" } (a Python server, run under debugpy).', 'dev.debug');
    } else {
      for (const key of Object.keys(d)) if (key !== 'type') error(`dev.debug: unknown field "${key}"; only "type" is read.`, `dev.debug.${key}`);
      debug = { type: d.type };
    }
  }
  return watch === undefined && debug === undefined ? undefined : { ...(watch !== undefined ? { watch } : {}), ...(debug ? { debug } : {}) };
}
