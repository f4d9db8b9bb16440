/**
 * Policy rules: `name:<glob>`, `command:<glob>`, `package:<name>[@<version>]` (globs allowed),
 * `registry:<entry glob>` (a server MCP Host installed from that registry entry, as the install record
 * proves: registryInstalls.ts; a declaration's own claim never counts) and
 * `url:<scheme>://<host>[:port][/path]` (globs allowed; `*` in the host never crosses a `/`, `:` or
 * `@`), or a socket's `url:unix:///path` / `url:pipe:///name`. Matching is case-insensitive and on normalised text (names NFKC without invisible characters,
 * URLs as `normalUrl` writes them), so a look-alike spelling of a denied thing is not a way around it.
 */
import { normalUrl, type ProgramFacts } from './facts';
import type { PackageRef } from './runners';

export type RuleKind = 'name' | 'command' | 'package' | 'url' | 'registry';
const KINDS: readonly RuleKind[] = ['name', 'command', 'package', 'url', 'registry'];

export interface Rule { readonly kind: RuleKind; readonly text: string; readonly re: RegExp }

/** The rule, or a sentence saying why `text` is not one. */
export function parseRule(text: unknown): Rule | string {
  if (typeof text !== 'string') return `a rule must be a string like "package:@scope/name", not ${JSON.stringify(text)}`;
  const colon = text.indexOf(':');
  const kind = text.slice(0, colon).trim().toLowerCase() as RuleKind;
  const pattern = text.slice(colon + 1).trim();
  if (colon < 0 || !KINDS.includes(kind)) return `"${text}" is not a rule: write name:, command:, package:, url: or registry: before the pattern`;
  if (!pattern) return `"${text}" has an empty pattern`;
  if (kind === 'url' && /^(unix|pipe):/i.test(pattern)) {
    // A socket rule names socket paths: `url:unix:///run/user/*/mcp.sock`; `*` may cross "/".
    const m = /^(unix|pipe):\/\/(\/.+)$/i.exec(pattern);
    if (!m || m[2].includes('..')) return `"${text}": a socket url rule looks like url:unix:///run/mcp/*.sock or url:pipe:///name (an absolute path, no "..")`;
    const scheme = m[1].toLowerCase();
    // Unix paths differ by case; Windows pipe names do not (normalUrl writes them in lower case).
    return { kind, text, re: new RegExp(`^${scheme}://${glob(scheme === 'pipe' ? m[2].toLowerCase() : m[2], '.*')}$`, scheme === 'pipe' ? 'i' : '') };
  }
  if (kind === 'url') {
    const m = /^(https?):\/\/([^/]+)(\/.*)?$/i.exec(pattern);
    if (!m) return `"${text}": a url rule looks like url:https://mcp.example.com/* (http or https, a host, an optional path)`;
    const host = m[2].toLowerCase().replace(/\.+(?=:|$)/, '');
    const path = m[3] === undefined ? '/*' : (normalUrl(`${m[1]}://h${m[3].replace(/\*/g, '__star__')}`) ?? '').replace(/^https?:\/\/h/, '').replace(/__star__/g, '*');
    const re = new RegExp(`^${m[1].toLowerCase()}://${glob(host, '[^/:@]*')}${glob(path, '.*')}$`, 'i');
    return { kind, text, re };
  }
  // A registry entry id comes from a registry: `*` crosses a line break too ('s'), so an id with one in it is not a way past a deny rule.
  if (kind === 'registry') return { kind, text, re: new RegExp(`^${glob(normalName(pattern), '.*')}$`, 'is') };
  return { kind, text, re: new RegExp(`^${glob(kind === 'name' ? normalName(pattern) : pattern, '.*')}$`, 'i') };
}

function glob(pattern: string, star: string): string {
  return pattern.split('*').map(part => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join(star);
}

/** Names compared as a person reads them: NFKC, no invisible characters, lower case. */
export function normalName(name: string): string {
  return name.normalize('NFKC').replace(/[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu, '').toLowerCase();
}

/**
 * Whether `rule` names this server (a deny rule refuses it). `entry`: the registry entry the host's
 * install record proves this server is (unchanged since the install); absent when there is none.
 */
export function ruleMatches(rule: Rule, facts: ProgramFacts, entry?: string): boolean {
  switch (rule.kind) {
    case 'registry': return entry !== undefined && rule.re.test(entry);
    case 'name': return rule.re.test(normalName(facts.name));
    case 'command': {
      const c = facts.command;
      return !!c && [c.written, c.program, c.file].some(v => v !== undefined && rule.re.test(v));
    }
    case 'package': return facts.packages.some(p => namesPackage(rule, p));
    case 'url': return facts.url !== undefined && rule.re.test(facts.url);
  }
}

/**
 * Whether a list of rules admits this server. A command rule with a path admits only the file found
 * on disk; package rules admit a server only when every package it runs is named and the runner's
 * flags and environment cannot load anything else.
 */
export function listAdmits(rules: readonly Rule[], facts: ProgramFacts, entry?: string): boolean {
  if (rules.some(r => (r.kind === 'name' || r.kind === 'registry') && ruleMatches(r, facts, entry))) return true;
  if (facts.kind === 'remote') return rules.some(r => r.kind === 'url' && ruleMatches(r, facts));
  const c = facts.command;
  if (c && rules.some(r => r.kind === 'command' && (r.text.includes('/') || r.text.includes('\\') ? c.file !== undefined && r.re.test(c.file) : r.re.test(c.program)))) return true;
  const packageRules = rules.filter(r => r.kind === 'package');
  return packageRules.length > 0 && !facts.packagesUnsure && facts.packages.length > 0
    && facts.packages.every(p => packageRules.some(r => namesPackage(r, p)));
}

/** A package rule names `name` or `name@version`. */
function namesPackage(rule: Rule, p: PackageRef): boolean {
  return rule.re.test(p.name) || (p.version !== undefined && rule.re.test(`${p.name}@${p.version}`));
}
