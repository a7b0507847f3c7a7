import { AppError } from '@quicklinks/core/app-error'
import type { DevMail, DevSms } from '@quicklinks/core/dev-outbox'
import { Inbox, MessageSquareText, RefreshCw } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../ui/button'
import { Card } from '../../ui/card'
import { classNames } from '../../ui/class-names'
import { Skeleton } from '../../ui/skeleton'
import { useDevMail, useDevSms } from './dev-outbox'

// Links in a mail may open the app in the tab (a magic link) or a new one, after a click only; the
// mail's own scripts never run and it gets an opaque origin (no allow-scripts, no allow-same-origin).
const mailSandbox = 'allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation'

/**
 * /dev/mail (dev mode only): the mail and text messages this dev server sent, newest first, so a
 * newcomer signing up reads the code or opens the magic link here. Polls every 2 s.
 */
export function DevMailScreen() {
  const mail = useDevMail()
  const sms = useDevSms()
  const [selectedId, setSelectedId] = useState<string | undefined>(undefined)

  if (isNotFound(mail.error) || isNotFound(sms.error)) return <DevModeOff />

  const messages = mail.data ?? []
  const selected = messages.find((message) => message.id === selectedId) ?? messages[0]
  const refresh = () => {
    void mail.refetch()
    void sms.refetch()
  }

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:py-10">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="font-semibold text-2xl tracking-tight">Dev mail</h1>
          <p className="mt-1 text-muted text-sm">
            Mail and text messages this dev server sent. Nothing here leaves your machine.
          </p>
        </div>
        <Button variant="secondary" onClick={refresh} isBusy={mail.isFetching && !mail.isPending}>
          <RefreshCw aria-hidden="true" />
          Refresh
        </Button>
      </div>

      <section aria-labelledby="dev-mail-heading" className="mt-6">
        <h2 id="dev-mail-heading" className="font-semibold">
          Mail{mail.data === undefined ? '' : ` (${messages.length})`}
        </h2>
        {mail.error ? (
          <LoadError error={mail.error} />
        ) : mail.isPending ? (
          <ListSkeleton />
        ) : selected === undefined ? (
          <EmptyState
            icon={Inbox}
            text="No mail yet. Sign in with an e-mail address and the code arrives here."
          />
        ) : (
          <div className="mt-3 grid gap-4 md:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
            <ul aria-label="Mail" className="grid content-start gap-2">
              {messages.map((message) => (
                <li key={message.id}>
                  <button
                    type="button"
                    aria-current={message.id === selected.id ? 'true' : undefined}
                    onClick={() => setSelectedId(message.id)}
                    className={classNames(
                      'w-full rounded-control border px-3 py-2 text-left text-sm',
                      'focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2',
                      message.id === selected.id
                        ? 'border-accent bg-accent-soft'
                        : 'border-border bg-surface hover:bg-subtle',
                    )}
                  >
                    <span className="block truncate font-medium">{message.subject || '(no subject)'}</span>
                    <span className="block truncate text-muted">{message.to}</span>
                    <DateText date={message.date} />
                  </button>
                </li>
              ))}
            </ul>
            <MailPreview mail={selected} />
          </div>
        )}
      </section>

      <section aria-labelledby="dev-sms-heading" className="mt-10">
        <h2 id="dev-sms-heading" className="font-semibold">
          Text messages{sms.data === undefined ? '' : ` (${sms.data.length})`}
        </h2>
        {sms.error ? (
          <LoadError error={sms.error} />
        ) : sms.isPending ? (
          <ListSkeleton />
        ) : sms.data.length === 0 ? (
          <EmptyState icon={MessageSquareText} text="No text messages yet." />
        ) : (
          <ul aria-label="Text messages" className="mt-3 grid gap-2">
            {sms.data.map((message) => (
              <SmsItem key={message.id} message={message} />
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}

function MailPreview({ mail }: { mail: DevMail }) {
  return (
    <Card className="min-w-0 p-4 sm:p-6">
      <h3 className="break-words font-semibold text-lg">{mail.subject || '(no subject)'}</h3>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted">To</dt>
        <dd className="break-all">{mail.to}</dd>
        <dt className="text-muted">Received</dt>
        <dd>
          <DateText date={mail.date} />
        </dd>
      </dl>
      {mail.html === null ? (
        <p className="mt-4 text-muted text-sm">This mail has no HTML part.</p>
      ) : (
        <iframe
          title={`Mail: ${mail.subject}`}
          sandbox={mailSandbox}
          referrerPolicy="no-referrer"
          srcDoc={withLinksOnTop(mail.html)}
          className="mt-4 h-[28rem] w-full resize-y rounded-control border border-border bg-white"
        />
      )}
      <h4 className="mt-6 font-medium text-sm">Text part</h4>
      <pre className="mt-2 max-h-80 overflow-auto whitespace-pre-wrap break-words rounded-control bg-subtle p-3 font-mono text-sm">
        {mail.text}
      </pre>
    </Card>
  )
}

function SmsItem({ message }: { message: DevSms }) {
  return (
    <li className="rounded-control border border-border bg-surface px-3 py-2 text-sm">
      <div className="flex flex-wrap justify-between gap-2">
        <span className="font-medium font-mono">{message.to}</span>
        <DateText date={message.date} />
      </div>
      <p className="mt-1 whitespace-pre-wrap break-words">{message.body}</p>
    </li>
  )
}

function DevModeOff() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center px-4 py-16 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-subtle text-muted">
        <Inbox aria-hidden="true" className="size-7" />
      </span>
      <h1 className="mt-6 font-semibold text-2xl tracking-tight">Dev mode is off</h1>
      <p className="mt-2 text-muted">
        This server does not catch mail. Start it with DEV_MODE=true (npm start does) to read sign-in codes
        here.
      </p>
    </div>
  )
}

function EmptyState({ icon: Icon, text }: { icon: typeof Inbox; text: string }) {
  return (
    <div className="mt-3 flex items-center gap-3 rounded-card border border-border border-dashed px-4 py-6 text-muted text-sm">
      <Icon aria-hidden="true" className="size-5 shrink-0" />
      <p>{text}</p>
    </div>
  )
}

function ListSkeleton() {
  return (
    <div className="mt-3 grid gap-2">
      <Skeleton className="h-16" />
      <Skeleton className="h-16" />
    </div>
  )
}

function LoadError({ error }: { error: Error }) {
  const message = error instanceof AppError ? error.userMessage : error.message
  return (
    <p role="alert" className="mt-3 rounded-control bg-danger-soft px-3 py-2 text-danger text-sm">
      {message}
    </p>
  )
}

function DateText({ date }: { date: string }) {
  const parsed = new Date(date)
  return (
    <time dateTime={date} className="block text-muted text-xs">
      {Number.isNaN(parsed.getTime()) ? date : parsed.toLocaleString()}
    </time>
  )
}

function isNotFound(error: Error | null): boolean {
  return error instanceof AppError && error.code === 'NOT_FOUND'
}

/** Makes the mail's links open in the tab, not inside the frame (where the app would nest). */
function withLinksOnTop(html: string): string {
  const base = '<base target="_top">'
  return /<head[^>]*>/i.test(html)
    ? html.replace(/<head[^>]*>/i, (head) => `${head}${base}`)
    : `${base}${html}`
}
