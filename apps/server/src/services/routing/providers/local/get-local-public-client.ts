// Moved to services/chains (the relayer and the tracker share it, and must not import routing).
// This forwarder stays only for routes/dev/dev-explorer-routes.ts, whose owner switches its import
// to '../../services/chains/get-local-public-client.ts'; then delete this file.
export { getLocalPublicClient } from '../../../chains/get-local-public-client.ts'
