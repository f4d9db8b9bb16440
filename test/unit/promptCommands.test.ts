/** Prompt command ids, `/prompt` parsing and the argument step loop (pure parts of prompts-as-commands). */
import * as assert from 'node:assert/strict';
import type { PromptArgument } from '@modelcontextprotocol/client';
import { collectArguments, parsePromptCommand, promptCommandId, promptCommandIds, PromptError, type ArgumentStep, type StepAnswer } from '../../src/core/prompts';

const known = [
  { server: 'everything', item: { name: 'args-prompt', arguments: [{ name: 'city', required: true }, { name: 'state' }] } },
  { server: 'everything', item: { name: 'simple-prompt' } },
  { server: 'my.server', item: { name: 'a.b', arguments: [{ name: 'x' }] } },
  { server: 'other', item: { name: 'simple-prompt' } },
];

describe('prompt command ids', () => {
  it('are mcpHost.prompt.<server>.<prompt> with each part sanitised', () => {
    assert.equal(promptCommandId('everything', 'args-prompt'), 'mcpHost.prompt.everything.args-prompt');
    assert.equal(promptCommandId('my.server', 'a b/c'), 'mcpHost.prompt.my_server.a_b_c');
    assert.equal(promptCommandId('', 'ü'), 'mcpHost.prompt._._');
  });

  it('stay unique and independent of the order of servers', () => {
    const a = promptCommandIds([{ server: 's', name: 'a_b' }, { server: 's', name: 'a b' }, { server: 't', name: 'x' }]);
    const b = promptCommandIds([{ server: 't', name: 'x' }, { server: 's', name: 'a b' }, { server: 's', name: 'a_b' }]);
    assert.deepEqual([...a.entries()].sort(), [...b.entries()].sort());
    assert.deepEqual(a.get('mcpHost.prompt.s.a_b'), { server: 's', name: 'a b' });
    assert.deepEqual(a.get('mcpHost.prompt.s.a_b~2'), { server: 's', name: 'a_b' });
  });
});

describe('parsePromptCommand (the @mcp /prompt hook)', () => {
  it('parses server.prompt and key=value arguments, with quotes and escapes', () => {
    assert.deepEqual(parsePromptCommand('/prompt everything.args-prompt city="New York" state=\'N Y\' note=a\\ b eq=x=y'), {
      server: 'everything', prompt: 'args-prompt', args: { city: 'New York', state: 'N Y', note: 'a b', eq: 'x=y' }, positional: [],
    });
    assert.deepEqual(parsePromptCommand('@mcp /prompt s.p "a=b" q="say \\"hi\\""'), { server: 's', prompt: 'p', args: { q: 'say "hi"' }, positional: ['a=b'] });
  });

  it('maps bare words onto declared arguments and resolves dotted names and lone prompt names with the known prompts', () => {
    assert.deepEqual(parsePromptCommand('everything.args-prompt Paris', known).args, { city: 'Paris' });
    assert.deepEqual(parsePromptCommand('everything.args-prompt state=TX Austin', known).args, { state: 'TX', city: 'Austin' });
    assert.deepEqual(parsePromptCommand('args-prompt Lyon France', known), { server: 'everything', prompt: 'args-prompt', args: { city: 'Lyon', state: 'France' }, positional: [] });
    assert.deepEqual(parsePromptCommand('my.server.a.b 1', known), { server: 'my.server', prompt: 'a.b', args: { x: '1' }, positional: [] });
  });

  it('says what is wrong', () => {
    const err = (text: string, k?: typeof known) => { try { parsePromptCommand(text, k); } catch (e) { assert.ok(e instanceof PromptError); return e.message; } assert.fail('no error'); };
    assert.match(err('/prompt'), /Name a prompt/);
    assert.match(err('/prompt nodot'), /"nodot" does not name a prompt/);
    assert.match(err('simple-prompt', known), /Several servers offer a prompt "simple-prompt" \(everything, other\)/);
    assert.match(err('everything.args-prompt a b c', known), /too many values: c/);
    assert.match(err('s.p x="open'), /Unclosed "/);
    assert.match(err('nothing', known), /No running MCP server offers a prompt "nothing"/);
  });
});

describe('collectArguments (argument steps)', () => {
  const args: PromptArgument[] = [{ name: 'department', required: true }, { name: 'name', required: true }, { name: 'note' }];

  /** A scripted UI: answers in order, recording what each step saw. */
  function script(...answers: StepAnswer[]) {
    const seen: ArgumentStep[] = [];
    return { seen, ask: async (s: ArgumentStep) => { seen.push(s); return answers.shift(); } };
  }

  it('asks each argument not given, passes earlier answers and skips empty optional ones', async () => {
    const ui = script({ value: 'Engineering' }, { value: 'Alice' }, { value: '' });
    assert.deepEqual(await collectArguments(args, {}, ui.ask), { department: 'Engineering', name: 'Alice' });
    assert.deepEqual(ui.seen.map(s => [s.argument.name, s.index, s.total, s.required, s.earlier]), [
      ['department', 0, 3, true, {}], ['name', 1, 3, true, { department: 'Engineering' }], ['note', 2, 3, false, { department: 'Engineering', name: 'Alice' }],
    ]);
  });

  it('does not ask for given arguments and hands them to later steps as context', async () => {
    const ui = script({ value: 'Bob' }, { value: 'n' });
    assert.deepEqual(await collectArguments(args, { department: 'Sales' }, ui.ask), { department: 'Sales', name: 'Bob', note: 'n' });
    assert.deepEqual(ui.seen.map(s => [s.argument.name, s.index, s.total, s.earlier]), [['name', 0, 2, { department: 'Sales' }], ['note', 1, 2, { department: 'Sales', name: 'Bob' }]]);
  });

  it('refuses an empty required answer, goes back with the earlier answer prefilled, and cancels', async () => {
    const ui = script({ value: '' }, { value: 'Sales' }, 'back', { value: 'Support' }, { value: 'Kim' }, undefined);
    assert.equal(await collectArguments(args, {}, ui.ask, { name: 'Default' }), undefined);
    assert.deepEqual(ui.seen.map(s => [s.argument.name, s.initial, s.earlier]), [
      ['department', undefined, {}], ['department', undefined, {}], ['name', 'Default', { department: 'Sales' }],
      ['department', 'Sales', {}], ['name', 'Default', { department: 'Support' }], ['note', undefined, { department: 'Support', name: 'Kim' }],
    ]);
  });

  it('treats a given empty value as "left out": not asked, not sent, not context', async () => {
    const ui = script({ value: 'Eng' }, { value: 'Al' });
    assert.deepEqual(await collectArguments(args, { note: '' }, ui.ask), { department: 'Eng', name: 'Al' });
    assert.deepEqual(ui.seen.map(s => [s.argument.name, s.total, s.earlier]), [['department', 2, {}], ['name', 2, { department: 'Eng' }]]);
  });

  it('ignores back on the first step', async () => {
    const ui = script('back', { value: 'x' });
    assert.deepEqual(await collectArguments([{ name: 'a', required: true }], {}, ui.ask), { a: 'x' });
    assert.equal(ui.seen.length, 2);
  });
});
