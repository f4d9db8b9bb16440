import * as assert from 'node:assert/strict';
import { inScope, parseScope, parseToolSets } from '../../src/core';

describe('tools: request scope (#server, /use, tool sets)', () => {
  const servers = ['github', 'jira', 'everything'];
  const sets = { review: ['github/get_pull_request', 'github/create_pull_request_review'], tracker: ['jira/*'] };

  it('reads leading #server and #toolSet words and narrows to their tools', () => {
    const s = parseScope('#github #tracker  fix the login bug', servers, sets);
    assert.deepEqual(s.names, ['github', 'tracker']);
    assert.equal(s.prompt, 'fix the login bug');
    assert.ok(inScope(s, 'github', 'list_issues') && inScope(s, 'jira', 'anything'));
    assert.ok(!inScope(s, 'everything', 'echo'));
    const r = parseScope('#review look at PR 3', servers, sets);
    assert.ok(inScope(r, 'github', 'get_pull_request') && !inScope(r, 'github', 'merge_pull_request'));
  });
  it('leaves #words that name nothing in the request, and no scope means every tool', () => {
    const s = parseScope('#file:a.ts explain this', servers, sets);
    assert.equal(s.patterns, undefined);
    assert.equal(s.prompt, '#file:a.ts explain this');
    assert.ok(inScope(s, 'everything', 'echo'));
  });
  it('/use takes comma-separated names and reports unknown ones', () => {
    const s = parseScope('github,review create a PR', servers, sets, true);
    assert.deepEqual(s.names, ['github', 'review']);
    assert.equal(s.prompt, 'create a PR');
    assert.deepEqual(parseScope('nope do it', servers, sets, true).unknown, ['nope']);
  });
  it('a tool set cannot widen itself with a hostile name: names are checked, patterns validated', () => {
    const { sets: parsed, problems } = parseToolSets({ ok: ['a/b', 'c/*'], 'bad name': ['a/b'], wide: ['everything'], notList: 'a/*', __proto__: ['x/y'] });
    assert.deepEqual(Object.keys(parsed), ['ok']);
    assert.equal(problems.length, 3);
    assert.deepEqual(parseScope('#constructor #toString hi', servers, {}).names, []);
  });
});
