/** Prompt results → Markdown (editor) and → chat request (query + attachments); pure functions. */
import * as assert from 'node:assert/strict';
import type { GetPromptResult } from '@modelcontextprotocol/client';
import { promptChatRequest, renderPromptMarkdown } from '../../src/core/prompts';
import { code, fence } from '../../src/core/prompts/promptMarkdown';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const info = { server: 'everything', prompt: { name: 'args-prompt', title: 'Arguments Prompt', description: 'Two arguments' }, args: { city: 'Paris' } };

describe('prompt rendering', () => {
  it('renders a header with title, description, server, prompt and arguments, then the messages', () => {
    const md = renderPromptMarkdown({ messages: [{ role: 'user', content: { type: 'text', text: "What's weather in Paris?" } }] }, info);
    assert.equal(md, [
      '# Arguments Prompt',
      '> Two arguments',
      '- Server: `everything`\n- Prompt: `args-prompt`\n- Arguments: `city` = `Paris`',
      '## User',
      "What's weather in Paris?",
    ].join('\n\n') + '\n');
  });

  it('prefers the result description, groups consecutive messages by role and says when there are none', () => {
    const md = renderPromptMarkdown({
      description: 'From the result\nsecond line',
      messages: [
        { role: 'user', content: { type: 'text', text: 'one' } },
        { role: 'user', content: { type: 'text', text: 'two' } },
        { role: 'assistant', content: { type: 'text', text: 'three' } },
      ],
    }, { ...info, args: {} });
    assert.match(md, /^# Arguments Prompt\n\n> From the result\n> second line\n\n- Server: `everything`\n- Prompt: `args-prompt`\n\n## User\n\none\n\ntwo\n\n## Assistant\n\nthree\n$/);
    assert.match(renderPromptMarkdown({ messages: [] }, info), /\*The prompt returned no messages\.\*\n$/);
  });

  it('renders images, audio, resource links, text resources and blobs', () => {
    const result: GetPromptResult = {
      messages: [
        { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'audio', data: 'AAAAAAAA', mimeType: 'audio/wav' } },
        { role: 'user', content: { type: 'resource_link', uri: 'file:///tmp/a b.txt', name: 'a b.txt', mimeType: 'text/plain', description: 'A file' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'demo://r/1', mimeType: 'application/json', text: '{"a":"```"}' } } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'demo://r/2', mimeType: 'text/plain', blob: Buffer.from('blob text').toString('base64') } } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'demo://r/3', mimeType: 'application/octet-stream', blob: 'AAECAw==' } } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'demo://r/4.png', mimeType: 'image/png', blob: PNG } } },
      ],
    };
    const md = renderPromptMarkdown(result, info);
    assert.ok(md.includes(`![Image 1 (image/png)](data:image/png;base64,${PNG})`));
    assert.ok(md.includes('*Audio (audio/wav, 6 B) — not shown.*'));
    assert.ok(md.includes('**Resource link:** [a b.txt](<file:///tmp/a b.txt>) (text/plain) — A file'));
    assert.ok(md.includes('**Resource:** `demo://r/1` (application/json)\n\n````json\n{"a":"```"}\n````'));
    assert.ok(md.includes('**Resource:** `demo://r/2` (text/plain)\n\n```text\nblob text\n```'));
    assert.ok(md.includes('**Resource:** `demo://r/3` (application/octet-stream)\n\n*Binary content, 4 B — not shown.*'));
    assert.ok(md.includes(`![demo://r/4.png](data:image/png;base64,${PNG})`));
  });

  it('fences and inline code survive backticks', () => {
    assert.equal(fence('a ``` b', 'md'), '````md\na ``` b\n````');
    assert.equal(fence('x\n'), '```\nx\n```');
    assert.equal(code('a`b'), '``a`b``');
    assert.equal(code('`x'), '`` `x ``');
  });

  it('builds a chat request: text in the query, non-text content as attachments', () => {
    const req = promptChatRequest({
      messages: [
        { role: 'user', content: { type: 'text', text: 'Analyze this:' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'demo://resource/dynamic/text/1', mimeType: 'text/plain', text: 'Resource 1' } } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'demo://resource/dynamic/blob/1', mimeType: 'text/plain', blob: Buffer.from('blob 1').toString('base64') } } },
        { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'resource_link', uri: 'file:///w/readme.md', name: 'readme.md' } },
        { role: 'user', content: { type: 'resource_link', uri: 'https://example.com/x', name: 'x' } },
      ],
    });
    assert.equal(req.text, 'Analyze this:\n\n**Resource link:** [x](https://example.com/x)');
    assert.deepEqual(req.attachments, [
      { kind: 'data', fileName: '1.txt', mimeType: 'text/plain', sourceUri: 'demo://resource/dynamic/text/1', text: 'Resource 1' },
      { kind: 'data', fileName: '1-2.txt', mimeType: 'text/plain', sourceUri: 'demo://resource/dynamic/blob/1', text: 'blob 1' },
      { kind: 'data', fileName: 'image.png', mimeType: 'image/png', base64: PNG },
      { kind: 'data', fileName: 'image-2.png', mimeType: 'image/png', base64: PNG },
      { kind: 'file', uri: 'file:///w/readme.md', name: 'readme.md' },
    ]);
  });

  it('labels roles in the chat query only when they are mixed', () => {
    const req = promptChatRequest({ messages: [
      { role: 'user', content: { type: 'text', text: 'Hi' } },
      { role: 'assistant', content: { type: 'text', text: 'Hello' } },
      { role: 'user', content: { type: 'text', text: 'More' } },
    ] });
    assert.equal(req.text, '**User:**\n\nHi\n\n**Assistant:**\n\nHello\n\n**User:**\n\nMore');
    assert.equal(promptChatRequest({ messages: [{ role: 'user', content: { type: 'text', text: 'a' } }, { role: 'user', content: { type: 'text', text: 'b' } }] }).text, 'a\n\nb');
  });
});
