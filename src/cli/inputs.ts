/**
 * `${input:id}` for the CLI: a value moved out of another host's file, else the environment variable
 * `MCP_HOST_INPUT_<SERVER>__<ID>` that names both the server and the input, else (in a terminal) a
 * prompt that does not echo what is typed. Nothing is stored. Every value handed out is remembered so
 * the output can redact it. A variable named for the input alone (`MCP_HOST_INPUT_<ID>`, read before)
 * would go to whichever server asks for that id, a cloned repository's too: it is refused, by name.
 */
import { type InputRequest, plainText } from '../core/light';
import type { CliInputDefinition } from './declarations';

const envPart = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/** `MCP_HOST_INPUT_` + server name + `__` + input id, in upper case, other characters than letters and digits as `_`. */
export function inputEnvName(server: string, id: string): string {
  return `MCP_HOST_INPUT_${envPart(server)}__${envPart(id)}`;
}

/** The form before values were bound to a server; only named in an error now. */
export const unboundInputEnvName = (id: string) => `MCP_HOST_INPUT_${envPart(id)}`;

/** Asks for a value without echoing it; undefined when there is no terminal or the user gives up. */
export type HiddenPrompt = (server: string, question: string) => Promise<string | undefined>;

export interface InputResolver {
  resolve(request: InputRequest): Promise<string | undefined>;
  /** Values handed out so far (for redaction). */
  readonly values: ReadonlySet<string>;
  /** Why each input that could not be resolved was not, by server and id: how to give it. */
  readonly missing: ReadonlyMap<string, string>;
}

/**
 * `used`: the input ids each server of this run references. Two (server, id) pairs whose variable
 * names coincide (`git-hub`/`git_hub`) get neither value from the environment: it cannot say which one it is for.
 */
export function createInputResolver(
  definitions: ReadonlyMap<string, CliInputDefinition>,
  moved: ReadonlyMap<string, string>,
  env: Readonly<Record<string, string | undefined>>,
  prompt: HiddenPrompt | undefined,
  used: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): InputResolver {
  const values = new Set<string>(moved.values());
  const missing = new Map<string, string>();
  const owners = new Map<string, Set<string>>();
  for (const [server, ids] of used) {
    for (const id of ids) {
      const name = inputEnvName(server, id);
      if (!owners.has(name)) owners.set(name, new Set());
      owners.get(name)!.add(JSON.stringify([server, id]));
    }
  }
  // One prompt per server and id: a value typed for one declaration is not handed to another.
  const asked = new Map<string, Promise<string | undefined>>();
  const fromEnv = (request: InputRequest): { value?: string; why?: string } => {
    const name = inputEnvName(request.server, request.id);
    const unbound = unboundInputEnvName(request.id);
    if ((owners.get(name)?.size ?? 0) > 1) return { why: `${name} would name more than one server's input; rename one of the servers` };
    if (env[name] !== undefined) return { value: env[name] };
    const hint = `set ${name}${env[unbound] !== undefined ? ` (${unbound} is not used: a value named for the input alone would reach any server that asks for "${plainText(request.id, { singleLine: true })}")` : ''}`;
    return { why: hint };
  };
  return {
    values,
    missing,
    async resolve(request) {
      const given = moved.has(request.id) ? { value: moved.get(request.id) } : fromEnv(request);
      let value = given.value;
      if (value === undefined && prompt) {
        const key = JSON.stringify([request.server, request.id]);
        let pending = asked.get(key);
        if (!pending) {
          const def = definitions.get(request.id);
          const about = def?.description ? ` — ${def.description}` : '';
          pending = prompt(request.server, `input "${request.id}" (${request.field})${about}: `);
          asked.set(key, pending);
        }
        value = await pending;
        if (value === '' && definitions.get(request.id)?.default !== undefined) value = definitions.get(request.id)!.default;
      }
      if (value === undefined) {
        missing.set(JSON.stringify([request.server, request.id]), `input "${request.id}" for server "${request.server}" was not given: ${given.why ?? 'no value'}`);
        return undefined;
      }
      values.add(value);
      return value;
    },
  };
}

/**
 * The question as the terminal shows it: a fixed prefix naming the server, then the file's and the
 * server's words on one line with escapes, controls and invisible characters removed, so a
 * description cannot clear the line and pose as another program (`[sudo] password for root:`).
 */
export function promptLine(server: string, question: string): string {
  const name = plainText(server, { singleLine: true, maxLength: 80 });
  return `mcp-host: server "${name}" asks for ${plainText(question, { singleLine: true, maxLength: 300 })} `;
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
  return (server, question) => {
    const next = queue.then(() => ask(promptLine(server, question)));
    queue = next.catch(() => undefined);
    return next;
  };
}
