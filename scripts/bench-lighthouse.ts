/**
 * `npm run bench:lighthouse`: Lighthouse's default mobile run (a phone's screen, simulated slow
 * 4G, a 4× slower CPU) of '/' and of an article, against the production server as `npm start`
 * runs it (built first when the build is stale) on a fresh SQLite file with the demo posts.
 * Each page is audited `--runs` times (default 3) in the same Chromium as the e2e suite; the
 * run Lighthouse itself calls the median (nearest the median FCP and TTI) is the one reported,
 * after one line per run. It prints the performance and accessibility scores, LCP, FCP, TBT,
 * CLS and the JavaScript transferred, against issue 11's targets (performance 100,
 * LCP ≤ 1.5 s, accessibility 100), then the LCP's element and phases and what Lighthouse says
 * holds each page back. A missed target never fails the run.
 * Options: --runs N (1 to 10)  --report FOLDER (writes each page's median report as HTML).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { generateReport, type Result } from 'lighthouse'
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js'
import {
  auditPage,
  figuresOf,
  launchBrowser,
  type Finding,
  type LighthouseBrowser,
  type PageFigures,
} from './bench/lighthouse-audit'
import { startProductionServer } from './bench/production-server'
import { benchOptions } from './bench/options'
import { runBench } from './bench/run-bench'

const values = benchOptions({ runs: [3, 1, 10] }, { texts: { report: undefined } })
const { runs } = values

/** Issue 11's targets, on a phone. */
const TARGETS = { performance: 100, lcpMs: 1500, accessibility: 100 } as const

const work = mkdtempSync(join(tmpdir(), 'newswire-lighthouse-'))

async function main(): Promise<void> {
  const server = await startProductionServer({
    DATABASE_URL: `sqlite:${join(work, 'newswire.db')}`,
    DEMO_POSTS: '1',
  })
  let browser: LighthouseBrowser | undefined
  try {
    const pages = { home: '/', article: `/news/${await newestPostId(server.base)}` }
    browser = await launchBrowser()
    process.stdout.write(`Lighthouse ${runs}× per page in Chromium (${browser.source})\n`)
    for (const [name, path] of Object.entries(pages)) {
      const median = await auditRuns(`${server.base}${path}`, browser)
      report(`${name} (${path})`, figuresOf(median))
      if (values.report !== undefined) saveReport(values.report, name, median)
    }
  } finally {
    browser?.close()
    await server.stop()
  }
}

/** The id of the newest post: the first card on '/', and so the article a visitor opens first. */
async function newestPostId(base: string): Promise<string> {
  const response = await fetch(`${base}/api/news`)
  const [newest] = (await response.json()) as { _id: string }[]
  if (newest === undefined) throw new Error('the server has no posts to audit an article with')
  return newest._id
}

/** `runs` audits of `url`, one line each; answers Lighthouse's median run. */
async function auditRuns(url: string, browser: LighthouseBrowser): Promise<Result> {
  const results: Result[] = []
  for (let run = 1; run <= runs; run += 1) {
    const lhr = await auditPage(url, browser)
    const { performance, lcpMs, tbtMs, cls } = figuresOf(lhr)
    process.stdout.write(
      `  run ${run}: performance ${performance}, LCP ${seconds(lcpMs)}, TBT ${Math.round(tbtMs)} ms, CLS ${cls.toFixed(3)}\n`,
    )
    results.push(lhr)
  }
  return computeMedianRun(results)
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const verdict = (met: boolean) => (met ? 'met' : 'MISSED')

function report(page: string, figures: PageFigures): void {
  const { performance, accessibility, lcpMs } = figures
  const lines = [
    `\n${page}, median run`,
    `  performance    ${String(performance).padStart(8)}   target ${TARGETS.performance}: ${verdict(performance >= TARGETS.performance)}`,
    `  accessibility  ${String(accessibility).padStart(8)}   target ${TARGETS.accessibility}: ${verdict(accessibility >= TARGETS.accessibility)}`,
    `  LCP            ${seconds(lcpMs).padStart(8)}   target ≤ ${seconds(TARGETS.lcpMs)}: ${verdict(lcpMs <= TARGETS.lcpMs)}`,
    `  FCP            ${seconds(figures.fcpMs).padStart(8)}`,
    `  TBT            ${`${Math.round(figures.tbtMs)} ms`.padStart(8)}`,
    `  CLS            ${figures.cls.toFixed(3).padStart(8)}`,
    `  JS transferred ${`${(figures.scriptBytes / 1024).toFixed(1)} KB`.padStart(8)}`,
    `  LCP element: ${figures.lcpElement}`,
    `  LCP phases: ${figures.lcpPhases.join(', ') || '(none reported)'}`,
    ...figures.unreachable.map(
      (origin) =>
        `  unreachable: ${origin} (every request failed; pictures fall back to the local one)`,
    ),
    ...findingLines('performance: not passed', figures.performanceFindings),
    ...findingLines('accessibility: failed', figures.accessibilityFailures),
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}

function findingLines(heading: string, findings: readonly Finding[]): string[] {
  if (findings.length === 0) return [`  ${heading}: none`]
  return [
    `  ${heading}:`,
    ...findings.flatMap((finding) => [
      `    - ${finding.title}${finding.summary ? ` (${finding.summary})` : ''}`,
      ...finding.items.map((item) => `        ${item}`),
    ]),
  ]
}

function saveReport(folder: string, name: string, lhr: Result): void {
  mkdirSync(folder, { recursive: true })
  const file = join(folder, `lighthouse-${name}.html`)
  writeFileSync(file, generateReport(lhr, 'html'))
  process.stdout.write(`  report: ${file}\n`)
}

runBench('bench:lighthouse', main, work)
