import type { ExportedSecret } from './handle-export-request.ts'

const copyResetMs = 2000

/**
 * Shows an exported secret in the export frame's own DOM: the seed phrase as a numbered grid of
 * words (an ordered list, so screen readers read the numbers), or the private key in a monospace
 * block; with a warning and a Copy button that writes to the clipboard from inside the frame
 * (the iframe is created with `allow="clipboard-write"`). Replaces whatever `root` held.
 *
 * Never throws; a refused clipboard write says so on the button.
 */
export function renderExportedSecret(root: HTMLElement, secret: ExportedSecret): void {
  const document = root.ownerDocument
  const make = <K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string) => {
    const element = document.createElement(tag)
    if (className) element.className = className
    if (text !== undefined) element.textContent = text
    return element
  }

  const heading = make(
    'h1',
    'title',
    secret.kind === 'SEED_PHRASE' ? 'Your recovery phrase' : 'Your private key',
  )
  const warning = make(
    'p',
    'warning',
    'Anyone with this can take your funds. Never share it, and store it somewhere only you can reach.',
  )

  let secretText: string
  let secretElement: HTMLElement
  if (secret.kind === 'SEED_PHRASE') {
    secretText = secret.words.join(' ')
    const list = make('ol', 'words')
    list.setAttribute('aria-label', 'Recovery phrase words')
    secret.words.forEach((word, index) => {
      const item = make('li', 'word')
      item.append(make('span', 'word-number', `${index + 1}.`), make('span', 'word-text', word))
      list.append(item)
    })
    secretElement = list
  } else {
    secretText = secret.privateKey
    secretElement = make('code', 'private-key', secret.privateKey)
    secretElement.setAttribute('aria-label', 'Private key')
  }

  const button = make('button', 'copy', 'Copy')
  button.type = 'button'
  const status = make('span', 'copy-status')
  status.setAttribute('role', 'status')
  let resetTimer: ReturnType<typeof setTimeout> | undefined
  button.addEventListener('click', () => {
    void navigator.clipboard.writeText(secretText).then(
      () => {
        button.textContent = 'Copied'
        status.textContent = 'Copied to the clipboard'
      },
      () => {
        button.textContent = 'Copy failed'
        status.textContent = 'The clipboard is not available; write it down instead'
      },
    )
    clearTimeout(resetTimer)
    resetTimer = setTimeout(() => {
      button.textContent = 'Copy'
      status.textContent = ''
    }, copyResetMs)
  })

  const actions = make('div', 'actions')
  actions.append(button, status)
  root.replaceChildren(heading, warning, secretElement, actions)
}
