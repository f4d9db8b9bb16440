/**
 * Elicitation in a real VS Code: server-everything's trigger-elicitation-request (every field type)
 * and trigger-url-elicitation, plus the eliciting fixture for completion notifications, -32042 and
 * edge cases. The flows are driven like a keyboard user would: workbench quick-input commands to move,
 * accept, go back and close; typed text goes into the InputBox through the test hook `api.testing`
 * (the extension host cannot type into the workbench).
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../../src/core';
import type { McpHostTestHooks } from '../hooks/testHooks';
import { scriptedLm, selectItems, setSetting, waitFor } from './helpers';
import { ask, requestsAtLeast, texts, toolResultOf, pickScriptedModel } from './chatDriver';
import { api as mcpHostApi, type TestApi } from './mcpHost';
import { startLoopbackPage, type LoopbackPage } from './loopbackPage';

const repo = path.resolve(__dirname, '../../..');
const everythingBin = path.join(repo, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const elicitingFixture = path.join(repo, 'out/test/fixtures/servers/eliciting.js');
const nodeServer = (script: string) => ({ command: process.execPath, args: [script] });

type Item = vscode.QuickPickItem;
type Pick = vscode.QuickPick<Item>;

let api: TestApi;
let hooks: McpHostTestHooks;
let page: LoopbackPage;
let lastInput: vscode.QuickInput | undefined;

function isPick(i: vscode.QuickInput): i is Pick { return 'items' in i; }
function isBox(i: vscode.QuickInput): i is vscode.InputBox { return 'prompt' in i && !('items' in i); }

/** The next input a flow shows (a new object per step). */
async function next(ms = 10_000): Promise<vscode.QuickInput> {
  const input = await waitFor(() => { const a = hooks.quickInput.active; return a && a !== lastInput ? a : undefined; }, ms, 'the next quick input');
  lastInput = input;
  // No wait for rendering: show() sends the whole input (title, items, value) in one message, and the
  // commands a test sends next reach the workbench after it on the same ordered channel. A value the
  // test sets needs no wait either: on accept the flow reads the value the extension host holds.
  return input;
}
async function nextBox(): Promise<vscode.InputBox> {
  const i = await next();
  assert.ok(isBox(i), `expected an InputBox, got a QuickPick titled ${i.title}`);
  return i;
}
async function nextPick(ms?: number): Promise<Pick> {
  const i = await next(ms);
  assert.ok(isPick(i), `expected a QuickPick, got an InputBox titled ${i.title}`);
  return i;
}

const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');

async function type(box: vscode.InputBox, text: string): Promise<void> {
  box.value = text;
  await accept();
}

/** Moves the highlight with workbench.action.quickOpenSelectNext until `label` is active, then accepts. */
async function choose(qp: Pick, label: RegExp): Promise<void> {
  for (let i = 0; i <= qp.items.length + 1; i++) {
    if (qp.activeItems[0] && label.test(qp.activeItems[0].label)) { await accept(); return; }
    const before = qp.activeItems[0];
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await waitFor(() => qp.activeItems[0] !== before, 2000, 'the highlight to move');
  }
  assert.fail(`no item matching ${label} in ${qp.items.map(i => i.label).join(' | ')}`);
}

function labels(qp: Pick): string[] { return qp.items.filter(i => i.kind !== vscode.QuickPickItemKind.Separator).map(i => i.label); }

/** The ElicitResult server-everything echoes as "Raw result: {…}". */
function rawResult(r: CallToolResult): unknown {
  const text = r.content.map(c => (c.type === 'text' ? c.text : '')).join('');
  const at = text.indexOf('Raw result: ');
  assert.ok(at >= 0, text);
  return JSON.parse(text.slice(at + 'Raw result: '.length));
}
const fixtureJson = (r: CallToolResult) => JSON.parse((r.content[0] as { text: string }).text);

function server(name: string): ServerConnection { return api.host.require(name); }

