/** The environment every stdio server inherits is the MCP SDK's safe list (src/core/config/inheritedEnv.ts keeps its own copy so resolving needs no SDK). */
import * as assert from 'node:assert/strict';
import { DEFAULT_INHERITED_ENV_VARS, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { INHERITED_ENV_NAMES, inheritedEnvironment } from '../../src/core/config/inheritedEnv';

describe('inherited environment', () => {
  it('names the same variables as the SDK\'s getDefaultEnvironment on this platform', () => {
    assert.deepEqual([...INHERITED_ENV_NAMES].sort(), [...DEFAULT_INHERITED_ENV_VARS].sort());
  });

  it('gives what the SDK gives, and drops exported shell functions and everything else', () => {
    assert.deepEqual(inheritedEnvironment(), getDefaultEnvironment());
    const env = inheritedEnvironment({ PATH: '/usr/bin', HOME: '() { :; }; echo pwned', GITHUB_TOKEN: 'ghp_secret', USER: 'me' });
    assert.deepEqual(env, { PATH: '/usr/bin', USER: 'me' });
  });
});
