/** The `type` of the message the callback page posts to its opener. */
export const oauthResultMessageType = 'QUICKLINKS_OAUTH_RESULT'

/**
 * The callback page's one script (allowed by its hash in the page's CSP): posts the embedded
 * message to the opener, to the app's origin only, and closes the popup a moment later (the
 * message is delivered first). Without an opener (the
 * page opened some other way) it only shows the text.
 */
export const oauthCallbackScript =
  "(function(){var node=document.getElementById('oauth-result');if(!node)return;var data=JSON.parse(node.textContent||'{}');if(window.opener&&data.message){window.opener.postMessage(data.message,data.targetOrigin);setTimeout(function(){window.close();},100);}})();"

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/** JSON safe inside a <script> element: no `<`, `>`, `&` or line separators in clear. */
function toScriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/** The small page the providers' redirect lands on in popup mode (and for an unreadable state). */
export function renderOAuthCallbackPage(input: {
  text: string
  message?: unknown
  targetOrigin?: string
}): string {
  const data =
    input.message === undefined
      ? ''
      : `<script type="application/json" id="oauth-result">${toScriptJson({
          message: input.message,
          targetOrigin: input.targetOrigin,
        })}</script><script>${oauthCallbackScript}</script>`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Sign-in</title>
<style>body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;padding:1rem;box-sizing:border-box}p{max-width:28rem;text-align:center;line-height:1.5}</style>
</head>
<body>
<main><p role="status">${escapeHtml(input.text)}</p></main>
${data}
</body>
</html>
`
}
