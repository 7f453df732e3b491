import * as chromeLauncher from 'chrome-launcher'
import lighthouse, { type Result } from 'lighthouse'
import {
  CHROMIUM_ARGS,
  findChromium,
  INSTALL_HINT,
  NPM_CHROMIUM,
  unpackNpmChromium,
} from '../../tests/e2e/support/chromium'

/** The two categories issue 11 sets targets for; the others would only lengthen each run. */
const CATEGORIES = ['performance', 'accessibility']
/** How many items of a finding to print: enough to know where to look. */
const ITEMS_SHOWN = 3

/** A Chromium for Lighthouse to drive over the DevTools protocol. */
export interface LighthouseBrowser {
  readonly port: number
  /** Where the browser came from, for the run's log. */
  readonly source: string
  close(): void
}

/**
 * Launches headless the same Chromium the e2e suite drives (tests/e2e/support/chromium.ts:
 * CHROME_PATH, the system's, Playwright's or @sparticuz/chromium's), with the same flags.
 */
export async function launchBrowser(): Promise<LighthouseBrowser> {
  const found = findChromium()
  if (found === undefined) throw new Error(INSTALL_HINT)
  if (found.executablePath === NPM_CHROMIUM) await unpackNpmChromium()
  const chrome = await chromeLauncher.launch({
    chromePath: found.executablePath,
    chromeFlags: ['--headless', ...CHROMIUM_ARGS],
    logLevel: 'silent',
  })
  return {
    port: chrome.port,
    source: `${found.source}: ${found.executablePath}`,
    close: () => chrome.kill(),
  }
}

/**
 * One Lighthouse run of `url` with the default config: a mobile phone's screen, simulated slow
 * 4G and a 4× slower CPU, as PageSpeed Insights runs it. A page Lighthouse could not load is
 * an error rather than a report of zeros.
 */
export async function auditPage(url: string, browser: LighthouseBrowser): Promise<Result> {
  const result = await lighthouse(url, {
    port: browser.port,
    logLevel: 'error',
    output: 'json',
    onlyCategories: CATEGORIES,
  })
  if (result === undefined) throw new Error(`Lighthouse returned nothing for ${url}`)
  const error = result.lhr.runtimeError
  if (error !== undefined) throw new Error(`Lighthouse could not audit ${url}: ${error.message}`)
  return result.lhr
}

/** Something Lighthouse says stands between a page and a full score, and where. */
export interface Finding {
  readonly title: string
  /** Lighthouse's own summary, such as 'Est savings of 42 KiB'. */
  readonly summary: string
  /** The elements or files it names, each with its share when Lighthouse gives one. */
  readonly items: readonly string[]
}

/** What bench:lighthouse prints of one run. */
export interface PageFigures {
  /** 0 to 100, as the report shows it. */
  readonly performance: number
  readonly accessibility: number
  readonly lcpMs: number
  readonly fcpMs: number
  readonly tbtMs: number
  readonly cls: number
  /** JavaScript bytes over the wire, compressed as the server sent them. */
  readonly scriptBytes: number
  /** The element whose paint is the LCP, as a CSS selector and its HTML. */
  readonly lcpElement: string
  /** Where the LCP's time goes: TTFB, load delay, load time, render delay. */
  readonly lcpPhases: readonly string[]
  /** Origins the page asked for and never reached (the image service, offline). */
  readonly unreachable: readonly string[]
  /** Performance diagnostics and opportunities that did not pass. */
  readonly performanceFindings: readonly Finding[]
  /** Accessibility checks that failed, with their elements' selectors. */
  readonly accessibilityFailures: readonly Finding[]
}

type Audit = Result['audits'][string]
type Details = NonNullable<Audit['details']>

/** Reads the figures, the LCP's element and phases, and what failed, out of one report. */
export function figuresOf(lhr: Result): PageFigures {
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN
  const lcp = lhr.audits['largest-contentful-paint-element']?.details
  const requests = networkRequests(lhr)
  return {
    performance: scoreOf(lhr, 'performance'),
    accessibility: scoreOf(lhr, 'accessibility'),
    lcpMs: metric('largest-contentful-paint'),
    fcpMs: metric('first-contentful-paint'),
    tbtMs: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    scriptBytes: requests
      .filter((request) => request.resourceType === 'Script')
      .reduce((sum, request) => sum + (request.transferSize ?? 0), 0),
    lcpElement: lcpElementOf(lcp),
    lcpPhases: lcpPhasesOf(lcp),
    unreachable: unreachableOrigins(requests),
    performanceFindings: findingsIn(lhr, 'performance', (audit, group) => {
      return group === 'diagnostics' && audit.score !== null && audit.score < 0.9
    }),
    accessibilityFailures: findingsIn(lhr, 'accessibility', (audit) => audit.score === 0),
  }
}

