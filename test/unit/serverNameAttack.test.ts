/**
 * Found by the outside attack on issue 28: a server's name reaches notifications ("Could not sign in to MCP
 * server "{0}"", "needs you to sign in") that render `[label](command:…)` as a live link, and pickers. A
 * cloned repository's settings or another host's discovered file chooses that name, so a name that writes a
 * link or hides text is refused where declarations are read, and the other servers keep working.
 */
import * as assert from 'node:assert/strict';
import { parseServers, planForm } from '../../src/core';

describe('server names cannot write a link or hide text (issue 28.1)', () => {
  it('ATTACKER: a name that writes a command link, also with invisible or control characters between "]" and "(", is refused with the reason; the others are read', () => {
    const server = { command: 'node', args: ['x.js'] };
    const hostile = [
      '[Open the terminal](command:workbench.action.terminal.new)',
      '[Docs] (https://evil.example)'.replace(' ', ''),
      '[x]\u200b(command:workbench.action.terminal.new)',
      '[x]\n(command:workbench.action.terminal.new)',
      '[x]\u001b[2K(command:workbench.action.terminal.new)',
    ];
    const parsed = parseServers({ good: server, 'my server (dev)': server, '[beta] tools': server, 'git\u200bhub': server, ...Object.fromEntries(hostile.map(n => [n, server])) });
    assert.deepEqual(parsed.servers.map(s => s.name).sort(), ['[beta] tools', 'git\u200bhub', 'good', 'my server (dev)'], 'brackets and parentheses apart are fine; hidden characters are cleaned where the name is shown');
    for (const name of hostile) {
      const problems = parsed.problems.filter(p => p.server === name);
      assert.equal(problems.length, 1, JSON.stringify(name));
      assert.equal(problems[0].severity, 'error');
      assert.match(problems[0].message, /cannot contain "\]\(" \(with or without characters between them\)/);
      assert.ok(!problems[0].message.includes(name), 'the message does not repeat the name');
    }
  });
});

describe('a form the host cannot show says why without a link (issue 28.1)', () => {
  it('ATTACKER: a property name that writes a command link, hidden text or a line break comes back in the reason as one plain line with no link', () => {
    const names = ['[Reinstall it](command:workbench.action.terminal.new)', '[x]\u200b(command:y)', 'a\nb\u202e'];
    for (const name of names) {
      for (const prop of [{ type: 'object' }, { type: 'string', minLength: 5, maxLength: 1 }, { type: 'string', format: '[f](command:z)' }]) {
        const plan = planForm({ type: 'object', properties: { [name]: prop } });
        assert.equal(plan.ok, false);
        const reason = plan.ok ? '' : plan.reason;
        // VS Code's notification link syntax (src/vs/base/common/linkedText.ts): [label](target) written together.
        assert.doesNotMatch(reason, /\[[^\]]*\]\(/, JSON.stringify(reason));
        assert.doesNotMatch(reason, /[\n\u200b\u202e]/, JSON.stringify(reason));
      }
    }
  });
});
