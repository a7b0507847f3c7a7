/** What the pay modal needs of a link: the public read's fields (the owner's full link has them too). */
export type PayLinkSummary = {
  alias: string
  receiver_address: string
  chain: string
  chain_id: number
  token_name: string
  token_address: string | null
}
