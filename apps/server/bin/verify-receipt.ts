// `npm run verify-receipt -- <receipt-url> --rpc <rpc-url> [--rpc <chainId>=<url> ...] [--signer <address>]`
// (docs/api.md#verify-receipt): checks a Quick Links receipt without trusting the server that
// served it. Prints "verified" (exit 0), "signature invalid…" or "does not match the chain: <why>"
// (exit 1), or "could not verify: <why>" (exit 2: a network or usage problem, no verdict).

import { checkReceiptUrl, parseVerifyReceiptArguments } from './check-receipt-url.ts'

try {
  const options = parseVerifyReceiptArguments(process.argv.slice(2))
  const outcome = await checkReceiptUrl(options)
  process.stdout.write(`${outcome.line}\n`)
  process.exitCode = outcome.isVerified ? 0 : 1
} catch (error) {
  process.stdout.write(`could not verify: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 2
}
