import type { APIRequestContext, Page } from '@playwright/test'
import { english, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { openExportWalletDialog } from '../fixtures/export-dialog.ts'
import { getSessionUser, signUpWithEmailCode } from '../fixtures/sign-in.ts'
import { expect, expectNoSeriousAxeViolations, test } from '../fixtures/test.ts'

/**
 * How often each BIP-39 word occurs in `html` as a whole token (tokens are runs of letters and
 * digits, so hex strings and ids never count as words).
 */
function countBip39Words(html: string): Record<string, number> {
  const words = new Set(english)
  const counts: Record<string, number> = {}
  for (const token of html.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (words.has(token)) counts[token] = (counts[token] ?? 0) + 1
  }
  return counts
}

type RevealedSeedPhrase = { address: string; words: string[]; content: string; page: Page }

/**
 * Signs a new user up, opens Settings → Export wallet → Show seed phrase, and reads the words
 * from inside the export frame. `content` is the top document's HTML once the words show.
 */
async function revealSeedPhrase(page: Page, request: APIRequestContext): Promise<RevealedSeedPhrase> {
  // The beta banner appears on a timer; keep it away so both pages are in the same state.
  await page.addInitScript(() => localStorage.setItem('beta-flag-closed-at', new Date().toISOString()))
  await signUpWithEmailCode(page, request)
  const { address } = await getSessionUser(page)
  await page.goto('/settings')
  const dialog = await openExportWalletDialog(page)
  await expect(dialog.getByRole('radio', { name: 'Seed phrase' })).toBeChecked()
  await dialog.getByRole('button', { name: 'Show seed phrase' }).click()
  const list = page
    .frameLocator('iframe[title="Wallet export"]')
    .getByRole('list', { name: 'Recovery phrase words' })
  await expect(list).toBeVisible({ timeout: 20_000 })
  const words = (await list.locator('.word-text').allTextContents()).map((word) => word.trim())
  await expect(dialog.getByRole('button', { name: 'Done' })).toBeVisible()
  return { address, words, content: await page.content(), page }
}

test.describe('wallet export', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

  test('Settings shows the address masked 6…4 and copies it in full', async ({
    page,
    request,
    consoleErrors,
  }) => {
    await signUpWithEmailCode(page, request)
    const { address } = await getSessionUser(page)
    await page.goto('/settings')
    const masked = `${address.slice(0, 6)}…${address.slice(-4)}`
    await expect(page.getByRole('main')).toContainText(new RegExp(masked, 'i'))
    await expect(page.getByRole('main')).not.toContainText(new RegExp(address.slice(6, -4), 'i'))
    await page.getByRole('button', { name: 'Copy address' }).click()
    await expect(page.getByText('Address Copied', { exact: true })).toBeVisible()
    await expect(page.getByText('Address copied', { exact: true })).toBeAttached()
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(copied.toLowerCase()).toBe(address.toLowerCase())

    // The wallet's Solana account (the signer user the SDK persisted), masked the same way.
    const signerUser = await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('quicklinks:signer') ?? '{}') as {
        state?: { user?: { address?: string; solanaAddress?: string | null } }
      }
      return stored.state?.user
    })
    expect(signerUser?.address?.toLowerCase()).toBe(address.toLowerCase())
    const solanaAddress = signerUser?.solanaAddress
    expect(solanaAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    if (typeof solanaAddress !== 'string') throw new Error('no Solana address')
    const solanaRow = page.locator('dl > div', { has: page.locator('dt', { hasText: 'Solana address' }) })
    await expect(solanaRow.locator('dd')).toHaveText(
      `${solanaAddress.slice(0, 6)}…${solanaAddress.slice(-4)}`,
    )
    await expect(page.getByRole('main')).not.toContainText(solanaAddress.slice(6, -4))
    const copySolana = solanaRow.getByRole('button', { name: 'Copy Solana address' })
    await expect(copySolana).toHaveAccessibleDescription(solanaAddress)
    // Keyboard: the copy button takes the focus and copies with Enter.
    await copySolana.focus()
    await expect(copySolana).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(
      page.getByText('Your Solana address has been copied to your clipboard.', { exact: true }),
    ).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(solanaAddress)
    await expectNoSeriousAxeViolations(page)
    expect(consoleErrors).toEqual([])
  })

  test('the seed phrase shows inside the export frame, derives the user’s address, and never reaches the page', async ({
    page,
    browser,
    request,
    consoleErrors,
  }) => {
    // Two sign-ups, two exports and an axe run: room for a loaded two-core runner.
    test.slow()
    // A second user in a second browser: the page around the frame must not depend on the secret.
    const otherContext = await browser.newContext()
    const [first, second] = await Promise.all([
      revealSeedPhrase(page, request),
      revealSeedPhrase(await otherContext.newPage(), request),
    ])

    for (const { address, words } of [first, second]) {
      expect([12, 24]).toContain(words.length)
      expect(mnemonicToAccount(words.join(' ')).address.toLowerCase()).toBe(address.toLowerCase())
    }
    expect(first.words).not.toEqual(second.words)

    const { words, content } = first
    // Not the phrase, not any two of its words in a row, nowhere in the top document's HTML.
    expect(content).not.toContain(words.join(' '))
    for (let index = 1; index < words.length; index += 1) {
      expect(content).not.toMatch(
        new RegExp(`(^|[^a-z])${words[index - 1]}[^a-z0-9]+${words[index]}([^a-z]|$)`, 'i'),
      )
    }
    // And no single word either: each of the secret's words occurs exactly as often on the other
    // user's page, so none of them comes from the secret (UI copy such as 'wallet' occurs alike).
    const firstCounts = countBip39Words(first.content)
    const secondCounts = countBip39Words(second.content)
    for (const word of words)
      expect(firstCounts[word] ?? 0, `occurrences of "${word}"`).toBe(secondCounts[word] ?? 0)
    // The frame's container holds the frame and nothing else; its address carries only the theme.
    const container = page.getByTestId('export-frame-container')
    expect(
      await container.evaluate((element) => [...element.children].map((child) => child.tagName)),
    ).toEqual(['IFRAME'])
    const src = await page.locator('iframe[title="Wallet export"]').getAttribute('src')
    expect([...new URL(src ?? '').searchParams.keys()].filter((name) => name !== 'theme')).toEqual([])
    await expectNoSeriousAxeViolations(page)

    await page.getByRole('dialog', { name: 'Export wallet' }).getByRole('button', { name: 'Done' }).click()
    await expect(page.getByRole('dialog', { name: 'Export wallet' })).toBeHidden()
    await expect(page.locator('iframe[title="Wallet export"]')).toHaveCount(0)
    expect(await page.content()).not.toContain(words.join(' '))
    await otherContext.close()
    expect(consoleErrors).toEqual([])
  })

  test('the private key shows inside the export frame and belongs to the user’s address', async ({
    page,
    request,
  }) => {
    await signUpWithEmailCode(page, request)
    const { address } = await getSessionUser(page)
    await page.goto('/settings')
    const dialog = await openExportWalletDialog(page)
    await dialog.getByRole('radio', { name: 'Private key' }).check()
    await dialog.getByRole('button', { name: 'Show private key' }).click()
    const key = page.frameLocator('iframe[title="Wallet export"]').getByLabel('Private key')
    await expect(key).toBeVisible({ timeout: 20_000 })
    const text = (await key.textContent())?.trim() ?? ''
    const privateKey = (text.startsWith('0x') ? text : `0x${text}`) as `0x${string}`
    expect(privateKeyToAccount(privateKey).address.toLowerCase()).toBe(address.toLowerCase())
    expect(await page.content()).not.toContain(text.replace(/^0x/, ''))
  })
})
