import { Card } from '../../ui/card'
import { AuthPanel } from './auth-panel'

/** /login: the sign-in flow on its own page; a magic link lands here and is completed here. */
export function LoginScreen() {
  return (
    <div className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center sm:py-16">
      <Card className="w-full max-w-sm p-6 sm:p-8">
        <AuthPanel />
      </Card>
    </div>
  )
}
