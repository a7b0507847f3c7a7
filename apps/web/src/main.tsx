import './styles.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router/dom'
import { AppProviders } from './app/providers'
import { createQueryClient } from './app/query-client'
import { createAppRouter } from './app/router'
import { captureAuthReturnParams } from './features/auth/auth-return-params'
import { api } from './lib/api-client'
import { startOfflineReplay } from './lib/offline-queue'
import { startThemeSync } from './lib/theme-store'

// Order matters: the auth-return parameters leave the address before the router reads it.
captureAuthReturnParams()
startThemeSync()
startOfflineReplay(() => api.replayOfflineQueue())

const container = document.getElementById('root')
if (container === null) throw new Error('index.html has no #root element')

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={createAppRouter()} />
    </AppProviders>
  </StrictMode>,
)
