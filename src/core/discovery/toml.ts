/**
 * A reader for the TOML that Codex writes (`~/.codex/config.toml`): tables, dotted and quoted keys,
 * basic/literal/multi-line strings, numbers, booleans, arrays, inline tables, arrays of tables.
 * Dates are kept as their text. No TOML parser ships in node_modules, and this subset is all that an
 * MCP declaration uses. Errors name the line only: the file may hold tokens, which must not reach a
 * message.
 */
import { isRecord } from '../isRecord';

export class TomlError extends Error {}

type Table = Record<string, unknown>;

export function parseToml(text: string): Table {
  return new Reader(text.replace(/^\uFEFF/, '')).document();
}

const BARE_KEY = /[A-Za-z0-9_-]/;
const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };

class Reader {
  private i = 0;
  /** Tables defined by a header or an inline table: defining one twice is an error in TOML. */
  private readonly closed = new Set<Table>();

  constructor(private readonly s: string) {}

  document(): Table {
    const root: Table = {};
    let current = root;
    for (;;) {
      this.skipBlank(true);
      if (this.i >= this.s.length) return root;
      if (this.s[this.i] === '[') current = this.header(root);
      else {
        this.keyValue(current);
        this.endOfLine();
      }
    }
  }

  private header(root: Table): Table {
    const array = this.s.startsWith('[[', this.i);
    this.i += array ? 2 : 1;
    const path = this.key();
    this.skipSpace();
    if (!this.s.startsWith(array ? ']]' : ']', this.i)) this.fail('expected "]" after the table name');
    this.i += array ? 2 : 1;
    this.endOfLine();
    let t = root;
    for (const part of path.slice(0, -1)) t = this.child(t, part, true);
    const last = path[path.length - 1];
    if (array) {
      const list = t[last] ?? (t[last] = []);
      if (!Array.isArray(list)) this.fail('a table array reuses the name of a value');
      const entry: Table = {};
      (list as unknown[]).push(entry);
      return entry;
    }
    const table = this.child(t, last, false);
    if (this.closed.has(table)) this.fail('a table is defined twice');
    this.closed.add(table);
    return table;
  }

  /** The table `key` of `t`, created when missing; `through` allows the last entry of a table array. */
  private child(t: Table, key: string, through: boolean): Table {
    let v = t[key];
    if (v === undefined) v = t[key] = {};
    if (through && Array.isArray(v) && isRecord(v[v.length - 1])) return v[v.length - 1] as Table;
    if (!isRecord(v) || Array.isArray(v)) this.fail('a key is both a value and a table');
    return v as Table;
  }

  private keyValue(t: Table): void {
    const path = this.key();
    this.skipSpace();
    if (this.s[this.i] !== '=') this.fail('expected "=" after a key');
    this.i++;
    this.skipSpace();
    const value = this.value();
    let target = t;
    for (const part of path.slice(0, -1)) target = this.child(target, part, false);
    const last = path[path.length - 1];
    if (Object.prototype.hasOwnProperty.call(target, last)) this.fail('a key is defined twice');
    target[last] = value;
  }

