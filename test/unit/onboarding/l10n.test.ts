/**
 * Every user-visible string has an English and a Simplified Chinese version:
 * - each `%key%` of package.json exists in package.nls.json and package.nls.zh-cn.json;
 * - each `vscode.l10n.t(...)` message in src/ (extracted with @vscode/l10n-dev, as `npm run l10n` does)
 *   exists in l10n/bundle.l10n.json and l10n/bundle.l10n.zh-cn.json;
 * - translations keep placeholders ({0}), command links and `${…}` variables, and are not English copies.
 * A string added without a translation fails here by name, with what to do.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';
import { bundleMessage, compareKeys, manifestKeys, placeholderMismatches, unreachablePlaceholders, untranslated } from '../../../src/core/onboarding';

const REPO = path.resolve(__dirname, '../../../..');
const json = (file: string) => JSON.parse(fs.readFileSync(path.join(REPO, file), 'utf8')) as Record<string, unknown>;
const list = (keys: string[]) => keys.map(k => `\n    ${JSON.stringify(k)}`).join('');
/** Strings that read the same in Chinese (product names, codes). */
const SAME_IN_CHINESE = new Set(['MCP', 'MCP Host', 'Claude Desktop', 'HTTP URL', 'URI']);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter(e => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map(e => path.join(e.parentPath, e.name));
}

describe('localization (English and Simplified Chinese)', function () {
  this.timeout(60_000);
  let messages: Record<string, unknown>;

  before(async () => {
    messages = await getL10nJson(sourceFiles(path.join(REPO, 'src')).map(f => ({ contents: fs.readFileSync(f, 'utf8'), extension: path.extname(f) })));
  });

  it('finds the vscode.l10n.t messages of src/', () => {
    assert.ok(Object.keys(messages).length > 50, 'the extraction found the messages');
    assert.equal(bundleMessage(messages['Add MCP Server']), 'Add MCP Server');
  });

  it('manifest: every %key% of package.json is in package.nls.json and package.nls.zh-cn.json', () => {
    const used = manifestKeys(json('package.json'));
    for (const file of ['package.nls.json', 'package.nls.zh-cn.json']) {
      const { missing, unused } = compareKeys(used, Object.keys(json(file)));
      assert.deepEqual(missing, [], `${file} lacks these keys used in package.json:${list(missing)}`);
      if (unused.length) console.warn(`    (${file} has keys package.json no longer uses:${list(unused)})`);
    }
  });

  it('manifest: Chinese strings keep command links, setting links and placeholders, and are translated', () => {
    const en = json('package.nls.json');
    const zh = json('package.nls.zh-cn.json');
    assert.deepEqual(placeholderMismatches(en, zh), []);
    assert.deepEqual(untranslated(en, zh, new Set(Object.keys(en).filter(k => SAME_IN_CHINESE.has(String(en[k]))))), [], 'package.nls.zh-cn.json has English left in');
  });

  it('code: every {n} placeholder of a message can be filled (none nested in other braces)', () => {
    const broken = Object.keys(messages).filter(m => unreachablePlaceholders(m).length);
    assert.deepEqual(broken, [], 'vscode.l10n.t leaves {n} inside other braces unreplaced (e.g. "${input:{0}}"); pass the braced text as the argument instead');
    assert.deepEqual(unreachablePlaceholders('Value for ${input:{0}}'), ['{0}']);
    assert.deepEqual(unreachablePlaceholders('{0} of {1}'), []);
  });

  it('code: every vscode.l10n.t message is in l10n/bundle.l10n.json (run `npm run l10n` after adding strings)', () => {
    const { missing } = compareKeys(Object.keys(messages), Object.keys(json('l10n/bundle.l10n.json')));
    assert.deepEqual(missing, [], `l10n/bundle.l10n.json is out of date; run \`npm run l10n\`. New messages:${list(missing)}`);
  });

  it('code: every vscode.l10n.t message has a Simplified Chinese translation in l10n/bundle.l10n.zh-cn.json', () => {
    const zh = json('l10n/bundle.l10n.zh-cn.json');
    const { missing, unused } = compareKeys(Object.keys(messages), Object.keys(zh));
    assert.deepEqual(missing, [], `add these messages (key = the English text) with their Chinese translation to l10n/bundle.l10n.zh-cn.json:${list(missing)}`);
    if (unused.length) console.warn(`    (l10n/bundle.l10n.zh-cn.json has translations src/ no longer uses:${list(unused)})`);
    assert.deepEqual(placeholderMismatches(messages, zh), [], 'translations must keep {0}-style placeholders, command: links and ${…} variables');
    assert.deepEqual(untranslated(messages, zh, SAME_IN_CHINESE), [], 'these translations are still English');
  });
});
