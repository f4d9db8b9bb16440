/**
 * The CLI's server declarations: read from the files the user names (or the workspace's own
 * `.vscode/settings.json` and `.vscode/mcp.json`), in any format the Import Servers feature reads.
 * Only what those files declare is run. Other hosts' files (Claude Desktop, Cursor: `mcpServers`) go
 * through the same converter as Import Servers, so their literal secrets become `${input:…}` values
 * known to the redaction; our own formats are passed as they are (a converter would drop fields such
 * as `sandbox` and `roots`), and the core's parser reports their problems by server and field.
 */
// The core's SDK-free entry, not its index: a warm `call` through `serve` never needs the SDK (serveCall.ts).
import { type ConfigFormat, type ConfigProblem, convertConfig, locateServers, parseJsonc, readInputList } from '../core/light';

export interface DeclarationFile {
  readonly path: string;
  readonly text: string;
  /** Found by looking in the workspace rather than named by the user: a file without servers is no error. */
  readonly discovered?: boolean;
}

/** `inputs` entry as VS Code's `mcp.json` and `mcpHost.inputs` define it (only what the CLI uses). */
export interface CliInputDefinition {
  readonly id: string;
  readonly description?: string;
  readonly password?: boolean;
  readonly default?: string;
}

export interface LoadedDeclarations {
  /** Raw declarations by server name, for {@link McpHost.apply}. */
  readonly servers: Record<string, unknown>;
  /** Where each server was declared. */
  readonly origin: ReadonlyMap<string, string>;
  readonly inputs: ReadonlyMap<string, CliInputDefinition>;
  /** Literal secrets the converter moved out of another host's file, by input id. */
  readonly secrets: ReadonlyMap<string, string>;
  readonly files: readonly { readonly path: string; readonly format: ConfigFormat; readonly servers: number }[];
  /** File-level problems (`server` is empty, `field` names the file) and duplicate names. */
  readonly problems: readonly ConfigProblem[];
}

/** Our settings key first: a VS Code settings.json may hold both `mcp.servers` and `mcpHost.servers`. */
function locate(value: unknown): ReturnType<typeof locateServers> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    if (v['mcpHost.servers'] && typeof v['mcpHost.servers'] === 'object') {
      return { format: 'mcpHostSettings', servers: v['mcpHost.servers'] as Record<string, unknown>, inputs: v['mcpHost.inputs'] };
    }
  }
  return locateServers(value);
}

export function loadDeclarations(files: readonly DeclarationFile[]): LoadedDeclarations {
  // No prototype: a server named `__proto__` or `constructor` is a name like any other.
  const servers: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const origin = new Map<string, string>();
  const inputs = new Map<string, CliInputDefinition>();
  const secrets = new Map<string, string>();
  const loaded: { path: string; format: ConfigFormat; servers: number }[] = [];
  const problems: ConfigProblem[] = [];
  const fileProblem = (file: string, message: string) => problems.push({ server: '', field: file, severity: 'error', message });

  const add = (name: string, decl: unknown, file: string) => {
    const first = origin.get(name);
    if (first !== undefined) {
      problems.push({ server: name, severity: 'warning', message: `declared again in ${file}; the declaration in ${first} is used` });
      return;
    }
    servers[name] = decl;
    origin.set(name, file);
  };
  const addInputs = (list: unknown) => {
    for (const d of readInputList(list)) {
      if (inputs.has(d.id)) continue;
      inputs.set(d.id, {
        id: d.id,
        description: typeof d.description === 'string' ? d.description : undefined,
        password: d.password === true,
        default: typeof d.default === 'string' ? d.default : undefined,
      });
    }
  };

  for (const file of files) {
    const parsed = parseJsonc(file.text);
    // parseJsonc's message names the place only, never the text (it may be a secret, or another file).
    if (parsed.error !== undefined) { fileProblem(file.path, `not valid JSON: ${parsed.error}`); continue; }
    const found = locate(parsed.value);
    if (!found) {
      if (!file.discovered) fileProblem(file.path, 'declares no servers (expected "mcpHost.servers", "servers", "mcpServers" or "mcp.servers")');
      continue;
    }
    loaded.push({ path: file.path, format: found.format, servers: Object.keys(found.servers).length });
    if (found.format !== 'mcpServers') {
      addInputs(found.inputs);
      for (const [name, decl] of Object.entries(found.servers)) add(name, decl, file.path);
      continue;
    }
    const converted = convertConfig(parsed.value, { source: file.path, existingInputs: [...inputs.values()] });
    for (const s of converted.servers) {
      if (file.discovered) {
        // The workspace's own file is the repository's text, not the user's secrets: its literals stay
        // in the declaration, so the consent line shows what runs (a credential-shaped argument can be
        // the whole `-e` script) and the trust key covers it.
        const moved = new Map(s.secrets.map(x => [x.id, x.value]));
        add(s.name, restoreLiterals(s.declaration, moved), file.path);
        addInputs(s.inputs.filter(i => !moved.has(i.id)));
        continue;
      }
      addInputs(s.inputs);
      for (const { id, value } of s.secrets) secrets.set(id, value);
      add(s.name, s.declaration, file.path);
    }
    // What the converter cannot use goes to the core's parser as written, which names the field at fault.
    for (const { name } of converted.skipped) add(name, found.servers[name], file.path);
  }
  return { servers, origin, inputs, secrets, files: loaded, problems };
}

/** `value` with each `\${input:id}` the converter made of a literal written back as that literal. */
function restoreLiterals(value: unknown, moved: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\$\{input:([^}]+)\}/g, (whole, id: string) => moved.get(id) ?? whole);
  if (Array.isArray(value)) return value.map(v => restoreLiterals(v, moved));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, restoreLiterals(v, moved)]));
  return value;
}

const ENV_REF = /\$\{env:([^}]+)\}/g;

/**
 * The value of every `${env:NAME}` the declarations use. Whether one is a secret cannot be told from
 * its name (`DATABASE_URL` holds a password, `CI_VALUE` may be a key): the output redacts them all,
 * so a server echoing one, or `-v` showing a command line, does not put it in a CI log.
 */
export function envValues(servers: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>>): string[] {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') for (const m of v.matchAll(ENV_REF)) { const value = env[m[1]]; if (value) out.add(value); }
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(Object.values(servers));
  return [...out];
}