  private key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipSpace();
      const c = this.s[this.i];
      if (c === '"' || c === "'") parts.push(this.string());
      else {
        const start = this.i;
        while (this.i < this.s.length && BARE_KEY.test(this.s[this.i])) this.i++;
        if (start === this.i) this.fail('expected a key');
        parts.push(this.s.slice(start, this.i));
      }
      // Written through, `__proto__` would set a prototype (Object.prototype's, for a table): never a key here.
      if (parts[parts.length - 1] === '__proto__') this.fail('a key named __proto__ is not allowed');
      this.skipSpace();
      if (this.s[this.i] !== '.') return parts;
      this.i++;
    }
  }

  private value(): unknown {
    const c = this.s[this.i];
    if (c === '"' || c === "'") return this.string();
    if (c === '[') return this.array();
    if (c === '{') return this.inlineTable();
    const m = /^[^\s,\]}#]+(?: \d{2}:[0-9:.+\-Z]+)?/.exec(this.s.slice(this.i, this.i + 200));
    if (!m) this.fail('expected a value');
    const word = m[0];
    this.i += word.length;
    if (word === 'true') return true;
    if (word === 'false') return false;
    const n = word.replace(/_/g, '');
    if (/^[+-]?(0x[0-9a-f]+|0o[0-7]+|0b[01]+)$/i.test(n)) return Number(n.replace(/^[+-]/, '')) * (n.startsWith('-') ? -1 : 1);
    if (/^[+-]?(\d+(\.\d+)?([eE][+-]?\d+)?|inf|nan)$/.test(n)) return n.endsWith('inf') ? (n.startsWith('-') ? -Infinity : Infinity) : n.endsWith('nan') ? NaN : Number(n);
    if (/^\d{4}-\d{2}-\d{2}|^\d{2}:\d{2}/.test(word)) return word;
    this.fail('expected a value');
  }

  private string(): string {
    const quote = this.s[this.i];
    const multi = this.s.startsWith(quote.repeat(3), this.i);
    this.i += multi ? 3 : 1;
    // A newline right after the opening delimiter of a multi-line string is not part of it.
    if (multi && this.s[this.i] === '\n') this.i++;
    else if (multi && this.s.startsWith('\r\n', this.i)) this.i += 2;
    let out = '';
    for (;;) {
      if (this.i >= this.s.length) this.fail('a string is not closed');
      const c = this.s[this.i];
      if (!multi && c === quote) { this.i++; return out; }
      if (multi && this.s.startsWith(quote.repeat(3), this.i)) {
        // Up to two quotes may end the content: `""""` is a quote, then the closing delimiter.
        let run = 0;
        while (this.s[this.i + run] === quote) run++;
        if (run > 5) this.fail('too many quotes at the end of a string');
        this.i += run;
        return out + quote.repeat(run - 3);
      }
      if (!multi && c === '\n') this.fail('a string is not closed on its line');
      if (quote === '"' && c === '\\') {
        const e = this.s[this.i + 1];
        if (ESCAPES[e] !== undefined) { out += ESCAPES[e]; this.i += 2; continue; }
        if (e === 'u' || e === 'U') {
          const len = e === 'u' ? 4 : 8;
          const hex = this.s.slice(this.i + 2, this.i + 2 + len);
          if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) this.fail('a bad \\u escape');
          const code = parseInt(hex, 16);
          if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) this.fail('a \\u escape that is not a character');
          out += String.fromCodePoint(code);
          this.i += 2 + len;
          continue;
        }
        if (multi && /[ \t\r\n]/.test(e ?? '')) {
          // A line-ending backslash trims the newline and the whitespace after it.
          const m = /^\\[ \t]*\r?\n[\s]*/.exec(this.s.slice(this.i));
          if (!m) this.fail('a bad escape');
          this.i += m[0].length;
          continue;
        }
        this.fail('a bad escape');
      }
      out += c;
      this.i++;
    }
  }

  private array(): unknown[] {
    this.i++;
    const out: unknown[] = [];
    for (;;) {
      this.skipBlank(true);
      if (this.s[this.i] === ']') { this.i++; return out; }
      out.push(this.value());
      this.skipBlank(true);
      if (this.s[this.i] === ',') { this.i++; continue; }
      if (this.s[this.i] === ']') { this.i++; return out; }
      this.fail('expected "," or "]" in an array');
    }
  }

  private inlineTable(): Table {
    this.i++;
    const t: Table = {};
    this.skipSpace();
    if (this.s[this.i] === '}') { this.i++; return t; }
    for (;;) {
      this.keyValue(t);
      this.skipSpace();
      if (this.s[this.i] === ',') { this.i++; continue; }
      if (this.s[this.i] === '}') { this.i++; this.closed.add(t); return t; }
      this.fail('expected "," or "}" in an inline table');
    }
  }

  private skipSpace(): void {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }

  /** Spaces, and with `lines` also newlines and comments. */
  private skipBlank(lines: boolean): void {
    for (;;) {
      this.skipSpace();
      const c = this.s[this.i];
      if (c === '#') { while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++; continue; }
      if (lines && (c === '\n' || c === '\r')) { this.i++; continue; }
      return;
    }
  }

  private endOfLine(): void {
    this.skipBlank(false);
    if (this.i < this.s.length && this.s[this.i] !== '\n' && !this.s.startsWith('\r\n', this.i)) this.fail('expected the end of the line');
  }

  private fail(what: string): never {
    throw new TomlError(`line ${this.s.slice(0, this.i).split('\n').length}: ${what}`);
  }
}
