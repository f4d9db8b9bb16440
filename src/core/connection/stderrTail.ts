/**
 * The last lines a local server wrote on stderr: when it does not start, its reason is usually there
 * (`missing API_KEY`, `Invalid values: Argument: channel …`), and an embedder shows it with the failure.
 * Kept raw and few (the transport already cut each line), so a flood of stderr costs a few pointers;
 * cleaned when read, since they are the server's text: secrets redacted, no escapes, controls or bidi
 * characters, no `[label](target)` links (a VS Code notification would open them), one bounded line each.
 */
import { redact } from '../logger';
import { plainText, unlinked } from '../text/plainText';

const KEEP = 5;
const MAX_LINE = 300;

export class StderrTail {
  private lines: string[] = [];

  /** Chains onto `transport`'s stderr callback: every line it reports is kept too. */
  follow(transport: { onstderr?: (line: string) => void }): void {
    const previous = transport.onstderr;
    transport.onstderr = line => { this.push(line); previous?.(line); };
  }

  push(line: string): void {
    if (!line.trim()) return;
    // A line seen already moves to the end: a server started twice (an era probe, then the start) repeats itself.
    const seen = this.lines.indexOf(line);
    if (seen >= 0) this.lines.splice(seen, 1);
    this.lines.push(line);
    if (this.lines.length > KEEP) this.lines.shift();
  }

  clear(): void { this.lines = []; }

  /** The lines, oldest first, cleaned for showing; `secrets` are redacted. */
  read(secrets: readonly string[]): string[] {
    // Redacted again once cleaned: a secret printed with invisible characters or escapes inside it is whole only then.
    const shown = this.lines.map(l => plainText(unlinked(redact(plainText(redact(l, secrets), { singleLine: true }), secrets)), { maxLength: MAX_LINE })).filter(l => l.length > 0);
    return shown.filter((l, i) => shown.indexOf(l) === i);
  }
}
