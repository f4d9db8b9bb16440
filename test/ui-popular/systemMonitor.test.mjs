// The system-monitor app as a person sees it (test/integration/popular/systemMonitor.test.ts opens it):
// its frame inside MCP Host's webview shows this machine's host name, the memory gauge and a drawn chart.
import { stepDone, waitForStep } from '../ui-workbench/bridge.mjs';
import { screenshot, workbench } from './workbench.mjs';

async function until(check, what, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise(r => setTimeout(r, 200));
  }
}

describe('real servers: the system-monitor app (Playwright)', function () {
  this.timeout(400_000);

  it('paints the host name, the memory gauge and the CPU chart', async () => {
    const { hostname } = await waitForStep('sysmon-paint', 360_000); // after the other suites' tests of this run
    try {
      const frame = await until(async () => {
        for (const f of workbench.page.frames()) if (await f.locator('#cpu-chart').count().catch(() => 0)) return f;
        return undefined;
      }, () => `the app frame (frames: ${workbench.page.frames().map(f => f.url()).join(', ')})`);
      let shown;
      await until(async () => (shown = (await frame.locator('#info-hostname').textContent())?.trim()) === hostname, () => `the host name ${hostname} (shows ${shown})`);
      const memory = await until(async () => { const t = (await frame.locator('#memory-percent').textContent())?.trim(); return /^\d+(\.\d+)?%$/.test(t ?? '') ? t : undefined; }, 'the memory gauge');
      // Pixels the chart drew (its canvas is the app's own, so readable), once a poll has added points.
      const paintedPixels = await until(() => frame.evaluate(() => {
        const c = document.getElementById('cpu-chart');
        const ctx = c instanceof HTMLCanvasElement && c.width && c.height ? c.getContext('2d') : null;
        if (!ctx) return 0;
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
        return n > 500 ? n : 0;
      }), 'the chart to be drawn');
      await screenshot('system-monitor-app');
      await stepDone('sysmon-paint', { hostname: shown, memory, paintedPixels });
    } catch (e) {
      await screenshot('system-monitor-app-failure').catch(() => undefined);
      await stepDone('sysmon-paint', { error: e instanceof Error ? e.message : String(e) });
      throw e;
    }
  });
});
