/** What a shared pay link previews as: title and description, and the page's canonical URL. */
export type PayPageMeta = { title: string; description: string; url: string }

/** The preview of a pay page whose link is unknown or disabled (and of the site itself). */
export const genericPayPageMeta = {
  title: 'Quick Links',
  description: 'Pay in any token on any chain with Quick Links.',
} as const

/**
 * The preview of an enabled link: its alias as the title, its message (or 'Pay {alias} in any
 * token on any chain.') as the description, and `{origin}/pay/{slug}` as the URL.
 */
export function buildPayPageMeta(
  link: { alias: string; aliasSlug: string; message: string },
  publicOrigin: string,
): PayPageMeta {
  const message = link.message.trim()
  return {
    title: link.alias,
    description: message === '' ? `Pay ${link.alias} in any token on any chain.` : message,
    url: `${publicOrigin}/pay/${encodeURIComponent(link.aliasSlug)}`,
  }
}

/**
 * The preview of an invoice of an enabled link (/pay/{slug}/{invoiceId}): 'Pay {amount} {symbol}
 * to {alias}' as the title; 'Invoice from {alias} for {amount} {symbol}.' and its memo (on one line,
 * at most 200 characters) or 'Pay in any token on any chain.' as the description.
 */
export function buildInvoicePageMeta(
  link: { alias: string; aliasSlug: string },
  invoice: { id: string; amount: string; tokenSymbol: string; memo: string | null },
  publicOrigin: string,
): PayPageMeta {
  const amount = `${invoice.amount} ${invoice.tokenSymbol}`
  const memo = (invoice.memo ?? '').replace(/\s+/g, ' ').trim()
  const shortMemo = memo.length > 200 ? `${memo.slice(0, 199)}…` : memo
  return {
    title: `Pay ${amount} to ${link.alias}`,
    description: `Invoice from ${link.alias} for ${amount}. ${shortMemo === '' ? 'Pay in any token on any chain.' : shortMemo}`,
    url: `${publicOrigin}/pay/${encodeURIComponent(link.aliasSlug)}/${encodeURIComponent(invoice.id)}`,
  }
}

/** `text` safe inside an HTML attribute or element (&, <, >, " and ' escaped). */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

/**
 * The SPA's index.html with Open Graph and Twitter tags (og:title, og:description, og:url,
 * og:type, twitter:card summary, twitter:title, twitter:description) before `</head>`, its
 * `<title>` and meta description replaced; every value HTML-escaped. Without a `</head>` the HTML
 * is returned with only the title and description replaced.
 */
export function injectPayPageMeta(indexHtml: string, meta: PayPageMeta): string {
  const title = escapeHtml(meta.title)
  const description = escapeHtml(meta.description)
  const tags = [
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="Quick Links" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${escapeHtml(meta.url)}" />`,
    `<meta name="twitter:card" content="summary" />`,
    `<meta name="twitter:title" content="${title}" />`,
    `<meta name="twitter:description" content="${description}" />`,
  ]
  // Functions as replacements, so a `$` in the text is never read as a replacement pattern.
  return indexHtml
    .replace(/<title>[^<]*<\/title>/i, () => `<title>${title}</title>`)
    .replace(
      /<meta\s+name="description"[^>]*>/i,
      () => `<meta name="description" content="${description}" />`,
    )
    .replace(/<\/head>/i, () => `    ${tags.join('\n    ')}\n  </head>`)
}
