/**
 * The id of the `<script type="application/json">` element in the HTML of /pay/{slug} (and of
 * /pay/{slug}/{invoiceId}) holding the link's public read, exactly GET /api/pay/links/{slug}'s
 * answer (`{data: PublicLink}`). The pay page renders from it at once instead of asking the API
 * after its JavaScript has run (docs/decisions/0028-the-pay-page-loads-the-wallet-on-intent.md).
 */
export const payPageDataElementId = 'pay-link-data'
