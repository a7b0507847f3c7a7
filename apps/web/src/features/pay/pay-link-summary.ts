/** What the pay modal needs of a link: the public read's fields (the owner's full link has them too). */
export type PayLinkSummary = {
  /**
   * The link paid, sent with every route request (docs/api.md#route-request); null only for a
   * Self Swap into the signed-in user's own wallet, which pays no link (docs/decisions/0018).
   */
  id: string | null
  alias: string
  receiver_address: string
  chain: string
  chain_id: number
  token_name: string
  token_address: string | null
}
