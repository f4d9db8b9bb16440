/**
 * A workspace's declarations are the cloned repository's: running them runs its commands as the user,
 * with the user's environment. The CLI shows each command line or URL and runs them only when the user
 * says so: in a terminal by answering, elsewhere with `--yes` (this run) or because the folder's
 * servers are in the trusted-folders file. That file records each server by a hash of what it runs
 * ({@link trustKey}), so a changed or added declaration or env file (a `git pull`) is asked about again.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { canonicalJson, envFileContent, parseJsonc, programIdentity, referencedInputs, type VariableContext } from '../core/light';
import { shellWord } from './visible';

/** Where the CLI keeps its own settings: the platform's per-user configuration folder. */
export function configDir(env: Readonly<Record<string, string | undefined>> = process.env, platform = process.platform, home = os.homedir()): string {
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'mcp-host');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'mcp-host');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'mcp-host');
}

export const trustFile = () => path.join(configDir(), 'trusted-folders.json');

/**
 * What the trusted-folders file records of a server: the program identity the editor's approvals are
 * bound to (core programIdentity, the env file's text included: a `git pull` that only changes `.env`
 * changes what runs), and the whole declaration besides, since the CLI shows and runs all of it
 * (headers carrying the user's variables, `sandbox`, `roots`). Only the hash is kept.
 */
export async function trustKey(folder: string, declaration: unknown, variables: VariableContext, moved: ReadonlyMap<string, string> = new Map()): Promise<string> {
  const program = programIdentity(declaration, { scope: 'workspace', workspace: folder }, { envFileText: await envFileContent(declaration, variables) });
  // The literals the converter moved out of another host's file (`mcpServers`) into `${input:…}` are
  // the repository's text as much as the declaration is: an argument with a credential's shape can be
  // the whole `-e` script. They are handed to the server unasked, so they are part of what is trusted.
  const literals = [...referencedInputs(declaration)].filter(id => moved.has(id)).sort().map(id => [id, moved.get(id)]);
  return `sha256:${createHash('sha256').update(canonicalJson({ program: program?.id, declaration, ...(literals.length ? { literals } : {}) })).digest('hex')}`;
}

/** {@link trustKey} of each server; `moved`: the literals the converter moved out of the files, by input id. */
export async function trustKeys(folder: string, servers: Readonly<Record<string, unknown>>, variables: VariableContext, moved: ReadonlyMap<string, string> = new Map()): Promise<Record<string, string>> {
  const keys: Record<string, string> = {};
  // defineProperty: a server named `__proto__` is keyed like any other name.
  for (const [name, decl] of Object.entries(servers)) Object.defineProperty(keys, name, { value: await trustKey(folder, decl, variables, moved), enumerable: true, writable: true, configurable: true });
  return keys;
}

interface TrustData { folders: Record<string, { servers: Record<string, string> }> }

export class TrustStore {
  private constructor(readonly file: string, private readonly data: TrustData, readonly problem?: string) {}

  /** A missing file trusts nothing; a broken one too, and is never overwritten. */
  static load(file = trustFile()): TrustStore {
    let text: string;
    try { text = fs.readFileSync(file, 'utf8'); } catch { return new TrustStore(file, { folders: {} }); }
    const parsed = parseJsonc(text);
    const v = parsed.value as Partial<TrustData> | undefined;
    if (parsed.error !== undefined || !v || typeof v !== 'object' || !v.folders || typeof v.folders !== 'object') {
      return new TrustStore(file, { folders: {} }, `${file} is not a trusted-folders file${parsed.error ? ` (${parsed.error})` : ''}; nothing in it is trusted, and it is left as it is`);
    }
    return new TrustStore(file, v as TrustData);
  }

  /** The servers (by name) whose {@link trustKey} in `folder` is not the one recorded. */
  untrusted(folder: string, keys: Readonly<Record<string, string>>): string[] {
    const known = Object.hasOwn(this.data.folders, folder) ? this.data.folders[folder].servers ?? {} : {};
    return Object.keys(keys).filter(name => !Object.hasOwn(known, name) || known[name] !== keys[name]);
  }

