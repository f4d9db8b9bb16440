/**
 * Binding of `${input:id}` values to where the user gave them. An id alone says nothing about who
 * may read the value: any declaration (a cloned repository's settings, an imported file) can name
 * the id that Add Server created and send the token to its own URL. So a stored value belongs to one
 * referrer: the declaration's scope (user, or one workspace/folder), the server name, the field and
 * the target (an HTTP server's origin, a stdio server's command). Any other referrer is asked again.
 */
import type { InputRequest, InputTarget } from './types';
import { inputIds } from './variables';
import { isSocketUrl, socketEndpoint } from './socketUrl';

/** Where a declaration comes from; a workspace or folder declaration also names its workspace. */
export type InputScope = 'user' | 'workspace' | 'folder';

/** A request plus the declaration's scope: the full identity a stored value is bound to. */
export interface InputReferrer extends InputRequest {
  readonly scope: InputScope;
  /** Identity of the workspace (its file or folder URI) for `workspace` and `folder` scopes. */
  readonly workspace?: string;
}

export type InputBinding = Omit<InputReferrer, 'id'>;

export function bindingOf(referrer: InputReferrer): InputBinding {
  const { id: _id, ...binding } = referrer;
  return binding;
}

/** Whether a value bound to `binding` may be handed to `referrer` without asking. */
export function bindingMatches(binding: InputBinding, referrer: InputReferrer): boolean {
  return binding.scope === referrer.scope
    && (binding.scope === 'user' || binding.workspace === referrer.workspace)
    && binding.server === referrer.server
    && binding.field === referrer.field
    && binding.target?.kind === referrer.target?.kind
    && binding.target?.value === referrer.target?.value
    && binding.target?.folder === referrer.target?.folder;
}

/** The origin of a URL whose scheme and authority hold no variables (the rest may: a query key). */
export function urlTarget(url: string): InputTarget | undefined {
  if (isSocketUrl(url)) {
    // The socket is the server (every socket URL's origin is "null"): the path before "#", as the resolver computes it.
    const before = url.trim().split('#')[0];
    if (before.includes('${')) return undefined;
    try { return { kind: 'origin', value: socketEndpoint(url).identity }; } catch { return undefined; }
  }
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url.trim())?.[0];
  if (!authority || authority.includes('${')) return undefined;
  try { return { kind: 'origin', value: new URL(authority).origin }; } catch { return undefined; }
}

/**
 * A command without variables is its own target (with the declared working folder, when there is
 * one, see {@link InputTarget.folder}); one with variables is known only once resolved.
 */
export function commandTarget(command: string, cwd?: unknown): InputTarget | undefined {
  if (!command || command.includes('${')) return undefined;
  return typeof cwd === 'string' ? { kind: 'command', value: command, folder: cwd } : { kind: 'command', value: command };
}

/** The target of a raw declaration (`mcpHost.servers` entry), as the resolver will compute it. */
export function declarationTarget(declaration: unknown): InputTarget | undefined {
  const d = (declaration ?? {}) as { url?: unknown; command?: unknown; cwd?: unknown };
  if (typeof d.url === 'string') return urlTarget(d.url);
  return typeof d.command === 'string' ? commandTarget(d.command, d.cwd) : undefined;
}

/**
 * Every `${input:id}` of a raw declaration with the field the resolver will name for it (`url`,
 * `headers.X`, `command`, `args[i]`, `cwd`, `envFile`, `env.X`), in resolution order; an id is
 * listed at its first field only, as the resolver asks once per declaration.
 */
export function inputReferences(declaration: unknown): { id: string; field: string }[] {
  const d = (declaration ?? {}) as Record<string, unknown>;
  const fields: [string, unknown][] = [];
  const record = (name: string) => Object.entries(d[name] && typeof d[name] === 'object' && !Array.isArray(d[name]) ? d[name] as object : {}).map(([k, v]): [string, unknown] => [`${name}.${k}`, v]);
  if (typeof d.url === 'string') fields.push(['url', d.url], ...record('headers'));
  else {
    fields.push(['command', d.command], ...(Array.isArray(d.args) ? d.args : []).map((a, i): [string, unknown] => [`args[${i}]`, a]));
    fields.push(['cwd', d.cwd], ['envFile', d.envFile], ...record('env'));
  }
  const seen = new Set<string>();
  const out: { id: string; field: string }[] = [];
  for (const [field, value] of fields) {
    if (typeof value !== 'string') continue;
    for (const id of inputIds(value)) if (!seen.has(id)) { seen.add(id); out.push({ id, field }); }
  }
  return out;
}
