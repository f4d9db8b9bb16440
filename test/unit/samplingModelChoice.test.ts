import * as assert from 'node:assert/strict';
import { chooseModel, matchesModelRef, traits, type ModelChoice, type ModelInfo } from '../../src/core/sampling';

const m = (id: string, maxInputTokens: number, extra: Partial<ModelInfo> = {}): ModelInfo => ({ id, name: id.toUpperCase(), family: id, vendor: 'copilot', maxInputTokens, ...extra });
const models = [
  m('gpt-4o', 128_000),
  m('gpt-4o-mini', 128_000),
  m('claude-sonnet-4', 200_000, { name: 'Claude Sonnet 4' }),
  m('claude-3.5-haiku', 200_000, { name: 'Claude 3.5 Haiku' }),
  m('small-local', 8_000, { vendor: 'ollama', supportsToolCalling: false }),
];

function id(choice: ModelChoice): string {
  assert.ok('model' in choice, `expected a model, got ${'error' in choice ? choice.error : ''}`);
  return choice.model.id;
}

describe('sampling model choice', () => {
  it('takes the first hint that matches id, family or name, case-insensitively', () => {
    assert.equal(id(chooseModel(models, { hints: [{ name: 'gemini' }, { name: 'SONNET' }, { name: 'gpt' }] })), 'claude-sonnet-4');
    assert.equal(id(chooseModel(models, { hints: [{ name: 'Haiku' }] })), 'claude-3.5-haiku');
    const c = chooseModel(models, { hints: [{ name: 'claude' }] });
    assert.ok('model' in c && c.reason === 'hint "claude"');
  });

  it('breaks ties among hint matches with the priorities', () => {
    assert.equal(id(chooseModel(models, { hints: [{ name: 'claude' }], speedPriority: 1 })), 'claude-3.5-haiku');
    assert.equal(id(chooseModel(models, { hints: [{ name: 'claude' }], intelligencePriority: 1 })), 'claude-sonnet-4');
    assert.equal(id(chooseModel(models, { hints: [{ name: 'gpt-4o' }], costPriority: 0.9, intelligencePriority: 0.1 })), 'gpt-4o-mini');
    // Without priorities the listing order decides.
    assert.equal(id(chooseModel(models, { hints: [{ name: 'claude' }] })), 'claude-sonnet-4');
  });

  it('ranks every candidate by priorities when no hint matches and the user has no default', () => {
    assert.equal(id(chooseModel(models, { hints: [{ name: 'gemini' }], intelligencePriority: 1 })), 'claude-sonnet-4');
    assert.equal(id(chooseModel(models, { speedPriority: 1 })), 'small-local');
  });

  it("falls back to the user's default model, then the first available one", () => {
    const c = chooseModel(models, { hints: [{ name: 'gemini' }], intelligencePriority: 1 }, { defaultModel: 'GPT-4O-MINI' });
    assert.equal(id(c), 'gpt-4o-mini');
    assert.ok('model' in c && c.reason === 'your default model');
    assert.equal(id(chooseModel(models, undefined)), 'gpt-4o');
    // A hint still beats the default model.
    assert.equal(id(chooseModel(models, { hints: [{ name: 'haiku' }] }, { defaultModel: 'gpt-4o' })), 'claude-3.5-haiku');
  });

  it('keeps to the allowed models, in the order the user listed them', () => {
    const allowed = ['claude-3.5-haiku', 'copilot/gpt-4o'];
    assert.equal(id(chooseModel(models, undefined, { allowedModels: allowed })), 'claude-3.5-haiku');
    assert.equal(id(chooseModel(models, { hints: [{ name: 'sonnet' }] }, { allowedModels: allowed })), 'claude-3.5-haiku');
    assert.equal(id(chooseModel(models, { hints: [{ name: 'gpt' }] }, { allowedModels: allowed })), 'gpt-4o');
    const c = chooseModel(models, undefined, { allowedModels: ['gemini-pro'] });
    assert.ok('error' in c && c.code === 'none-allowed' && /gemini-pro/.test(c.error) && /available: gpt-4o/.test(c.error));
  });

  it('skips models that cannot call tools when the request has tools', () => {
    assert.equal(id(chooseModel(models, { hints: [{ name: 'local' }, { name: 'gpt' }] }, { needsTools: true })), 'gpt-4o');
    const c = chooseModel(models, undefined, { allowedModels: ['small-local'], needsTools: true });
    assert.ok('error' in c && c.code === 'no-tools');
  });

  it('reports an empty model list', () => {
    const c = chooseModel([], { hints: [{ name: 'x' }] });
    assert.ok('error' in c && c.code === 'no-models');
  });

  it('matches model references by id, vendor/id, family or name', () => {
    const model = m('gpt-4o', 1, { family: 'gpt-4o-family', name: 'GPT 4o' });
    for (const ref of ['gpt-4o', 'COPILOT/gpt-4o', 'gpt-4o-family', 'gpt 4o']) assert.ok(matchesModelRef(model, ref), ref);
    assert.ok(!matchesModelRef(model, 'gpt'));
  });

  it('derives traits from context size and model names', () => {
    const big = traits(models[2], models), small = traits(models[4], models), mini = traits(models[1], models), full = traits(models[0], models);
    assert.ok(big.intelligence > small.intelligence && small.speed > big.speed);
    assert.ok(mini.speed > full.speed && mini.cheapness > full.cheapness && full.intelligence > mini.intelligence);
    const same = traits(m('a', 0), [m('a', 0)]);
    assert.deepEqual(same, { intelligence: 0.5, speed: 0.5, cheapness: 0.5 });
  });
});
