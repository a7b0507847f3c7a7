/**
 * The pay page on a throttled phone (issue 33 item 5), run by `npm run bench` (or
 * `node --import tsx e2e/bench/pay-page-bench.ts`): starts the whole stack on its own ports
 * (PAY_PAGE_BENCH_PORT 3320, frames 3321, SMTP 2845, devnet 8965-8967, data in
 * .data/bench-pay-page; each overridable by PAY_PAGE_BENCH_PORT, _SMTP_PORT, _DEVNET_BASE_PORT,
 * _DATA_DIR), or uses the one at PAY_PAGE_BENCH_ORIGIN, creates a Base USDC link and opens
 * /pay/{slug} in Chromium on Lighthouse's Slow 4G phone profile, throttled by Chromium itself over
 * CDP (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up, 4x CPU slowdown), each run in a fresh context
 * (cold cache). It measures
 *   1. when the Pay button is clickable (in the DOM and enabled, so React's handler is attached),
 *      from the navigation's start: target ≤ 1.5 s;
 *   2. the JavaScript bytes on the wire (headers and compressed bodies, as Chromium counts them)
 *      until the page is idle, before the modal opens: target ≤ 150 KB;
 *   3. beside them, the HTML-only figure of the same run: when the document's last byte arrived
 *      and its size, the floor any page has on this profile;
 *   4. for information, what pressing Pay costs: the time to the dialog and the JavaScript it adds.
 * Prints the medians of PAY_PAGE_BENCH_RUNS runs (default 5), and with PAY_PAGE_BENCH_VERBOSE=1 every
 * response with its encoding and size; exits non-zero when a target is missed.
 */
import { type Browser, chromium, type Page } from '@playwright/test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createLinkThroughApi } from '../fixtures/share-links.ts'
import { signInThroughApi } from '../fixtures/sign-in.ts'
import { type BenchStack, median, printTable, readNumberEnv, startBenchStack } from './lib/bench-stack.ts'

const isVerbose = process.env.PAY_PAGE_BENCH_VERBOSE === '1'
const runs = readNumberEnv('PAY_PAGE_BENCH_RUNS', 5)
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const clickableTargetMs = 1500
const jsTargetBytes = 150 * 1024

/** Lighthouse's "Slow 4G" mobile profile (its simulated throttling's numbers, applied by Chromium). */
const slow4g = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
  connectionType: 'cellular4g',
} as const
const cpuSlowdown = 4

type Run = {
  clickableMs: number
  htmlMs: number
  htmlBytes: number
  jsBytes: number
  jsFiles: number
  modalMs: number
  modalJsBytes: number
}

declare global {
  interface Window {
    /** performance.now() when the Pay button was first in the DOM and enabled (set by the bench). */
    __payClickableAt?: number
  }
}

/**
 * Runs in the page before its scripts: notes when a Pay button is first there and enabled. A string,
 * not a function: tsx would wrap a function's inner closures in a helper the page lacks.
 */
const watchPayButton = `(() => {
  const isClickable = () =>
    [...document.querySelectorAll('button')].some(
      (button) => !button.disabled && button.textContent.trim() === 'Pay',
    )
  const observer = new MutationObserver(() => {
    if (window.__payClickableAt !== undefined || !isClickable()) return
    window.__payClickableAt = performance.now()
    observer.disconnect()
  })
  observer.observe(document, { childList: true, subtree: true, attributes: true })
})()`

/** One cold, throttled load of `path` and one press of Pay. */
async function measureOnce(browser: Browser, origin: string, path: string): Promise<Run> {
  const context = await browser.newContext({
    baseURL: origin,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
  })
  try {
    await context.addInitScript({ content: watchPayButton })
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    // Bytes per resource type and phase, from Chromium's own count of what crossed the wire.
    const types = new Map<string, { type: string; url: string; encoding: string }>()
    const phase = { name: 'page' as 'page' | 'modal' }
    const totals = { page: { js: 0, files: 0, html: 0 }, modal: { js: 0, files: 0, html: 0 } }
    cdp.on('Network.responseReceived', (event) =>
      types.set(event.requestId, {
        type: event.type,
        url: event.response.url,
        encoding: String(
          event.response.headers['content-encoding'] ?? event.response.headers['Content-Encoding'] ?? '-',
        ),
      }),
    )
    cdp.on('Network.loadingFinished', (event) => {
      const response = types.get(event.requestId)
      const type = response?.type
      const bucket = totals[phase.name]
      if (isVerbose && response !== undefined)
        console.log(
          `    ${phase.name} ${type} ${response.encoding} ${event.encodedDataLength} ${response.url}`,
        )
      if (type === 'Script') {
        bucket.js += event.encodedDataLength
        bucket.files += 1
      } else if (type === 'Document') bucket.html += event.encodedDataLength
    })
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', slow4g)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown })

    await page.goto(path, { waitUntil: 'commit' })
    await page.waitForFunction(() => window.__payClickableAt !== undefined, null, { timeout: 60_000 })
    await page.waitForLoadState('networkidle')
    const timing = await readTiming(page)
    if (isVerbose) console.log(await readResourceTimeline(page))

    phase.name = 'modal'
    const pressed = performance.now()
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    await page.getByRole('dialog').waitFor({ timeout: 60_000 })
    const modalMs = performance.now() - pressed
    await page.waitForLoadState('networkidle')
    return {
      clickableMs: timing.clickableMs,
      htmlMs: timing.htmlMs,
      htmlBytes: totals.page.html,
      jsBytes: totals.page.js,
      jsFiles: totals.page.files,
      modalMs,
      modalJsBytes: totals.modal.js,
    }
  } finally {
    await context.close()
  }
}

