import { NavLink } from 'react-router'
import { classNames } from '../../ui/class-names'

const tabClassName = ({ isActive }: { isActive: boolean }) =>
  classNames(
    'inline-flex min-h-11 items-center border-b-2 px-3 font-medium text-sm',
    isActive ? 'border-accent text-fg' : 'border-transparent text-muted hover:text-fg',
  )

/** The dashboard's tabs: Links (/dashboard) and Payments (/dashboard/payments). */
export function DashboardTabs() {
  return (
    <nav aria-label="Dashboard" className="mb-6 flex gap-2 border-border border-b">
      <NavLink to="/dashboard" end className={tabClassName}>
        Links
      </NavLink>
      <NavLink to="/dashboard/payments" className={tabClassName}>
        Payments
      </NavLink>
    </nav>
  )
}
