import * as assert from 'node:assert/strict';
import { IMAGE_TOKEN_COST, imagesForModel, imagesToShow, type ToolResultPart } from '../../src/core';

const png = (base64: string, mimeType = 'image/png'): ToolResultPart => ({ kind: 'data', what: 'image', mimeType, base64 });

describe('images of tool results', () => {
  it('go to a model that reads images while they fit the result budget, each at IMAGE_TOKEN_COST', () => {
    const parts = [png('AAAA'), { kind: 'text', text: 'x' } as const, png('BBBB', 'IMAGE/JPEG'), png('CCCC')];
    assert.deepEqual(imagesForModel(parts, false, 100_000, 0), []);
    assert.deepEqual(imagesForModel(parts, true, 100_000, 0).map(i => i.mimeType), ['image/png', 'image/jpeg', 'image/png']);
    assert.equal(imagesForModel(parts, true, 100 + 2 * IMAGE_TOKEN_COST, 100).length, 2);
    assert.equal(imagesForModel(parts, true, IMAGE_TOKEN_COST - 1, 0).length, 0);
  });

  it('shown in chat only when raster, bounded and strictly base64 (a hostile server cannot break out of the Markdown image)', () => {
    const hostile = [
      png('AAAA)[click](https://attacker.example/'),
      png('AAAA\n\n# Heading'),
      png('PHN2Zz48L3N2Zz4=', 'image/svg+xml'),
      png('A'.repeat(1_000_004)),
      { kind: 'data', what: 'audio', mimeType: 'audio/wav', base64: 'AAAA' } as const,
    ];
    assert.deepEqual(imagesToShow(hostile), []);
    assert.deepEqual(imagesToShow([png('iVBORw0KGgo=')]), [{ mimeType: 'image/png', base64: 'iVBORw0KGgo=' }]);
  });
});