/** The page's own clock: the Pay button's moment and the document's last byte, from the navigation's start. */
async function readTiming(page: Page): Promise<{ clickableMs: number; htmlMs: number }> {
  return page.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]
    return {
      clickableMs: window.__payClickableAt ?? Number.NaN,
      htmlMs: navigation?.responseEnd ?? Number.NaN,
    }
  })
}

/** Each resource's start and last byte, from the navigation's start (for PAY_PAGE_BENCH_VERBOSE). */
async function readResourceTimeline(page: Page): Promise<string> {
  return page.evaluate(() =>
    (performance.getEntriesByType('navigation') as PerformanceResourceTiming[])
      .concat(performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .map(
        (entry) =>
          `    ${entry.startTime.toFixed(0).padStart(5)} → ${entry.responseEnd.toFixed(0).padStart(5)} ms  ${entry.name}`,
      )
      .join('\n'),
  )
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const verdict = (isMet: boolean) => (isMet ? 'met' : 'MISSED')

let stack: BenchStack | undefined
let browser: Browser | undefined
let exitCode = 0
try {
  const existing = process.env.PAY_PAGE_BENCH_ORIGIN
  stack =
    existing === undefined || existing === ''
      ? await startBenchStack({
          port: readNumberEnv('PAY_PAGE_BENCH_PORT', 3320),
          smtpPort: readNumberEnv('PAY_PAGE_BENCH_SMTP_PORT', 2845),
          devnetBasePort: readNumberEnv('PAY_PAGE_BENCH_DEVNET_BASE_PORT', 8965),
          dataDir: process.env.PAY_PAGE_BENCH_DATA_DIR ?? '.data/bench-pay-page',
        })
      : { origin: existing, stop: async () => {} }
  const { origin } = stack
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  const payee = await browser.newContext({ baseURL: origin })
  await signInThroughApi(payee, origin)
  const receiver = privateKeyToAccount(generatePrivateKey()).address
  const link = await createLinkThroughApi(
    await payee.newPage(),
    `Bench page ${Date.now().toString(36)}`,
    receiver,
  )
  await payee.close()
  const path = `/pay/${link.alias_slug}`

  const results: Run[] = []
  for (let run = 0; run < runs; run++) {
    const result = await measureOnce(browser, origin, path)
    console.log(
      `  run ${run + 1}: Pay clickable ${seconds(result.clickableMs)}, JS ${kb(result.jsBytes)} in ${result.jsFiles} files; HTML ${seconds(result.htmlMs)}, ${kb(result.htmlBytes)}; modal ${seconds(result.modalMs)}, +${kb(result.modalJsBytes)} JS`,
    )
    results.push(result)
  }
  const of = (pick: (result: Run) => number) => median(results.map(pick))
  const clickable = of((result) => result.clickableMs)
  const js = of((result) => result.jsBytes)
  const html = of((result) => result.htmlMs)
  printTable(
    `Pay page on a throttled phone (Slow 4G: 150 ms RTT, 1.6 Mbit/s; ${cpuSlowdown}x CPU; cold cache; medians of ${runs})`,
    [
      [
        'Pay clickable',
        seconds(clickable),
        `HTML only: ${seconds(html)}`,
        `target ≤ ${seconds(clickableTargetMs)}: ${verdict(clickable <= clickableTargetMs)}`,
      ],
      [
        'JS on the wire before the modal',
        kb(js),
        `HTML only: ${kb(of((result) => result.htmlBytes))}`,
        `target ≤ ${kb(jsTargetBytes)}: ${verdict(js <= jsTargetBytes)}; ${of((result) => result.jsFiles)} files`,
      ],
      [
        'Pressing Pay: to the dialog',
        seconds(of((result) => result.modalMs)),
        `+${kb(of((result) => result.modalJsBytes))} JS`,
        'the wallet stack, loaded on intent',
      ],
    ],
  )
  if (clickable > clickableTargetMs || js > jsTargetBytes) exitCode = 1
} catch (error) {
  console.error(
    `✖ pay page bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  )
  exitCode = 1
} finally {
  await browser?.close().catch(() => {})
  await stack?.stop()
}
process.exit(exitCode)
