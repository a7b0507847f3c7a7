import { AppError } from '@quicklinks/core/app-error'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Card } from '../../ui/card'
import { Skeleton } from '../../ui/skeleton'
import { noticeSettingsQueryOptions, useUpdateNoticeSettings } from './notices-queries'
import { SectionMessages } from './section-messages'

const messageOf = (error: unknown, fallback: string) =>
  error instanceof AppError ? error.userMessage : fallback

/**
 * Settings' 'E-mail notices' (docs/api.md#notices): the daily payment digest switch, saved as soon
 * as it changes. The mail on each payment is switched per link, in the link form; this says so.
 */
export function NoticesSection() {
  const settings = useQuery(noticeSettingsQueryOptions())
  const update = useUpdateNoticeSettings()
  const [actionError, setActionError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)

  const setDigest = async (isDaily: boolean) => {
    setActionError(null)
    setNotice(null)
    try {
      await update.mutateAsync({ paymentDigest: isDaily ? 'daily' : 'off' })
      setNotice(isDaily ? 'Daily digest on.' : 'Daily digest off.')
    } catch (failure) {
      setActionError(messageOf(failure, 'Could not save your e-mail notices. Try again.'))
    }
  }

  return (
    <Card className="mt-4 p-6">
      <section aria-labelledby="notices-heading">
        <h2 id="notices-heading" className="font-semibold">
          E-mail notices
        </h2>
        <p className="mt-1 text-muted text-sm">
          Each link e-mails you on every verified payment unless you turn that off in the link's settings.
        </p>
        {settings.isPending ? (
          <Skeleton className="mt-4 h-11 w-full" />
        ) : settings.data === undefined ? null : (
          <label className="mt-4 flex min-h-11 cursor-pointer items-start gap-3 text-sm">
            <input
              type="checkbox"
              className="mt-0.5 size-4 accent-[var(--ql-accent)]"
              checked={settings.data.paymentDigest === 'daily'}
              disabled={update.isPending}
              aria-describedby="notices-digest-help"
              onChange={(event) => void setDigest(event.target.checked)}
            />
            <span>
              <span className="font-medium">Daily payment digest</span>
              <span id="notices-digest-help" className="block text-muted">
                One e-mail a day with the previous day's payments (UTC): how many, the totals per token and
                each payment. None on a day without payments.
              </span>
            </span>
          </label>
        )}
        <SectionMessages
          loadError={
            settings.isError ? messageOf(settings.error, 'Could not load your e-mail notices.') : null
          }
          actionError={actionError}
          notice={notice}
        />
      </section>
    </Card>
  )
}