describe('elicitation', function () {
  this.timeout(60_000);

  before(async () => {
    api = await mcpHostApi();
    assert.ok(api.testing, 'the API exposes test hooks');
    hooks = api.testing;
    page = await startLoopbackPage();
    await setSetting('mcpHost.servers', { everything: nodeServer(everythingBin), fixture: nodeServer(elicitingFixture) });
    await api.reload();
    await waitFor(() => server('everything').tool('trigger-elicitation-request') && server('fixture').tool('needs-url'), 15_000, 'elicitation tools');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await setSetting('mcpHost.servers', undefined);
    await api.reload();
    await page?.close();
  });
  beforeEach(() => {
    page.hits.length = 0;
    lastInput = hooks.quickInput.active;
  });
  // A failed test may leave its flow open; closing it cancels that flow so the next test starts clean.
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));

  describe('form mode (server-everything trigger-elicitation-request)', () => {
    it('asks every field type step by step, rejects invalid input, and sends the typed and picked values', async () => {
      const call = server('everything').callTool('trigger-elicitation-request', {});

      const name = await nextBox();
      assert.match(name.title ?? '', /MCP server "Everything Reference Server \(everything\)" asks: Please provide inputs for the following fields:/);
      assert.deepEqual([name.step, name.totalSteps], [1, 14]);
      assert.match(name.prompt ?? '', /^String — Your full, legal name/);
      await type(name, '');
      await waitFor(() => name.validationMessage === 'String is required.', 5000, 'required message');
      assert.equal(hooks.quickInput.active, name, 'an empty required field keeps the step open');
      await type(name, 'Ada Lovelace');

      const check = await nextPick();
      assert.deepEqual(labels(check), ['Yes', 'No', '$(debug-step-over) Skip']);
      assert.match(check.placeholder ?? '', /Boolean \(optional\) — Agree to the terms/);
      await choose(check, /^Yes$/);

      const firstLine = await nextBox();
      assert.equal(firstLine.value, 'It was a dark and stormy night.', 'default prefilled');
      await accept();

      const email = await nextBox();
      assert.match(email.prompt ?? '', /\[email address\]/);
      await type(email, 'ada@');
      await waitFor(() => /email address like/.test(String(email.validationMessage)), 5000, 'email message');
      assert.equal(hooks.quickInput.active, email);
      await type(email, 'ada@example.com');

      await type(await nextBox(), 'https://ada.example.com/');
      const birthdate = await nextBox();
      await type(birthdate, '1815-02-30');
      await waitFor(() => /YYYY-MM-DD/.test(String(birthdate.validationMessage)), 5000, 'date message');
      await type(birthdate, '1815-12-10');

      const integer = await nextBox();
      assert.equal(integer.value, '42');
      await type(integer, '7.5');
      await waitFor(() => /whole number/.test(String(integer.validationMessage)), 5000, 'integer message');
      await type(integer, '101');
      await waitFor(() => /≤ 100/.test(String(integer.validationMessage)), 5000, 'maximum message');
      await type(integer, '7');

      const number = await nextBox();
      assert.equal(number.value, '3.14');
      await type(number, '2.5');

      const friend = await nextPick();
      assert.equal(friend.activeItems[0]?.label, 'Monica', 'default is active');
      await choose(friend, /^Joey$/);

      const instruments = await nextPick();
      assert.equal(instruments.canSelectMany, true);
      assert.deepEqual(instruments.selectedItems.map(i => i.label), ['Guitar']);
      await selectItems(instruments, instruments.items.filter(i => i.label !== 'Bass'));
      await accept();
      await waitFor(() => /at most 3/.test(instruments.placeholder ?? ''), 5000, 'maxItems message');
      assert.equal(hooks.quickInput.active, instruments);
      await selectItems(instruments, instruments.items.filter(i => i.label === 'Piano' || i.label === 'Drums'));
      await accept();

      const hero = await nextPick();
      assert.deepEqual(labels(hero).slice(0, 3), ['Superman', 'Green Lantern', 'Wonder Woman']);
      await choose(hero, /^Wonder Woman$/);

      const fish = await nextPick();
      assert.deepEqual(fish.selectedItems.map(i => i.label), ['Tuna']);
      await selectItems(fish, fish.items.filter(i => i.label === 'Salmon' || i.label === 'Trout'));
      await accept();

      const pet = await nextPick();
      assert.deepEqual(labels(pet).slice(0, 5), ['Cats', 'Dogs', 'Birds', 'Fish', 'Reptiles'], 'legacy enumNames as labels');
      await choose(pet, /^Dogs$/);

      const review = await nextPick();
      assert.deepEqual([review.step, review.totalSteps], [14, 14]);
      assert.match(review.activeItems[0]?.label ?? '', /Submit/);
      const summary = Object.fromEntries(review.items.filter(i => /^\$\(edit\)/.test(i.label)).map(i => [i.label.replace('$(edit) ', ''), i.description]));
      assert.equal(summary['Titled Single Select Enum'], 'Wonder Woman');
      assert.equal(summary['Titled Multiple Select Enum'], 'Salmon, Trout');
      await accept();

      assert.deepEqual(rawResult(await call), {
        action: 'accept',
        content: {
          name: 'Ada Lovelace', check: true, firstLine: 'It was a dark and stormy night.', email: 'ada@example.com', homepage: 'https://ada.example.com/',
          birthdate: '1815-12-10', integer: 7, number: 2.5, untitledSingleSelectEnum: 'Joey', untitledMultipleSelectEnum: ['Piano', 'Drums'],
          titledSingleSelectEnum: 'hero-3', titledMultipleSelectEnum: ['fish-2', 'fish-3'], legacyTitledEnum: 'pet-2',
        },
      });
    });

    it('goes back a step, changes an answer from the review, skips optional fields and sends untouched defaults', async () => {
      const call = server('everything').callTool('trigger-elicitation-request', {});
      await type(await nextBox(), 'Grace Hopper');
      const check = await nextPick();
      assert.match(check.activeItems[0]?.label ?? '', /Skip/, 'an optional field without default starts on Skip');
      await accept();
      const firstLine = await nextBox();
      assert.equal(firstLine.step, 3);
      await vscode.commands.executeCommand('workbench.action.quickInputBack');
      const checkAgain = await nextPick();
      assert.equal(checkAgain.step, 2);
      await choose(checkAgain, /^No$/);
      for (let step = 3; step <= 13; step++) {
        const input = await next();
        assert.equal(input.step, step);
        await accept(); // defaults as they are; optional text fields left empty are skipped
      }
      const review = await nextPick();
      await choose(review, /Integer$/);
      const integer = await nextBox();
      assert.equal(integer.step, 7);
      await type(integer, '99');
      const reviewAgain = await nextPick();
      assert.equal(reviewAgain.step, 14, 'changing one answer returns to the review');
      assert.equal(reviewAgain.items.find(i => /Integer$/.test(i.label))?.description, '99');
      await accept();

      assert.deepEqual(rawResult(await call), {
        action: 'accept',
        content: {
          name: 'Grace Hopper', check: false, firstLine: 'It was a dark and stormy night.', integer: 99, number: 3.14,
          untitledSingleSelectEnum: 'Monica', untitledMultipleSelectEnum: ['Guitar'], titledSingleSelectEnum: 'hero-1',
          titledMultipleSelectEnum: ['fish-1'], legacyTitledEnum: 'pet-1',
        },
      });
    });

    it('declines from the review step', async () => {
      const call = server('everything').callTool('trigger-elicitation-request', {});
      await type(await nextBox(), 'Someone');
      for (let step = 2; step <= 13; step++) { await next(); await accept(); }
      await choose(await nextPick(), /Decline/);
      assert.deepEqual(rawResult(await call), { action: 'decline' });
    });

    it('closing the flow cancels', async () => {
      const call = server('everything').callTool('trigger-elicitation-request', {});
      await nextBox();
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.deepEqual(rawResult(await call), { action: 'cancel' });
    });
  });

  describe('form edge cases (eliciting fixture)', () => {
    it('warns on a field that looks like a secret and masks it', async () => {
      const schema = { type: 'object', properties: { apiKey: { type: 'string', title: 'API key' } }, required: ['apiKey'] };
      const call = server('fixture').callTool('ask-form', { schema: JSON.stringify(schema), message: 'Connect your account' });
      const box = await nextBox();
      assert.equal(box.password, true);
      assert.match(box.title ?? '', /Connect your account/);
      assert.match(box.prompt ?? '', /^⚠ This looks like a secret \(password, token or key\)\. MCP servers must not ask for secrets in a form; answer only if you trust "Eliciting Fixture \(fixture\)"\. — API key/);
      await type(box, 'abc');
      const review = await nextPick();
      const msg = box.validationMessage as vscode.InputBoxValidationMessage;
      assert.equal(msg.severity, vscode.InputBoxValidationSeverity.Warning, 'the warning stays as a non-blocking validation message');
      assert.match(msg.message, /looks like a secret/);
      assert.equal(review.items.find(i => /API key$/.test(i.label))?.description, '•••', 'masked in the review');
      await accept();
      assert.deepEqual(fixtureJson(await call), { action: 'accept', content: { apiKey: 'abc' } });
    });

    it('shows the server\'s message, field texts and choices without what the one cleaner removes, nor icons', async () => {
      // Attacker: a tag-character payload, variation selectors, a bidi override, a Hangul filler and codicon syntax.
      const hide = (s: string) => `${s}\u{E0069}\u{E0067}\u{E006E}\uFE0F\u{E0101}\u202E\u3164\u034F`;
      const schema = { type: 'object', properties: { pick: { type: 'string', title: hide('Branch'), description: hide('where to push'),
        oneOf: [{ const: 'main', title: `$(check) ${hide('Safe')}` }, { const: hide('dev'), title: hide('Dev') }] } }, required: ['pick'] };
      const call = server('fixture').callTool('ask-form', { schema: JSON.stringify(schema), message: hide('Choose a branch') });
      const pick = await nextPick();
      const shown = [pick.title ?? '', pick.placeholder ?? '', ...pick.items.flatMap(i => [i.label, i.description ?? ''])];
      for (const text of shown) assert.ok(!/[\p{Default_Ignorable_Code_Point}\p{Cf}]/u.test(text), JSON.stringify(text));
      assert.match(pick.title ?? '', /asks: Choose a branch$/);
      assert.match(pick.placeholder ?? '', /^Branch — where to push$/);
      assert.deepEqual(pick.items.map(i => i.label), ['\\$(check) Safe', 'Dev'], 'no icon drawn from a server\'s text');
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.deepEqual(fixtureJson(await call), { action: 'cancel' });
    });

    it('declines a schema it cannot show, without showing anything', async () => {
      const schema = { type: 'object', properties: { code: { type: 'string', minLength: 5, maxLength: 2 } } };
      const before = hooks.quickInput.active;
      const r = await server('fixture').callTool('ask-form', { schema: JSON.stringify(schema) });
      assert.deepEqual(fixtureJson(r), { action: 'decline' });
      assert.equal(hooks.quickInput.active, before, 'no input was shown');
    });

    it('a nested object schema is refused by the SDK before the UI; the host keeps running', async () => {
      const schema = { type: 'object', properties: { address: { type: 'object', properties: { street: { type: 'string' } } } } };
      const r = await server('fixture').callTool('ask-form', { schema: JSON.stringify(schema) });
      assert.equal(r.isError, true);
      assert.equal(server('fixture').state, 'running');
    });
  });

  describe('URL mode', () => {
    it('shows the full URL and its domain and warns about a look-alike domain (server-everything)', async () => {
      const url = 'https://xn--pypal-4ve.com/signin?next=%2Fhome';
      const call = server('everything').callTool('trigger-url-elicitation', { url, elicitationId: 'it-url-1', message: 'Sign in to continue.' });
      const qp = await nextPick();
      assert.match(qp.title ?? '', /MCP server "Everything Reference Server \(everything\)" asks you to open a link: Sign in to continue\./);
      assert.match(qp.placeholder ?? '', /xn--pypal-4ve\.com/);
      const items = labels(qp);
      assert.ok(items.some(l => /\$\(warning\) The domain mixes alphabets/.test(l)), items.join('\n'));
      assert.ok(items.some(l => /\$\(warning\) The domain is internationalized/.test(l)));
      const open = qp.items.find(i => /^\$\(link-external\) Open /.test(i.label))!;
      assert.match(open.label, /Open xn--pypal-4ve\.com \(displayed as "p\u0430ypal\.com"\)/);
      assert.equal(open.detail, url, 'the full URL');
      await choose(qp, /The domain mixes alphabets/); // a warning line: the step shows again
      await choose(await nextPick(), /Decline/);
      assert.deepEqual(rawResult(await call), { action: 'decline' });
    });

    it('opens the page in the browser only after consent, then waits for completion (server-everything)', async () => {
      const url = `${page.base}/signin?next=%2Fhome&state=a+b`;
      const call = server('everything').callTool('trigger-url-elicitation', { url, elicitationId: 'it-url-open', message: 'Sign in to continue.' });
      const qp = await nextPick();
      assert.equal(qp.items.find(i => /^\$\(link-external\) Open /.test(i.label))?.detail, url);
      assert.deepEqual(page.hits, [], 'nothing is opened before consent');
      await choose(qp, /^\$\(link-external\) Open/);
      assert.deepEqual(rawResult(await call), { action: 'accept' });
      await waitFor(() => page.hits.length > 0, 15_000, 'the browser to load the page');
      assert.equal(page.hits.length, 1, page.hits.join());
      const hit = new URL(page.hits[0], page.base);
      // VS Code's opener hands the browser /signin?next=/home (it decodes %2F in the query): the same values, not the same text.
      assert.deepEqual([hit.pathname, hit.searchParams.get('next'), hit.searchParams.get('state')], ['/signin', '/home', 'a b']);
      assert.ok(hooks.elicitation.waiting().some(w => w.server === 'everything' && w.elicitationId === 'it-url-open'), 'waits for notifications/elicitation/complete');
    });

    it('declines and cancels (server-everything)', async () => {
      let call = server('everything').callTool('trigger-url-elicitation', { url: `${page.base}/declined`, elicitationId: 'it-url-2' });
      await choose(await nextPick(), /Decline/);
      assert.deepEqual(rawResult(await call), { action: 'decline' });
      call = server('everything').callTool('trigger-url-elicitation', { url: `${page.base}/cancelled`, elicitationId: 'it-url-3' });
      await nextPick();
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.deepEqual(rawResult(await call), { action: 'cancel' });
      assert.deepEqual(page.hits, []);
    });

    it('finishes waiting when the server sends notifications/elicitation/complete (fixture)', async () => {
      const call = server('fixture').callTool('ask-url', { url: `${page.base}/pay`, elicitationId: 'pay-1', completeAfterMs: 1500 });
      await choose(await nextPick(), /^\$\(link-external\) Open 127\.0\.0\.1$/);
      assert.deepEqual(fixtureJson(await call), { action: 'accept', elicitationId: 'pay-1' });
      assert.ok(hooks.elicitation.waiting().some(w => w.elicitationId === 'pay-1'));
      await waitFor(() => !hooks.elicitation.waiting().some(w => w.elicitationId === 'pay-1'), 10_000, 'the completion notification');
      await waitFor(() => page.hits.includes('/pay'), 15_000, 'the browser to load the page');
    });

    it('a stray Enter does not open the link: Cancel is the active choice', async () => {
      const call = server('fixture').callTool('ask-url', { url: `${page.base}/stray` });
      const qp = await nextPick();
      assert.match(qp.activeItems[0]?.label ?? '', /^\$\(close\) Cancel$/);
      await accept();
      assert.equal(fixtureJson(await call).action, 'cancel');
      assert.deepEqual(page.hits, []);
    });

    it('refuses, without showing it, a URL that is not https (or http to this machine) or that hides its host; the server gets "decline"', async () => {
      for (const url of ['file:///etc/passwd', 'vscode://some.other-extension/run?x=1', 'search-ms:query=x', 'http://evil.example/login', 'https://accounts.example.com@evil.example/', 'javascript:alert(1)']) {
        const before = hooks.quickInput.active;
        const call = server('fixture').callTool('ask-url', { url });
        // The server's answer ends the race; a consent appearing first (the old behaviour) fails the test.
        const shown = waitFor(() => hooks.quickInput.active !== before ? hooks.quickInput.active : undefined, 20_000, 'a consent').then(() => 'shown' as const, () => 'not shown' as const);
        const outcome = await Promise.race([call, shown]);
        assert.notEqual(outcome, 'shown', `${url} was put in front of the user`);
        assert.equal(fixtureJson(outcome as CallToolResult).action, 'decline', url);
      }
    });
  });

  // The product's path: the model calls a tool through @mcp, the server answers -32042, the user
  // consents, the browser opens the page, and the call is retried; the model gets the retried result.
  describe('-32042 URL elicitation required, through @mcp with the scripted model', () => {
    before(async () => {
      await setSetting('mcpHost.tools.autoApprove', ['fixture/needs-url']);
      await pickScriptedModel();
    });
    beforeEach(() => scriptedLm.reset());
    after(() => setSetting('mcpHost.tools.autoApprove', undefined));

    it('shows the consent, opens the page, retries by itself on the completion notification; the model gets the result', async () => {
      await scriptedLm.script([{ toolCall: { name: 'fixture_needs-url', input: { key: 'chat-auto', url: `${page.base}/grant?key=chat-auto`, completeAfterMs: 3000 }, callId: 'n1' } }], 'Authorized.');
      await ask('@mcp authorize the fixture');
      // A chat turn comes first (the model's request, the tool call, its -32042): more than one input's wait.
      const consent = await nextPick(30_000);
      assert.deepEqual([consent.step, consent.totalSteps], [1, 2]);
      assert.match(consent.title ?? '', /MCP server "Eliciting Fixture \(fixture\)" asks you to open a link: Authorize the fixture to continue\./);
      assert.equal(consent.items.find(i => /^\$\(link-external\) Open /.test(i.label))?.detail, `${page.base}/grant?key=chat-auto`);
      await choose(consent, /^\$\(link-external\) Open 127\.0\.0\.1$/);
      // No accept here: the completion notification retries. The retry step shows, busy, until it comes —
      // unless it came while the consent was still being answered (a loaded editor), then the call goes again at once.
      const requests = requestsAtLeast(2, 30_000);
      let answered = false;
      void requests.then(() => { answered = true; }, () => undefined);
      const retry = await waitFor(() => answered ? 'answered' : (hooks.quickInput.active !== lastInput ? hooks.quickInput.active : undefined), 30_000, 'the retry step or the retried call');
      if (retry !== 'answered') {
        lastInput = retry;
        assert.ok(isPick(retry));
        assert.deepEqual([retry.step, retry.totalSteps, retry.busy], [2, 2, true]);
        assert.match(retry.items[0].label, /Retry the tool call/);
      }
      const result = toolResultOf((await requests)[1], 'n1');
      assert.deepEqual([result.isError, texts(result)], [false, ['authorized']]);
      await waitFor(() => page.hits.includes('/grant?key=chat-auto'), 15_000, 'the browser to load the page');
    });

    it('a completion the server sends while its consent is still shown is kept: opening the link retries at once', async () => {
      // The notification comes 300 ms after the error (after it on the same pipe), while the consent is still unanswered.
      await scriptedLm.script([{ toolCall: { name: 'fixture_needs-url', input: { key: 'chat-early', url: `${page.base}/grant?key=chat-early`, completeAfterMs: 300 }, callId: 'n0' } }], 'Authorized.');
      await ask('@mcp authorize the fixture early');
      const consent = await nextPick(30_000);
      await new Promise(r => setTimeout(r, 1500));
      await choose(consent, /^\$\(link-external\) Open 127\.0\.0\.1$/);
      const result = toolResultOf((await requestsAtLeast(2, 30_000))[1], 'n0');
      assert.deepEqual([result.isError, texts(result)], [false, ['authorized']]);
    });

    it('retries when the user says so (no completion notification); the model gets the result', async () => {
      await scriptedLm.script([{ toolCall: { name: 'fixture_needs-url', input: { key: 'chat-manual', url: `${page.base}/grant?key=chat-manual`, notify: false }, callId: 'n2' } }], 'Authorized.');
      await ask('@mcp authorize the fixture again');
      await choose(await nextPick(), /^\$\(link-external\) Open 127\.0\.0\.1$/);
      await choose(await nextPick(), /Retry the tool call/);
      const result = toolResultOf((await requestsAtLeast(2, 30_000))[1], 'n2');
      assert.deepEqual([result.isError, texts(result)], [false, ['authorized']]);
      await waitFor(() => page.hits.includes('/grant?key=chat-manual'), 15_000, 'the browser to load the page');
    });

    it('declining sends the model an error result and opens nothing', async () => {
      await scriptedLm.script([{ toolCall: { name: 'fixture_needs-url', input: { key: 'chat-declined', url: `${page.base}/grant?key=chat-declined`, notify: false, completeAfterMs: 60_000 }, callId: 'n3' } }], 'Not authorized.');
      await ask('@mcp authorize, or not');
      await choose(await nextPick(), /Decline/);
      const result = toolResultOf((await requestsAtLeast(2, 30_000))[1], 'n3');
      assert.equal(result.isError, true);
      assert.match(texts(result).join('\n'), /Authorization required/);
      assert.deepEqual(page.hits, []);
    });
  });

  describe('-32042 URL elicitation required (callWithUrlElicitation, for other callers)', () => {
    it('a required URL that is not safe to open is never shown: the -32042 error goes back to the caller', async () => {
      const conn = server('fixture');
      const before = hooks.quickInput.active;
      const call = hooks.elicitation.callWithUrlElicitation(() => conn.callTool('needs-url', { key: 'unsafe', url: 'vscode://some.other-extension/x', notify: false }));
      await assert.rejects(call, (e: unknown) => (e as { code?: number }).code === -32042);
      assert.equal(hooks.quickInput.active, before, 'no consent was shown');
    });

    it('declining rethrows the -32042 error to the caller', async () => {
      const conn = server('fixture');
      const call = hooks.elicitation.callWithUrlElicitation(() => conn.callTool('needs-url', { key: 'declined', notify: false, completeAfterMs: 60_000 }));
      await choose(await nextPick(), /Decline/);
      await assert.rejects(call, (e: unknown) => (e as { code?: number }).code === -32042);
    });
  });
});
