// eth-url-parser ships no types; this is the part of its API the deposit tests use.
declare module 'eth-url-parser' {
  export type ParsedEthereumUrl = {
    scheme: string
    prefix?: string
    target_address: string
    chain_id?: string
    function_name?: string
    parameters?: Record<string, string>
  }
  export function parse(uri: string): ParsedEthereumUrl
  export function build(parsed: ParsedEthereumUrl): string
}
