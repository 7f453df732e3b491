import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, type TestInfo } from '@playwright/test'
import { AXE_DIR } from './paths'

/** WCAG 2.2 A and AA, plus axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']
const BLOCKING = new Set(['serious', 'critical'])

/**
 * Runs axe on the page as it is now. Any serious or critical violation fails the test; every
 * finding goes to test-results/axe/<state>.json and into the report.
 */
export async function expectNoSeriousAxeViolations(
  page: Page,
  testInfo: TestInfo,
  state: string,
): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze()
  const summary = {
    state,
    url: page.url(),
    viewport: page.viewportSize(),
    passes: results.passes.length,
    // What axe could not decide alone (e.g. contrast over a gradient), for a person to check.
    incomplete: results.incomplete.map((rule) => ({
      id: rule.id,
      impact: rule.impact,
      targets: rule.nodes.map((node) => node.target),
    })),
    violations: results.violations.map((rule) => ({
      id: rule.id,
      impact: rule.impact,
      help: rule.help,
      nodes: rule.nodes.map((node) => ({ target: node.target, summary: node.failureSummary })),
    })),
  }
  mkdirSync(AXE_DIR, { recursive: true })
  const body = JSON.stringify(summary, null, 2)
  writeFileSync(join(AXE_DIR, `${state}.json`), body)
  await testInfo.attach(`axe-${state}.json`, { body, contentType: 'application/json' })

  const blocking = summary.violations.filter((rule) => BLOCKING.has(rule.impact ?? ''))
  expect(blocking, `serious or critical axe violations on ${state}`).toEqual([])
}
