/** Server text in QuickPick labels, descriptions and details. */
import { plainText } from '../core';

/**
 * One clean line (the core's `plainText`) with `$(icon)` syntax escaped: QuickPick items render
 * codicons, so a server could otherwise draw a check mark or an icon next to its own text.
 */
export function pickText(text: string, maxLength = 500): string {
  return plainText(text, { singleLine: true, maxLength }).replace(/\$\(/g, '\\$(');
}
