/**
 * `${input:id}` for the CLI: a value moved out of another host's file, else the environment variable
 * `MCP_HOST_INPUT_<ID>`, else (in a terminal) a prompt that does not echo what is typed. Nothing is
 * stored. Every value handed out is remembered so the output can redact it.
 */
import type { InputRequest } from '../core';
import type { CliInputDefinition } from './declarations';

/** `MCP_HOST_INPUT_` + the id in upper case, other characters than letters and digits as `_`. */
export function inputEnvName(id: string): string {
  return `MCP_HOST_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** Asks for a value without echoing it; undefined when there is no terminal or the user gives up. */
export type HiddenPrompt = (question: string) => Promise<string | undefined>;

export interface InputResolver {
  resolve(request: InputRequest): Promise<string | undefined>;
  /** Values handed out so far (for redaction). */
  readonly values: ReadonlySet<string>;
  /** Ids that could not be resolved, for a hint on how to give them. */
  readonly missing: ReadonlySet<string>;
}

export function createInputResolver(
  definitions: ReadonlyMap<string, CliInputDefinition>,
  moved: ReadonlyMap<string, string>,
  env: Readonly<Record<string, string | undefined>>,
  prompt: HiddenPrompt | undefined,
): InputResolver {
  const values = new Set<string>(moved.values());
  const missing = new Set<string>();
  // One prompt per server and id: a value typed for one declaration is not handed to another.
  const asked = new Map<string, Promise<string | undefined>>();
  return {
    values,
    missing,
    async resolve(request) {
      let value = moved.get(request.id) ?? env[inputEnvName(request.id)];
      if (value === undefined && prompt) {
        const key = JSON.stringify([request.server, request.id]);
        let pending = asked.get(key);
        if (!pending) {
          const def = definitions.get(request.id);
          const about = def?.description ? ` — ${def.description}` : '';
          pending = prompt(`Input "${request.id}" for server "${request.server}" (${request.field})${about}: `);
          asked.set(key, pending);
        }
        value = await pending;
        if (value === '' && definitions.get(request.id)?.default !== undefined) value = definitions.get(request.id)!.default;
      }
      if (value === undefined) { missing.add(request.id); return undefined; }
      values.add(value);
      return value;
    },
  };
}

/**
 * Reads one line from a terminal in raw mode, echoing nothing (not even `*`: the length of a secret
 * is a secret too). Ctrl-C and Ctrl-D give up.
 */
export function terminalPrompt(input: NodeJS.ReadStream, output: NodeJS.WritableStream): HiddenPrompt | undefined {
  if (!input.isTTY) return undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const ask = (question: string) => new Promise<string | undefined>(resolve => {
    // Echo off before the question shows: what is typed (or pasted) right after it must not appear.
    input.setRawMode(true);
    output.write(question);
    let value = '';
    const done = (v: string | undefined) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      resolve(v);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(value);
        if (ch === '\u0003' || ch === '\u0004') return done(undefined);
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    input.resume();
    input.on('data', onData);
  });
  // Servers start in parallel: their prompts take turns.
  return question => {
    const next = queue.then(() => ask(question));
    queue = next.catch(() => undefined);
    return next;
  };
}