function scoreOf(lhr: Result, category: string): number {
  const score = lhr.categories[category]?.score
  return score === null || score === undefined ? Number.NaN : Math.round(score * 100)
}

interface NetworkRequest {
  readonly url: string
  readonly resourceType?: string
  readonly transferSize?: number
  readonly statusCode?: number
}

function networkRequests(lhr: Result): readonly NetworkRequest[] {
  return tableItems(lhr.audits['network-requests']?.details) as unknown as NetworkRequest[]
}

/** Origins whose every request failed before an answer (status -1 in Lighthouse's log). */
function unreachableOrigins(requests: readonly NetworkRequest[]): string[] {
  const answered = new Set<string>()
  const failed = new Set<string>()
  for (const request of requests) {
    const origin = new URL(request.url).origin
    if (request.statusCode === -1) failed.add(origin)
    else answered.add(origin)
  }
  return [...failed].filter((origin) => !answered.has(origin))
}

function findingsIn(
  lhr: Result,
  category: string,
  failing: (audit: Audit, group: string | undefined) => boolean,
): Finding[] {
  const findings: Finding[] = []
  for (const ref of lhr.categories[category]?.auditRefs ?? []) {
    const audit = lhr.audits[ref.id]
    if (audit === undefined || !failing(audit, ref.group)) continue
    findings.push({
      title: audit.title,
      summary: [audit.displayValue, savingsOf(audit)].filter(Boolean).join('; '),
      items: tableItems(audit.details).slice(0, ITEMS_SHOWN).map(itemLabel),
    })
  }
  return findings
}

function savingsOf(audit: Audit): string {
  const savings = Object.entries(audit.metricSavings ?? {}).filter(([, value]) => value)
  return savings.map(([metric, value]) => `${metric} −${value}`).join(', ')
}

type Item = Record<string, unknown>

/** The rows of a table-like detail; a list's first table's, as the LCP element's detail is. */
function tableItems(details: Details | undefined): Item[] {
  if (details === undefined || !('items' in details) || !Array.isArray(details.items)) return []
  if (details.type === 'list') return tableItems(details.items[0] as Details | undefined)
  return details.items as Item[]
}

/** An element by its selector, a file by its path, with the bytes, ms or shift it costs. */
function itemLabel(item: Item): string {
  const node = item.node as { selector?: string } | undefined
  const where = node?.selector ?? shortUrl(item.url) ?? shortUrl(item.source) ?? '(page)'
  const cost = [
    typeof item.wastedBytes === 'number' ? `${(item.wastedBytes / 1024).toFixed(1)} KiB` : '',
    typeof item.wastedMs === 'number' ? `${Math.round(item.wastedMs)} ms` : '',
    typeof item.score === 'number' ? `shift ${item.score.toFixed(3)}` : '',
  ].filter(Boolean)
  return cost.length === 0 ? where : `${where} (${cost.join(', ')})`
}

/** A same-site URL as its path, any other as it is; undefined when `value` is no URL. */
function shortUrl(value: unknown): string | undefined {
  const url = typeof value === 'string' ? value : (value as { url?: unknown } | undefined)?.url
  if (typeof url !== 'string') return undefined
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  if (parsed === undefined) return url
  return ['127.0.0.1', 'localhost'].includes(parsed.hostname) ? parsed.pathname : url
}

function lcpElementOf(details: Details | undefined): string {
  const node = tableItems(details)[0]?.node as { selector?: string; snippet?: string } | undefined
  return node === undefined ? '(none reported)' : `${node.selector} ${node.snippet ?? ''}`.trim()
}

function lcpPhasesOf(details: Details | undefined): string[] {
  if (details?.type !== 'list') return []
  const phases = tableItems(details.items[1] as Details | undefined)
  return phases.map((row) => `${row.phase} ${Math.round(Number(row.timing))} ms`)
}
