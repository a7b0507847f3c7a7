import { payPageDataElementId } from '@quicklinks/core/api/pay-page-data'

// The characters that could end the element (`</script`), open a comment (`<!--`) or end a line
// in older JavaScript parsers: written as \u escapes, which JSON.parse reads back unchanged.
const unsafeInScript = /[<>&\u2028\u2029]/g

/** `value` as JSON that is safe as the text of an HTML `<script>` element. */
export function toScriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    unsafeInScript,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/**
 * The page's HTML with `body` (the link's public answer) as a JSON data block
 * (`<script type="application/json" id="pay-link-data">`) before `</head>`: the browser does not
 * run it (so the Content-Security-Policy has nothing to allow) and the web app reads it on start.
 * Without a `</head>` the HTML is returned unchanged.
 */
export function injectPayPageData(html: string, body: unknown): string {
  const element = `<script type="application/json" id="${payPageDataElementId}">${toScriptJson(body)}</script>`
  // A function as the replacement, so a `$` in the data is never read as a replacement pattern.
  return html.replace(/<\/head>/i, () => `    ${element}\n  </head>`)
}
