/**
 * JSON with comments and trailing commas (VS Code's `mcp.json` and settings files; Claude Desktop and
 * Cursor write plain JSON, which this reads too). Errors name the line and column.
 */

export type JsoncResult = { readonly value: unknown; readonly error?: undefined } | { readonly value?: undefined; readonly error: string };

export function parseJsonc(text: string): JsoncResult {
  const clean = stripJsonc(text.replace(/^\uFEFF/, ''));
  try {
    return { value: JSON.parse(clean) as unknown };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(message);
    // V8 words some errors as `Unexpected token 'x', "<the text>" is not valid JSON`: the file's own
    // content (which may be a secret, or another file behind a symlink) must not reach a message.
    if (!at) return { error: /^Unexpected end/.test(message) ? message : `Unexpected character ${where(clean, firstInvalid(clean))}` };
    const before = clean.slice(0, Number(at[1]));
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    return { error: `${message.replace(/ in JSON at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)$/, '')} (line ${line}, column ${column})` };
  }
}

/** `(line L, column C)` of an offset. */
function where(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `(line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')})`;
}

/**
 * Offset of the first character no JSON text can continue with: the shortest prefix that fails for
 * another reason than ending early (a prefix of a valid beginning is itself one, so this is monotone).
 */
function firstInvalid(text: string): number {
  // Ending early reads `Unexpected end of JSON input` or names the position just past the prefix.
  const continues = (n: number) => {
    try { JSON.parse(text.slice(0, n)); return true; } catch (e) {
      const message = e instanceof Error ? e.message : '';
      const at = /position (\d+)/.exec(message);
      return /^Unexpected end/.test(message) || (at !== null && Number(at[1]) >= n);
    }
  };
  let lo = 0, hi = text.length; // continues(lo) holds, continues(hi) does not
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (continues(mid)) lo = mid; else hi = mid;
  }
  return lo;
}

/**
 * Replaces comments with spaces (newlines kept, so positions stay put) and drops commas that precede
 * `}` or `]`. Strings are copied untouched.
 */
export function stripJsonc(text: string): string {
  let out = '';
  let i = 0;
  let pendingComma = -1; // index in `out` of a comma that may turn out to be trailing
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const start = i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      out += text.slice(start, ++i);
      pendingComma = -1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') { out += ' '; i++; }
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === ',') {
      pendingComma = out.length;
      out += c;
      i++;
    } else if ((c === '}' || c === ']') && pendingComma >= 0) {
      out = `${out.slice(0, pendingComma)} ${out.slice(pendingComma + 1)}${c}`;
      pendingComma = -1;
      i++;
    } else {
      if (!/\s/.test(c)) pendingComma = -1;
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * Offset in `text` of the property name at `keyPath` (object keys from the top level; the last of
 * duplicates), or -1. Only
 * real property names count: the same text in a string value, in a comment or under another parent
 * (a server's args naming another server) is not a match.
 */
export function findPropertyOffset(text: string, keyPath: readonly string[]): number {
  const s = stripJsonc(text);
  // Per open container: how many leading components of keyPath lead to it (-1: off the path).
  const stack: { object: boolean; depth: number }[] = [];
  let next = 0; // depth the next container gets, when it is the value of a matched key
  let matchedKey = false;
  let found = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"') {
      const start = i++;
      while (i < s.length && s[i] !== '"') i += s[i] === '\\' ? 2 : 1;
      let j = i + 1;
      while (j < s.length && /\s/.test(s[j])) j++;
      const top = stack.at(-1);
      matchedKey = false;
      if (s[j] === ':' && top?.object && top.depth >= 0 && top.depth < keyPath.length) {
        let key: unknown;
        try { key = JSON.parse(s.slice(start, i + 1)); } catch { key = undefined; }
        if (key === keyPath[top.depth]) {
          // The last duplicate is the one in effect (JSON.parse and VS Code keep the last).
          if (top.depth === keyPath.length - 1) found = start;
          else { matchedKey = true; next = top.depth + 1; }
        }
      }
    } else if (c === '{' || c === '[') {
      stack.push({ object: c === '{', depth: stack.length === 0 ? 0 : matchedKey && c === '{' ? next : -1 });
      matchedKey = false;
    } else if (c === '}' || c === ']') {
      stack.pop();
      matchedKey = false;
    } else if (c === ',') {
      matchedKey = false;
    }
  }
  return found;
}
