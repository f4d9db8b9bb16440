/** The tool runner's result document and JSON skeleton (core, pure). */
import * as assert from 'node:assert/strict';
import { renderToolRun, schemaSkeleton, toolRunExchange } from '../../src/core';

/** Markdown outside code blocks and spans: what a Markdown renderer would treat as Markdown. */
function outsideFences(md: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of md.split('\n')) {
    const m = /^(`{3,})/.exec(line);
    if (fence) { if (m && m[1].length >= fence.length && line.trim() === m[1]) fence = undefined; continue; }
    if (m) { fence = m[1]; continue; }
    out.push(line);
  }
  // Inline code spans render as code too.
  return out.join('\n').replace(/(`+)[^`][\s\S]*?\1/g, '');
}

describe('tool runner report (core)', () => {
  const tool = { name: 'report', outputSchema: { type: 'object' as const, properties: { n: { type: 'number' } } } };

  it('keeps a hostile result as text: fences outlast the server\'s backticks; links, HTML and SVG never go live', () => {
    const md = renderToolRun({
      server: 'evil\u202E', tool: { name: 'r`e`port', title: '\u001b[31mReport\u001b[0m' }, args: { q: '```' },
      result: {
        content: [
          { type: 'text', text: '[y](command:workbench.action.openSettings) <b onmouseover=x>bold</b>' },
          { type: 'text', text: 'ok\n````\n[x](command:workbench.action.terminal.new) <img src=x onerror=alert(1)>' },
          { type: 'image', mimeType: 'image/svg+xml', data: Buffer.from('<svg><script>alert(1)</script></svg>').toString('base64') },
          { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
          { type: 'resource_link', uri: 'command:workbench.action.openSettings', name: '[click](command:x)' },
        ],
      },
    });
    assert.ok(!/[\u001b\u202e]/.test(md));
    const live = outsideFences(md);
    assert.ok(!/command:|<img|<svg|<script/.test(live), live);
    assert.ok(!/data:image\/svg/.test(md));
    assert.match(md, /!\[\]\(data:image\/png;base64,iVBORw0KGgo=\)/);
    assert.match(md, /\[x\]\(command:workbench\.action\.terminal\.new\)/, 'still readable inside its fence');
  });

  it('gives structured content its verdict, and a failure the reason', () => {
    assert.match(renderToolRun({ server: 's', tool, args: {}, result: { content: [], structuredContent: { n: 1 } } }), /matches the tool's output schema[\s\S]*"n": 1/);
    assert.match(renderToolRun({ server: 's', tool: { name: 't' }, args: {}, result: { content: [{ type: 'text', text: 'x' }], structuredContent: { n: 1 } } }), /declares no output schema/);
    assert.match(renderToolRun({ server: 's', tool, args: {}, failure: 'structuredContent of tool "report" does not match its outputSchema: data/n must be number' }), /The call failed[\s\S]*does not match/);
    const exchange = JSON.parse(toolRunExchange({ server: 's', tool, args: { a: 1 }, failure: 'no' })) as { request: { params: unknown }; response: unknown };
    assert.deepEqual(exchange.request.params, { name: 'report', arguments: { a: 1 } });
    assert.deepEqual(exchange.response, { error: 'no' });
  });

  it('builds a JSON skeleton from an input schema, bounded against hostile schemas', () => {
    assert.deepEqual(schemaSkeleton({ type: 'object', properties: { s: { type: 'string' }, n: { type: 'integer', minimum: 2 }, b: { type: 'boolean', default: true }, e: { enum: ['x', 'y'] }, o: { type: 'object', properties: { r: { type: 'array' }, opt: { type: 'string' } }, required: ['r'] } } }),
      { s: '', n: 2, b: true, e: 'x', o: { r: [] } });
    assert.deepEqual(schemaSkeleton(undefined), {});
    assert.deepEqual(schemaSkeleton({ type: 'string' }), {});
    let deep: Record<string, unknown> = { type: 'object', properties: {} };
    const root = deep;
    for (let i = 0; i < 1000; i++) { const next = { type: 'object', properties: {}, required: ['x'] }; (deep.properties as Record<string, unknown>).x = next; deep.required = ['x']; deep = next; }
    assert.ok(JSON.stringify(schemaSkeleton(root)).length < 200, 'depth is bounded');
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    assert.equal(Object.keys(schemaSkeleton(wide)).length, 200, 'width is bounded');
  });
});
