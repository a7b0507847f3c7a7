import { AppError } from '@quicklinks/core/app-error'
import { QueryClient } from '@tanstack/react-query'

/** One QueryClient per app (and per test). Client errors (4xx) are not worth retrying. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => {
          if (error instanceof AppError && error.status >= 400 && error.status < 500) return false
          return failureCount < 2
        },
      },
      mutations: { retry: false },
    },
  })
}
