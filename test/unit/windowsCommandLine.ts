/**
 * How Windows reads a command line, modelled for tests that run on any platform: cmd.exe's two parse
 * phases (percent expansion, then quotes/carets/operators) and the C runtime's argv splitting. The
 * model errs towards the attacker: an undefined `%NAME%` is expanded when a variable of that name exists
 * in `vars`, and any `&`, `|`, `<` or `>` outside quotes counts as a second command.
 */

/** Phase 1 of cmd.exe (command-line context): `%NAME%` and `%NAME:~a,b%` expansion; undefined names stay. */
export function expandPercent(line: string, vars: Record<string, string>): string {
  const lookup = (name: string) => Object.entries(vars).find(([k]) => k.toUpperCase() === name.toUpperCase())?.[1];
  let out = '';
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c !== '%') { out += c; i++; continue; }
    const end = line.indexOf('%', i + 1);
    if (end < 0) { out += line.slice(i); break; }
    const name = line.slice(i + 1, end);
    const sub = /^([^:]+):~(-?\d*),?(-?\d*)$/.exec(name);
    const value = sub ? lookup(sub[1]) : name ? lookup(name) : undefined;
    if (value === undefined) { out += '%'; i++; continue; }
    if (sub) {
      const start = sub[2] ? Number(sub[2]) : 0;
      // cmd reads an empty length as "nothing": %cd:~,% is the empty string.
      const length = sub[3] ? Number(sub[3]) : name.includes(',') ? 0 : undefined;
      out += length === undefined ? value.slice(start) : value.slice(start, start + length);
    } else {
      out += value;
    }
    i = end + 1;
  }
  return out;
}

/** Phase 2: quotes toggle, carets escape outside quotes; returns the text and any operators found outside quotes. */
export function parseOperators(line: string): { text: string; operators: string[]; openQuote: boolean } {
  let text = '';
  const operators: string[] = [];
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') { quoted = !quoted; text += c; continue; }
    if (!quoted && c === '^') { text += line[++i] ?? ''; continue; }
    if (!quoted && '&|<>'.includes(c)) operators.push(c);
    text += c;
  }
  return { text, operators, openQuote: quoted };
}

/** The C runtime's argv splitting (MSVC 2008 and later: `""` inside quotes is a literal quote). */
export function splitArgv(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (i >= line.length) break;
    let cur = '';
    let quoted = false;
    while (i < line.length && (quoted || (line[i] !== ' ' && line[i] !== '\t'))) {
      const c = line[i];
      if (c === '\\') {
        let n = 0;
        while (line[i] === '\\') { n++; i++; }
        if (line[i] === '"') {
          cur += '\\'.repeat(Math.floor(n / 2));
          if (n % 2) { cur += '"'; i++; }
        } else {
          cur += '\\'.repeat(n);
        }
        continue;
      }
      if (c === '"') {
        if (quoted && line[i + 1] === '"') { cur += '"'; i += 2; continue; }
        quoted = !quoted;
        i++;
        continue;
      }
      cur += c;
      i++;
    }
    args.push(cur);
  }
  return args;
}

/** The first token of a phase-2 text (quoted or not) and the rest, as a batch file's `%*` sees it. */
export function firstToken(text: string): { token: string; rest: string } {
  const t = text.trimStart();
  const end = t.startsWith('"') ? t.indexOf('"', 1) + 1 : t.search(/[ \t]|$/);
  return { token: t.slice(0, end), rest: t.slice(end).replace(/^[ \t]+/, '') };
}