  /** Records these servers of `folder` by their {@link trustKey} (others of the folder stay recorded). */
  trust(folder: string, keys: Readonly<Record<string, string>>): void {
    if (this.problem) throw new Error(this.problem);
    const entry = Object.hasOwn(this.data.folders, folder) ? this.data.folders[folder] : (this.data.folders[folder] = { servers: {} });
    // defineProperty: a server named `__proto__` is recorded like any other name.
    for (const [name, key] of Object.entries(keys)) Object.defineProperty(entry.servers, name, { value: key, enumerable: true, writable: true, configurable: true });
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(this.data, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? String(v));

/** The user's environment variables a value hands over (`${env:NAME}`), as `$NAME`. */
const envRefs = (v: unknown) => [...new Set([...str(v).matchAll(/\$\{env:([^}]+)\}/g)].map(m => `$${shellWord(m[1])}`))];

/** `KEY` for a literal, `KEY from $NAME` for one that carries the user's variables: a name alone says nothing (`LOG_LEVEL`). */
const entries = (map: object) => Object.entries(map).map(([k, v]) => {
  const refs = envRefs(v);
  return refs.length ? `${shellWord(k)} from ${refs.join(' ')}` : shellWord(k);
});

/**
 * What running a declaration means, as one line a user can check: the command line or the URL, and
 * what else it brings. Which one runs is decided as the parser decides it (`type` first), so a
 * `"type": "stdio"` declaration cannot show a decoy `url` while its command runs.
 */
export function describeLaunch(name: string, decl: unknown): string {
  const d = (decl && typeof decl === 'object' ? decl : {}) as Record<string, unknown>;
  const words = (list: unknown) => (Array.isArray(list) ? list.map(a => shellWord(str(a))) : list === undefined ? [] : [shellWord(str(list))]);
  const stdio = d.type === 'stdio' || (d.type === undefined && d.url === undefined);
  const what = stdio
    ? `runs ${[...words(d.command), ...words(d.args)].join(' ')}`
    : `${shellWord(str(d.type ?? 'http'))} ${shellWord(str(d.url))}`;
  const extra = [
    stdio && d.cwd !== undefined ? `in ${shellWord(str(d.cwd))}` : '',
    stdio && d.env && typeof d.env === 'object' ? `env ${entries(d.env).join(', ')}` : '',
    stdio && d.envFile !== undefined ? `envFile ${shellWord(str(d.envFile))}` : '',
    !stdio && d.headers && typeof d.headers === 'object' ? `headers ${entries(d.headers).join(', ')}` : '',
  ].filter(Boolean);
  return `${shellWord(name)}: ${what}${extra.length ? ` (${extra.join('; ')})` : ''}`;
}

export type TrustAnswer = 'once' | 'always' | 'no';

/** Asks on the terminal (echo on: this is no secret); anything but y or a is no, and so is Ctrl-C or Ctrl-D. */
export function askTrust(input: NodeJS.ReadStream, output: NodeJS.WritableStream, question: string): Promise<TrustAnswer> {
  return new Promise(resolve => {
    const rl = readline.createInterface({ input, output, terminal: true });
    let answer: TrustAnswer = 'no';
    rl.on('SIGINT', () => rl.close());
    rl.once('close', () => resolve(answer));
    rl.question(question, text => {
      const a = text.trim().toLowerCase();
      answer = a === 'y' || a === 'yes' ? 'once' : a === 'a' || a === 'always' ? 'always' : 'no';
      rl.close();
    });
  });
}

export interface RunConsent {
  /** The workspace folder, as a real path (the key in the trusted-folders file). */
  readonly folder: string;
  /** The declarations this run would start. */
  readonly servers: Readonly<Record<string, unknown>>;
  readonly store: TrustStore;
  /** How the run resolves variables: where the env files are read from. */
  readonly variables: VariableContext;
  /** The literals the converter moved out of another host's file into `${input:…}`, by input id (handed to the servers unasked). */
  readonly moved?: ReadonlyMap<string, string>;
  /** `--yes`: run them this once without asking. */
  readonly yes: boolean;
  /** A terminal to ask in; undefined when there is none. */
  readonly ask?: (question: string) => Promise<TrustAnswer>;
  /** A line on stderr (cleaned and redacted there). */
  readonly say: (line: string) => void;
}

/**
 * Whether the workspace's servers may run: yes when each one's declaration is trusted as it is,
 * else after showing what would run, on `--yes` or the user's answer. Throws `refuse` when there is
 * no one to ask.
 */
export async function consentToRun(c: RunConsent, refuse: (message: string) => Error): Promise<boolean> {
  const enabled = Object.fromEntries(Object.entries(c.servers).filter(([, d]) => !(d && typeof d === 'object' && (d as { disabled?: unknown }).disabled === true)));
  if (c.store.problem) c.say(`warning: ${c.store.problem}`);
  const keys = await trustKeys(c.folder, enabled, c.variables, c.moved);
  const pending = c.store.untrusted(c.folder, keys);
  if (!pending.length) return true;
  c.say(`${c.folder} declares ${pending.length === 1 ? 'a server' : 'servers'} that would run as you, with your environment:`);
  for (const name of pending) c.say(`  ${describeLaunch(name, enabled[name])}`);
  if (c.yes) { c.say('running them once (--yes)'); return true; }
  if (!c.ask) {
    throw refuse(`not run: this folder's servers are not trusted. Check the lines above, then run again with --yes (this once) or run "mcp-host trust" in the folder (kept in ${c.store.file})`);
  }
  const answer = await c.ask(`mcp-host: run ${pending.length === 1 ? 'it' : 'them'}? [y] this once, [a] always (kept in ${c.store.file}), [N] no: `);
  if (answer === 'always') c.store.trust(c.folder, Object.fromEntries(pending.map(n => [n, keys[n]])));
  if (answer === 'no') c.say('not run');
  return answer !== 'no';
}
