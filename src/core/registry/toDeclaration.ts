/**
 * A registry entry → a declaration for `mcpHost.servers`: the command line of a package (npm via
 * `npx`, PyPI via `uvx`, OCI via `docker run`, NuGet via `dnx`) or a remote's URL, with the
 * arguments, environment variables and headers the entry declares. What the user must supply becomes
 * an `${input:…}` (secrets with `password: true`, so their values go to the secret store when the
 * server first starts, never to settings). The registry is not trusted: a package that is not a
 * package name of its registry (an option such as `--call=…`, a tarball URL, `github:`, `file:`, a
 * path or an alias), a declaration that would hold one of our variables once its `{placeholders}` are
 * filled (`${env:…}` would read the user's environment and send it along), an invalid variable or
 * header name, or a URL that is not http(s) is refused, not converted.
 */
import { parseServers } from '../config/parse';
import { suggestServerName, type NewServer } from '../onboarding/addServer';
import type { InputDefinition } from '../onboarding/inputs';
import { inputIdFor, uniqueId } from '../onboarding/secrets';
import { plainText } from '../text/plainText';
import { foreignVariableError, foreignVariables, inputValues } from './ownVariables';
import { isRegistryPackageName } from './packageNames';
import { refusedRuntimeOption } from './runtimeOptions';
import type { RegistryArgument, RegistryInput, RegistryKeyValue, RegistryPackage, RegistryRemote, RegistryServer } from './types';

export type InstallChoice = { readonly kind: 'package' | 'remote'; readonly index: number };

export interface InstallOption {
  readonly choice: InstallChoice;
  /** `npm @scope/name 1.2.0`, `remote streamable-http https://…` */
  readonly label: string;
  /** Why it cannot be installed from here, if it cannot. */
  readonly unsupported?: string;
}

/** Most `{placeholder}` fillings one entry may take, and the longest value one may produce. */
const MAX_FILLS = 1_000;
const MAX_VALUE_CHARS = 8_192;

const RUNNERS: Readonly<Record<string, string>> = { npm: 'npx', pypi: 'uvx', oci: 'docker', nuget: 'dnx' };

/** Package types and transports of an entry, for rows of the browser (`npm`, `pypi`, `remote`…). */
export function entryKinds(server: RegistryServer): { packageTypes: string[]; transports: string[] } {
  const packageTypes = [...new Set([...(server.packages ?? []).map(p => p.registryType), ...(server.remotes?.length ? ['remote'] : [])])];
  const transports = [...new Set([...(server.packages ?? []).map(p => p.transport?.type ?? 'stdio'), ...(server.remotes ?? []).map(r => r.type)])];
  return { packageTypes, transports };
}

/** The ways an entry can be installed: each package, then each remote. */
export function installOptions(server: RegistryServer): InstallOption[] {
  const packages = (server.packages ?? []).map<InstallOption>((p, index) => {
    const transport = p.transport?.type ?? 'stdio';
    const unsupported = p.registryType === 'mcpb'
      ? 'an MCP bundle: download it and use "MCP: Install Bundle…"'
      : !RUNNERS[p.registryType]
        ? `packages of type "${p.registryType}" cannot be run`
        : transport !== 'stdio' ? `a package that serves ${transport} itself cannot be started from here yet` : undefined;
    return { choice: { kind: 'package', index }, label: [p.registryType, p.identifier, p.version].filter(Boolean).join(' '), ...(unsupported ? { unsupported } : {}) };
  });
  const remotes = (server.remotes ?? []).map<InstallOption>((r, index) => ({
    choice: { kind: 'remote', index }, label: `remote ${r.type} ${r.url}`,
    ...(r.type === 'streamable-http' || r.type === 'sse' ? {} : { unsupported: `remote transport "${r.type}" is not supported` }),
  }));
  return [...packages, ...remotes];
}

/** A name for the declaration: the last part of `io.github.owner/weather` → `weather`. */
export function suggestRegistryServerName(server: RegistryServer, taken: Iterable<string>): string {
  return suggestServerName({ package: server.name.split('/').pop() ?? server.name }, taken);
}

class Converter {
  readonly inputs: InputDefinition[] = [];
  readonly errors: string[] = [];
  private readonly taken: Set<string>;
  private fills = 0;
  private overflow = false;

  constructor(private readonly name: string, takenInputIds: Iterable<string>) {
    this.taken = new Set(takenInputIds);
  }

  /** A literal from the registry, refused when it holds one of our `${…}` variables. */
  literal(value: string, field: string): string {
    if (value.includes('${')) this.errors.push(`${field} contains "\${", which MCP Host would read as a variable (such as \${env:…}); a registry entry may not use them.`);
    return value;
  }

