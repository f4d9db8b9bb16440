/**
 * What the install consent shows: the full command line (or URL) that will run and every variable
 * and header, in pieces short enough to be shown without truncation. A declaration whose text hides
 * something (terminal escapes, control, bidi or zero-width characters, line breaks) cannot be shown
 * as what it is, so it is refused rather than cleaned: cleaning would show something other than what
 * would run.
 */
import { dangerousEnvVariable, type ImportRisk } from '../onboarding/importReview';
import { isPlainLine } from '../text/plainText';

export interface LaunchPreview {
  /** `npx -y "@scope/pkg@1.0.0" --flag "a b"`, or the URL. */
  readonly commandLine: string;
  /** `NAME=value` and `Header: value` lines (secrets are `${input:…}` references by now). */
  readonly settings: readonly { readonly text: string; readonly risk?: ImportRisk }[];
  /** Fields whose text hides characters; non-empty means the declaration must be refused. */
  readonly hidden: readonly string[];
}

const quote = (a: string) => a === '' || /[\s"'\\$`|&;<>()*?!#~]/.test(a) ? JSON.stringify(a) : a;

export function launchPreview(declaration: Readonly<Record<string, unknown>>): LaunchPreview {
  const hidden: string[] = [];
  const check = (field: string, text: string) => {
    if (!isPlainLine(text)) hidden.push(field);
    return text;
  };
  for (const [k, v] of Object.entries(declaration)) if (typeof v === 'string') check(k, v);
  const args = Array.isArray(declaration.args) ? declaration.args.map((a, i) => check(`args[${i}]`, String(a))) : [];
  const commandLine = typeof declaration.url === 'string'
    ? declaration.url
    : [String(declaration.command ?? ''), ...args].map(quote).join(' ');
  const settings: { text: string; risk?: ImportRisk }[] = [];
  for (const key of ['env', 'headers'] as const) {
    const record = declaration[key];
    if (!record || typeof record !== 'object') continue;
    for (const [name, value] of Object.entries(record as Record<string, unknown>)) {
      check(`${key}.${name}`, name);
      const text = check(`${key}.${name}`, String(value));
      const risk = key === 'env' ? dangerousEnvVariable(name) : undefined;
      settings.push({ text: key === 'env' ? `${name}=${text}` : `${name}: ${text}`, ...(risk ? { risk } : {}) });
    }
  }
  return { commandLine, settings, hidden: [...new Set(hidden)] };
}

/** Cuts `text` into lines of at most `width` characters, so no part of it is ever elided on screen. */
export function chunkText(text: string, width = 80): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += width) out.push(text.slice(i, i + width));
  return out.length ? out : [''];
}
