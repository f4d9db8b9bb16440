/**
 * Access "registryOnly": only servers the host itself installed from the MCP registry run. Nothing a
 * declaration says is believed (a settings file, a workspace, another client's config or a bundle can
 * write anything): a server counts as a registry install only when the embedder holds the record it
 * made when it installed it (kept out of settings, so a hand-written declaration cannot claim one), for
 * this name and the place it is declared, from the registry the policy pins (else the official one),
 * and the declaration still runs exactly what that install wrote. Another command, argument, package
 * version, environment variable, working folder or URL is a program the registry never named.
 */
import { createHash } from 'node:crypto';
import type { ResolvedLaunch, ServerDeclaration } from '../config/types';
import { DEFAULT_REGISTRY_URL } from '../registry/client';
import { normalUrl } from './facts';
import { runnerPackages, type PackageRef } from './runners';
import type { ServerPolicy } from './types';

/** What the embedder records when it installs a server from a registry entry (never read from settings). */
export interface RegistryInstall {
  /** The registry the entry was fetched from. */
  readonly registryUrl: string;
  /** The entry's server name (`io.github.owner/weather`) and version. */
  readonly entry: string;
  readonly version?: string;
  /** {@link launchFingerprint} of the declaration the install wrote. */
  readonly fingerprint: string;
  /** What the entry resolved to: the packages its command line runs, or the remote's URL (normalUrl). */
  readonly runs: { readonly packages: readonly PackageRef[] } | { readonly url: string };
}

/**
 * Whether the server is a registry install the host recorded, and if not, why (for the refusal message).
 * `entry` when not installed: the entry a record for this server names although it no longer proves it
 * (changed since, another registry, another package at launch) — enough for a deny rule, never for an allow rule.
 */
export type RegistryStanding = { readonly installed: true; readonly entry: string } | { readonly installed: false; readonly why: string; readonly entry?: string };

/**
 * Everything of a declaration that decides what runs or where it connects. Left out: what only narrows
 * or schedules (`sandbox`, `disabled`, `autostart`, `roots`, timeouts, `protocol`).
 */
export function launchFingerprint(decl: ServerDeclaration): string {
  const what = decl.type === 'stdio'
    ? { type: decl.type, command: decl.command, args: decl.args, env: decl.env, envFile: decl.envFile ?? null, cwd: decl.cwd ?? null, dev: decl.dev ?? null }
    : { type: decl.type, url: decl.url, headers: decl.headers, auth: decl.auth ?? null };
  const sorted = JSON.stringify(what, (_k, v: unknown) => v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v);
  return createHash('sha256').update(sorted).digest('hex');
}

/** The record for a declaration an install just built from a registry entry, or why it cannot be one. */
export function registryInstallRecord(decl: ServerDeclaration, from: { readonly registryUrl: string; readonly entry: string; readonly version?: string }): RegistryInstall | string {
  const fingerprint = launchFingerprint(decl);
  if (decl.type === 'stdio') {
    const { packages } = runnerPackages(decl.command, decl.args);
    return packages.length ? { ...from, fingerprint, runs: { packages } } : 'its command line runs no package of the registry';
  }
  const url = normalUrl(decl.url);
  return url ? { ...from, fingerprint, runs: { url } } : 'its URL is not an http(s) URL';
}

/** The registry registryOnly admits installs from: the pinned one, else the official one (never the user's own choice). */
export function admittedRegistry(policy: ServerPolicy): string {
  return policy.registryUrl ?? DEFAULT_REGISTRY_URL;
}

const sameRegistry = (a: string, b: string) => normalUrl(a)?.replace(/\/+$/, '') === normalUrl(b)?.replace(/\/+$/, '');

/** The declaration as written: recorded, from the admitted registry, and unchanged since. */
export function declarationStanding(decl: ServerDeclaration, install: RegistryInstall | undefined, policy: ServerPolicy): RegistryStanding {
  if (!install) return { installed: false, why: 'MCP Host has no record of installing it from the registry here (a declaration cannot say so itself; install it with "MCP: Browse MCP Registry…")' };
  const registry = admittedRegistry(policy);
  if (!sameRegistry(install.registryUrl, registry)) return { installed: false, entry: install.entry, why: `it was installed from ${install.registryUrl}, not from ${registry}` };
  if (install.fingerprint !== launchFingerprint(decl)) {
    return { installed: false, entry: install.entry, why: `its declaration no longer runs what was installed from the registry entry "${install.entry}"${install.version ? ` ${install.version}` : ''} (${runsText(install)}); install it again from the registry` };
  }
  return { installed: true, entry: install.entry };
}

/** The resolved launch (inputs filled in): still the recorded packages, or the recorded URL. */
export function launchStanding(decl: ServerDeclaration, install: RegistryInstall | undefined, launch: ResolvedLaunch, policy: ServerPolicy): RegistryStanding {
  const written = declarationStanding(decl, install, policy);
  if (!written.installed || !install) return written;
  const runs = install.runs;
  const same = 'url' in runs
    ? launch.type !== 'stdio' && normalUrl(launch.url.href) === runs.url
    : launch.type === 'stdio' && JSON.stringify(runnerPackages(launch.command, launch.args).packages) === JSON.stringify(runs.packages);
  return same ? written : { installed: false, entry: install.entry, why: `once its inputs are filled in it does not run what the registry entry "${install.entry}" names (${runsText(install)})` };
}

function runsText(install: RegistryInstall): string {
  const runs = install.runs;
  return 'url' in runs ? `url ${runs.url}` : `package ${runs.packages.map(p => p.version ? `${p.name}@${p.version}` : p.name).join(', ')}`;
}
