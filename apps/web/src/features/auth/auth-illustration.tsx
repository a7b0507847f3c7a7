/**
 * The auth modal's flat illustration (docs/product.md#sign-in): a wallet card with a key, in
 * the theme's colours so it follows light and dark. Decorative only.
 */
export function AuthIllustration() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 160 96"
      className="mx-auto mb-4 h-20 w-auto"
      xmlns="http://www.w3.org/2000/svg"
    >
      <ellipse cx="80" cy="88" rx="56" ry="6" className="fill-subtle" />
      <rect x="28" y="18" width="96" height="62" rx="10" className="fill-accent" />
      <rect x="28" y="30" width="96" height="10" className="fill-accent-hover" />
      <rect x="92" y="48" width="40" height="22" rx="7" className="fill-surface" />
      <circle cx="104" cy="59" r="4" className="fill-accent" />
      <rect x="40" y="56" width="34" height="6" rx="3" className="fill-accent-soft" />
      <circle cx="126" cy="20" r="14" className="fill-success" />
      <path
        d="M120 20.5l4 4 8-8.5"
        fill="none"
        strokeWidth="3.5"
        strokeLinecap="round"
        strokeLinejoin="round"
        className="stroke-surface"
      />
    </svg>
  )
}