  private tooLarge(field: string): string {
    if (!this.overflow) this.errors.push(`${field}: the entry's {placeholders} fill more than ${MAX_FILLS} values or a value longer than ${MAX_VALUE_CHARS} characters.`);
    this.overflow = true;
    return '';
  }

  private input(field: string, i: RegistryInput): string {
    const id = uniqueId(inputIdFor(this.name, field), this.taken);
    const description = plainText(i.description ?? field, { singleLine: true, maxLength: 200 });
    const def: InputDefinition = i.choices?.length
      ? { id, type: 'pickString', description, options: i.choices.map(c => this.literal(c, field)), ...(i.default !== undefined ? { default: this.literal(i.default, field) } : {}) }
      : { id, type: 'promptString', description, ...(i.isSecret ? { password: true } : {}), ...(i.default !== undefined && !i.isSecret ? { default: this.literal(i.default, field) } : {}) };
    this.inputs.push(def);
    return `\${input:${id}}`;
  }

  /** The value to write for an input, or undefined to leave an optional one out. */
  value(i: RegistryInput, field: string): string | undefined {
    if (i.value !== undefined) {
      // Placeholders nest (a variable's value has placeholders of its own), so a few hundred bytes of
      // entry could fill `{a}{a}` forty levels deep: the filling is bounded in steps and in length.
      if (this.overflow || ++this.fills > MAX_FILLS) return this.tooLarge(field);
      const value = this.literal(i.value, field);
      // `{token}` placeholders are filled by inputs of their own (`Bearer {token}`).
      const filled = value.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, v: string) => {
        const variable = Object.hasOwn(i.variables ?? {}, v) ? i.variables![v] : undefined;
        return variable && !this.overflow ? this.value({ isRequired: true, ...variable }, `${field}.${v}`) ?? '' : whole;
      });
      return filled.length > MAX_VALUE_CHARS ? this.tooLarge(field) : filled;
    }
    if (i.isSecret || i.choices?.length || (i.isRequired && i.default === undefined)) return this.input(field, i);
    return i.default !== undefined ? this.literal(i.default, field) : undefined;
  }

  args(list: readonly RegistryArgument[] | undefined, field: string): string[] {
    const out: string[] = [];
    for (const a of list ?? []) {
      if (a.type === 'named') {
        const flag = this.literal(a.name!, `${field} ${a.name}`);
        if (!/^-{1,2}[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(flag)) { this.errors.push(`${field}: "${flag}" is not an option name.`); continue; }
        const v = a.value !== undefined || a.isRequired || a.default !== undefined || a.isSecret ? this.value(a, `${field}.${flag.replace(/^-+/, '')}`) : undefined;
        if (v === undefined && !a.isRequired && a.value === undefined) continue;
        out.push(flag, ...(v !== undefined ? [v] : []));
      } else {
        const v = this.value(a.value === undefined && a.default === undefined ? { isRequired: true, ...a, description: a.description ?? a.valueHint } : a, `${field}.${a.valueHint ?? out.length}`);
        if (v !== undefined) out.push(v);
      }
    }
    return out;
  }

  /** Runtime arguments (before the package): `--name=value` each, or refused (see runtimeOptions.ts). */
  runtimeArgs(list: readonly RegistryArgument[] | undefined, registryType: string): string[] {
    const out: string[] = [];
    for (const a of list ?? []) {
      const refused = a.type === 'named' ? refusedRuntimeOption(registryType, a.name) : refusedRuntimeOption(registryType, undefined);
      if (refused) { this.errors.push(`runtimeArguments: ${a.type === 'named' ? `"${a.name}"` : 'a positional argument'} is refused: ${refused}.`); continue; }
      const flag = a.name!;
      const v = a.value !== undefined || a.isRequired || a.default !== undefined || a.isSecret ? this.value(a, `runtimeArguments.${flag.replace(/^-+/, '')}`) : undefined;
      if (v === undefined && !a.isRequired && a.value === undefined) continue;
      out.push(v !== undefined ? `${flag}=${v}` : flag);
    }
    return out;
  }

  keyValues(list: readonly RegistryKeyValue[] | undefined, field: 'env' | 'headers'): Record<string, string> | undefined {
    if (!list?.length) return undefined;
    const valid = field === 'env' ? /^[A-Za-z_][A-Za-z0-9_]*$/ : /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
    const out: Record<string, string> = {};
    for (const kv of list) {
      if (!valid.test(kv.name)) { this.errors.push(`${field}: "${kv.name}" is not a valid ${field === 'env' ? 'environment variable' : 'header'} name.`); continue; }
      const v = this.value(kv, kv.name);
      if (v !== undefined) out[kv.name] = v;
    }
    return Object.keys(out).length ? out : undefined;
  }
}

