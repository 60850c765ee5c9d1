// Checks the e2e suite runs over every main view: axe-core's accessibility rules (injected into the
// page), and whether any row action is clipped — outside the window, or cut off by a scrolling
// container — at the current window size.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SCRIPT = require.resolve('axe-core/axe.min.js');

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's serious and critical violations on the page as it is now, experimental rules included. */
export async function seriousAxeViolations(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => 'axe' in globalThis);
  // Evaluated rather than added as a <script>: the app's CSP (script-src 'self') refuses inline
  // scripts, and this check must not need the CSP loosened.
  if (!loaded) await page.evaluate(readFileSync(AXE_SCRIPT, 'utf8'));
  const findings = await page.evaluate(async () => {
    // Runs in the page; this project's type lib has no DOM, so axe's result is typed here.
    const axe = (
      globalThis as unknown as {
        axe: {
          getRules: (tags: string[]) => { ruleId: string }[];
          run: (options: object) => Promise<{
            violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    // The experimental rules too (label-content-name-mismatch among them): off by default in axe.
    const experimental = axe.getRules(['experimental']).map((rule) => [rule.ruleId, { enabled: true }]);
    const result = await axe.run({ resultTypes: ['violations'], rules: Object.fromEntries(experimental) });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  });
  return findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
}

/**
 * Row action buttons (or the buttons `selector` picks, e.g. a pane header's) that are not wholly
 * visible: past the window's edge or under a container's.
 */
export async function clippedRowActions(page: Page, selector = '.row-actions button'): Promise<string[]> {
  return page.evaluate((selector) => {
    type Rect = { left: number; right: number; top: number; bottom: number };
    type El = {
      getBoundingClientRect: () => Rect;
      parentElement: El | null;
      getAttribute: (name: string) => string | null;
    };
    const dom = globalThis as unknown as {
      document: { querySelectorAll: (selector: string) => Iterable<El> };
      innerWidth: number;
      innerHeight: number;
      getComputedStyle: (el: El) => { overflowX: string; overflowY: string };
    };
    const clipped: string[] = [];
    for (const button of dom.document.querySelectorAll(selector)) {
      const rect = button.getBoundingClientRect();
      const name = button.getAttribute('aria-label') ?? '?';
      let box = { left: 0, top: 0, right: dom.innerWidth, bottom: dom.innerHeight };
      for (let el = button.parentElement; el; el = el.parentElement) {
        const style = dom.getComputedStyle(el);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const r = el.getBoundingClientRect();
        box = {
          left: Math.max(box.left, r.left),
          top: Math.max(box.top, r.top),
          right: Math.min(box.right, r.right),
          bottom: Math.min(box.bottom, r.bottom),
        };
      }
      // A row scrolled out of its list vertically is not clipped, only not in view; sideways it is.
      const inViewVertically = rect.bottom > box.top && rect.top < box.bottom;
      if (!inViewVertically) continue;
      if (rect.left < box.left - 0.5 || rect.right > box.right + 0.5) clipped.push(name);
    }
    return clipped;
  }, selector);
}
