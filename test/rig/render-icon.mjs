// Renders media/icon.svg to media/icon.png (128×128, transparent corners) in headless Chromium.
//   node test/rig/render-icon.mjs
// Run it after editing the SVG and commit both files (the Marketplace needs a PNG icon).
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const media = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'media');
const svg = await fs.readFile(path.join(media, 'icon.svg'), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.MCP_HOST_TEST_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: path.join(media, 'icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
console.log('media/icon.png written');