function packageDeclaration(c: Converter, p: RegistryPackage): Record<string, unknown> | undefined {
  const runner = RUNNERS[p.registryType];
  if (!runner) { c.errors.push(`Packages of type "${p.registryType}" cannot be installed.`); return undefined; }
  const id = c.literal(p.identifier, 'identifier');
  const version = p.version !== undefined ? c.literal(p.version, 'version') : undefined;
  // Only a name in the package's registry: an option (`--call=…`), a URL, `github:`, `file:`, a path or an
  // alias would make the runner run something else than the registry's package.
  if (!isRegistryPackageName(p.registryType, id)) { c.errors.push(`"${id}" is not a ${p.registryType} package name; a registry entry may name only a package of its registry (no URL, path, git or alias).`); return undefined; }
  if (version !== undefined && !/^[A-Za-z0-9][A-Za-z0-9.+_-]*$/.test(version)) { c.errors.push(`"${version}" is not a version.`); return undefined; }
  // npm reads `pkg@<x>.tgz` (also `.tar`, `.tar.gz`, any case) as a tarball in the working folder, not as a version.
  if (version !== undefined && p.registryType === 'npm' && /\.(?:tgz|tar|tar\.gz)$/i.test(version)) { c.errors.push(`"${version}" is not a version: npm would read it as a tarball file.`); return undefined; }
  const runtime = c.runtimeArgs(p.runtimeArguments, p.registryType);
  const args = c.args(p.packageArguments, 'packageArguments');
  const env = c.keyValues(p.environmentVariables, 'env');
  let line: string[];
  switch (p.registryType) {
    case 'npm': line = [...runtime, '-y', version ? `${id}@${version}` : id, ...args]; break;
    case 'pypi': line = [...runtime, version ? `${id}==${version}` : id, ...args]; break;
    case 'nuget': line = [...runtime, version ? `${id}@${version}` : id, '--yes', ...(args.length ? ['--', ...args] : [])]; break;
    default: // oci: the variables reach the container only when passed with -e.
      line = ['run', '-i', '--rm', ...runtime, ...Object.keys(env ?? {}).flatMap(k => ['-e', k]), version && !id.includes(':') && !id.includes('@') ? `${id}:${version}` : id, ...args];
  }
  return { type: 'stdio', command: runner, args: line, ...(env ? { env } : {}) };
}

function remoteDeclaration(c: Converter, r: RegistryRemote): Record<string, unknown> | undefined {
  if (r.type !== 'streamable-http' && r.type !== 'sse') { c.errors.push(`Remote transport "${r.type}" is not supported.`); return undefined; }
  const url = c.literal(r.url, 'url');
  let parsed: URL | undefined;
  try { parsed = new URL(url.replace(/\{[A-Za-z0-9_.-]+\}/g, 'x')); } catch { /* below */ }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) { c.errors.push(`"${url}" is not an http(s) URL.`); return undefined; }
  const headers = c.keyValues(r.headers, 'headers');
  return { type: r.type === 'sse' ? 'sse' : 'http', url, ...(headers ? { headers } : {}) };
}

/**
 * The declaration for one install option of an entry, checked by the core's parser. `errors` non-empty
 * means nothing may be written. No secret values: the inputs are asked when the server first starts.
 */
export function registryDeclaration(server: RegistryServer, choice: InstallChoice, name: string, takenInputIds: Iterable<string> = []): NewServer {
  const c = new Converter(name, takenInputIds);
  const source = choice.kind === 'package' ? server.packages?.[choice.index] : server.remotes?.[choice.index];
  let declaration: Record<string, unknown> | undefined;
  if (!source) c.errors.push('The entry has no such package or remote.');
  else declaration = choice.kind === 'package' ? packageDeclaration(c, source as RegistryPackage) : remoteDeclaration(c, source as RegistryRemote);
  declaration ??= {};
  // Checked on the result, after every `{placeholder}` is filled: values combine (`{t}{env:X}` with t = "$").
  const foreign = foreignVariableError([...foreignVariables(declaration, new Set(c.inputs.map(i => i.id))), ...foreignVariables(inputValues(c.inputs), new Set())], 'a registry entry');
  if (foreign) c.errors.push(foreign);
  const check = c.errors.length ? { problems: [] } : parseServers({ [name]: declaration });
  return {
    name, declaration, inputs: c.inputs, secrets: [],
    errors: [...c.errors, ...check.problems.filter(p => p.severity === 'error').map(p => p.message)],
    warnings: check.problems.filter(p => p.severity === 'warning').map(p => p.message),
  };
}
