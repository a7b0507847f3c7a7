import { buildSlug, isReservedSlug } from '@quicklinks/core/slug'
import { Navigate, useParams } from 'react-router'
import { NotFoundScreen } from './not-found-screen'

/**
 * `/{slug}` that is no app route → `/pay/{slug}` (replace; docs/product.md#public-address). A slug is the
 * alias lowercased with whitespace replaced by hyphens, so `/My Shop` reaches `/pay/my-shop`.
 */
export function SlugRedirect() {
  const { slug = '' } = useParams()
  const normalised = buildSlug(slug)
  if (normalised.length === 0 || isReservedSlug(normalised)) return <NotFoundScreen />
  return <Navigate to={`/pay/${encodeURIComponent(normalised)}`} replace />
}
