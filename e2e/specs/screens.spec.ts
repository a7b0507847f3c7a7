import { join } from 'node:path'
import { expect, expectNoSeriousAxeViolations, test } from '../fixtures/test.ts'

/**
 * Every public screen at phone and desktop widths, light and dark: no serious accessibility
 * violation, nothing wider than the viewport, and a screenshot in e2e/.artifacts/screens to look at.
 */
const screens = [
  { name: 'landing', path: '/' },
  { name: 'login', path: '/login' },
  { name: 'pay-unavailable', path: '/pay/no-such-link' },
]
const viewports = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
]

for (const screen of screens) {
  for (const viewport of viewports) {
    for (const colorScheme of ['light', 'dark'] as const) {
      test(`${screen.name} at ${viewport.name} width in ${colorScheme}`, async ({ page }) => {
        await page.setViewportSize(viewport)
        await page.emulateMedia({ colorScheme })
        await page.goto(screen.path)
        await page.waitForLoadState('networkidle')
        await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? /dark/ : /^(?!.*dark)/)
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0)
        await expectNoSeriousAxeViolations(page)
        await page.screenshot({
          path: join(
            import.meta.dirname,
            '..',
            '.artifacts',
            'screens',
            `${screen.name}-${viewport.name}-${colorScheme}.png`,
          ),
          fullPage: true,
        })
      })
    }
  }
}
