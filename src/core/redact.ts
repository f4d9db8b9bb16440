/**
 * The one redaction function: every log line, trace, export and model request that may carry a
 * secret goes through {@link redactText}. It removes the values the embedder knows to be secret
 * (`${input:…}` values, OAuth tokens) in every form they take in text — as typed, escaped inside
 * JSON (once, or twice when a JSON string is itself exported as JSON), with non-ASCII as `\uXXXX`
 * (Python's `json.dumps` default), percent-encoded in a URL — and strings shaped like well-known
 * credentials.
 */

export const REDACTED = '[REDACTED]';

/** Credential shapes with a distinctive prefix or structure (few false positives on prose). */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b/g,           // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,                         // GitHub fine-grained tokens
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}\b/g,                 // OpenAI / Anthropic keys
  /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g,                         // Slack tokens
  /\bAKIA[0-9A-Z]{16}\b/g,                                     // AWS access key ids
  /\bAIza[0-9A-Za-z_-]{35}\b/g,                                // Google API keys
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g, // JWTs
  /(?<=\bbearer\s+)[A-Za-z0-9\-._~+/]{8,}=*/gi,                // Authorization: Bearer …
  // "authorization": "<anything>" (the scheme word is kept, the value after it goes; a `${variable}` is no value)
  /(?<=\bauthorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token)\s+)?)(?!(?:bearer|basic|token)\s|\[REDACTED\]|\$\{)[^"',;\s}]+/gi,
];

/** Secrets shorter than this are not searched for (they would mask ordinary words). */
const MIN_SECRET_LENGTH = 4;

export interface Redaction<T> {
  readonly value: T;
  /** Number of replaced occurrences. */
  readonly count: number;
}

const jsonEscaped = (s: string) => JSON.stringify(s).slice(1, -1);
const asciiEscaped = (s: string, upper: boolean) => jsonEscaped(s).replace(/[^\x20-\x7e]/g, c => {
  const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
  return `\\u${upper ? hex.toUpperCase() : hex}`;
});

/** The forms a secret takes in logs and exports, longest first so a form containing another goes whole. */
export function secretForms(secret: string): string[] {
  const once = [secret, jsonEscaped(secret), asciiEscaped(secret, false), asciiEscaped(secret, true), jsonEscaped(secret).replace(/\//g, '\\/')];
  const forms = new Set([...once, ...once.map(jsonEscaped)]);
  try { forms.add(encodeURIComponent(secret)); } catch { /* a lone surrogate cannot be encoded, nor sent */ }
  return [...forms];
}

export function redactText(text: string, secrets: Iterable<string>): Redaction<string> {
  let count = 0;
  let out = text;
  const forms = [...new Set([...secrets].filter(s => s && s.length >= MIN_SECRET_LENGTH).flatMap(secretForms))]
    .sort((a, b) => b.length - a.length);
  for (const s of forms) {
    const parts = out.split(s);
    if (parts.length > 1) { count += parts.length - 1; out = parts.join(REDACTED); }
  }
  for (const re of TOKEN_PATTERNS) {
    out = out.replace(re, m => (m === REDACTED ? m : (count++, REDACTED)));
  }
  return { value: out, count };
}

/** {@link redactText} for log lines: the text only. */
export function redact(text: string, secrets: Iterable<string> = []): string {
  return redactText(text, secrets).value;
}

/** What {@link redactValue} puts where a value is nested deeper than its bound. */
export const NESTED_TOO_DEEP = '[nested too deep]';

/**
 * {@link redact} applied to every string (and key) inside a JSON-like value, keeping its shape: for
 * values handed to other code as data (the exported API's tool activity), where a redacted JSON text
 * would change the type. Depth-bounded: what is nested deeper is replaced by a marker (never walked, never shown).
 */
export function redactValue(value: unknown, secrets: Iterable<string> = [], depth = 32): unknown {
  const list = [...secrets];
  const walk = (v: unknown, d: number): unknown => {
    if (typeof v === 'string') return redact(v, list);
    if (v === null || typeof v !== 'object') return v;
    if (d <= 0) return NESTED_TOO_DEEP;
    if (Array.isArray(v)) return v.map(x => walk(x, d - 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [redact(k, list), walk(x, d - 1)]));
  };
  return walk(value, depth);
}
