import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { toast } from '../ui/use-toast'
import { AppProviders } from './providers'
import { createQueryClient } from './query-client'

describe('app providers', () => {
  it('mount the toast area with the first toast, not before, and keep it', async () => {
    const user = userEvent.setup()
    render(
      <AppProviders queryClient={createQueryClient()}>
        <button type="button" onClick={() => toast({ title: 'Link copied' })}>
          Copy
        </button>
      </AppProviders>,
    )
    expect(screen.queryByRole('region', { name: /Notifications/ })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Copy' }))
    expect(await screen.findByText('Link copied')).toBeTruthy()
    expect(screen.getByRole('region', { name: /Notifications/ })).toBeTruthy()
  })
})
