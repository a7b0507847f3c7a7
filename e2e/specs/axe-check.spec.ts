import AxeBuilder from '@axe-core/playwright'
import { expect, expectNoSeriousAxeViolations, test } from '../fixtures/test.ts'

/**
 * The accessibility check every screen test runs (fixtures/test.ts) fails on a serious violation,
 * whether it sits in the page (axe runs in the page itself) or in a shown child frame (AxeBuilder,
 * frames included), and passes a clean page; a hidden frame is looked into by neither.
 */

const unlabelledImage = '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20">'
const page = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Check</title></head><body><main><h1>Check</h1>${body}</main></body></html>`

test('a clean page passes the accessibility check', async ({ page: browserPage }) => {
  await browserPage.setContent(page('<p>Readable text.</p>'))
  await expectNoSeriousAxeViolations(browserPage)
})

test('an image without a text alternative or unreadable text in the page fails it', async ({
  page: browserPage,
}) => {
  await browserPage.setContent(page(unlabelledImage))
  await expect(expectNoSeriousAxeViolations(browserPage)).rejects.toThrow(/image-alt/)
  await browserPage.setContent(page('<p style="color:#777;background:#888">Hard to read.</p>'))
  await expect(expectNoSeriousAxeViolations(browserPage)).rejects.toThrow(/color-contrast/)
})

test('an image without a text alternative inside a frame fails it', async ({ page: browserPage }) => {
  const frameDocument = page(unlabelledImage).replaceAll('"', '&quot;')
  await browserPage.setContent(page(`<iframe title="Inner" srcdoc="${frameDocument}"></iframe>`))
  await expect.poll(() => browserPage.frames().length).toBe(2)
  await expect(browserPage.frameLocator('iframe').locator('img')).toHaveCount(1)
  await expect(expectNoSeriousAxeViolations(browserPage)).rejects.toThrow(/image-alt: iframe/)
})

test('a hidden frame is looked into neither by AxeBuilder nor by the check', async ({
  page: browserPage,
}) => {
  const frameDocument = page(unlabelledImage).replaceAll('"', '&quot;')
  await browserPage.setContent(
    page(`<div style="display:none"><iframe title="Hidden" srcdoc="${frameDocument}"></iframe></div>`),
  )
  await expect.poll(() => browserPage.frames().length).toBe(2)
  await expect(browserPage.frameLocator('iframe').locator('img')).toHaveCount(1)
  const byAxeBuilder = (await new AxeBuilder({ page: browserPage }).analyze()).violations
  expect(byAxeBuilder.filter((violation) => violation.id === 'image-alt')).toEqual([])
  await expectNoSeriousAxeViolations(browserPage)
})
