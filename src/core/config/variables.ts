/**
 * `${…}` substitution. Unknown or unresolvable variables are problems, never silent empty strings
 * (VS Code's own host substitutes '' for an unset `${env:X}`, which hides typos).
 */
import type { InputRequest, VariableContext } from './types';

/** Who a substitution is for: the input request without the id (filled per `${input:id}`). */
export type Referrer = Omit<InputRequest, 'id'>;

const VARIABLE = /\$\{([^}]*)\}/g;

export class VariableError extends Error {}

/** Checks the syntax of every variable in `value`; returns a message per unknown variable. */
export function checkVariables(value: string): string[] {
  const out: string[] = [];
  for (const m of value.matchAll(VARIABLE)) {
    if (!isKnownVariable(m[1])) {
      out.push(`unknown variable \${${m[1]}} (supported: \${workspaceFolder}, \${workspaceFolder:name}, \${userHome}, \${env:NAME}, \${input:id}, \${pathSeparator})`);
    }
  }
  return out;
}

function isKnownVariable(v: string): boolean {
  return v === 'workspaceFolder' || v === 'workspaceFolderBasename' || v === 'userHome' || v === 'pathSeparator' || v === '/'
    || /^workspaceFolder:.+$/.test(v) || /^env:[^}]+$/.test(v) || /^input:[^}]+$/.test(v);
}

/** Collects the `${input:id}` ids used in a value, so the embedder can ask for them up front. */
export function inputIds(value: string): string[] {
  return [...value.matchAll(VARIABLE)].map(m => m[1]).filter(v => v.startsWith('input:')).map(v => v.slice(6));
}

/** Resolves every variable in `value`; throws {@link VariableError} with a user-facing message. */
export async function substitute(value: string, ctx: VariableContext, referrer: Referrer, inputs: Map<string, string>): Promise<string> {
  const parts: string[] = [];
  let last = 0;
  for (const m of value.matchAll(VARIABLE)) {
    parts.push(value.slice(last, m.index));
    parts.push(await resolveOne(m[1], ctx, referrer, inputs));
    last = m.index! + m[0].length;
  }
  parts.push(value.slice(last));
  return parts.join('');
}

/**
 * The open folder a workspace variable names (`workspaceFolder`, `workspaceFolderBasename`: the first;
 * `workspaceFolder:name`: the one of that name); undefined when none is. The one reading of it, for the
 * substitution here and for what keeps a server running (trust.ts `folderValuesIn`).
 */
export function folderNamedBy<F extends { readonly name: string }>(variable: string, folders: readonly F[]): F | undefined {
  return variable.startsWith('workspaceFolder:') ? folders.find(f => f.name === variable.slice('workspaceFolder:'.length)) : folders[0];
}

async function resolveOne(v: string, ctx: VariableContext, referrer: Referrer, inputs: Map<string, string>): Promise<string> {
  const folders = ctx.workspaceFolders;
  if (v === 'workspaceFolder' || v === 'workspaceFolderBasename') {
    const first = folderNamedBy(v, folders);
    if (!first) throw new VariableError(`\${${v}} is used but no folder is open`);
    return v === 'workspaceFolder' ? first.path : first.name;
  }
  if (v.startsWith('workspaceFolder:')) {
    const name = v.slice('workspaceFolder:'.length);
    const f = folderNamedBy(v, folders);
    if (!f) throw new VariableError(`\${${v}}: no open workspace folder is named "${name}"${folders.length ? ` (open: ${folders.map(x => x.name).join(', ')})` : ''}`);
    return f.path;
  }
  if (v === 'userHome') return ctx.userHome;
  if (v === 'pathSeparator' || v === '/') return process.platform === 'win32' ? '\\' : '/';
  if (v.startsWith('env:')) {
    const name = v.slice(4);
    const val = ctx.env[name];
    if (val === undefined) throw new VariableError(`\${env:${name}}: environment variable ${name} is not set`);
    return val;
  }
  if (v.startsWith('input:')) {
    const id = v.slice(6);
    // Within one declaration a value is asked for once, at its first field: the declaration (and its
    // target) is the unit of trust, so its other fields reuse it.
    let val = inputs.get(id);
    if (val === undefined) {
      val = ctx.resolveInput ? await ctx.resolveInput({ id, ...referrer }) : undefined;
      if (val === undefined) throw new VariableError(`\${input:${id}} was not provided`);
      inputs.set(id, val);
    }
    return val;
  }
  throw new VariableError(`unknown variable \${${v}}`);
}
