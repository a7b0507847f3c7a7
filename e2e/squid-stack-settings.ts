/**
 * The Squid-configured app server the e2e suite runs beside its main stack (started by
 * start-squid-stack.ts as the config's second web server): ROUTING_PROVIDER=squid, Squid being the
 * loopback stand-in of packages/devnet, the chains being the main stack's devnet.
 */
const port = Number(process.env.E2E_SQUID_PORT ?? 3110)

export const squidStack = {
  /** The app server (the frames origin is port + 1, the Squid stand-in port + 2). */
  port,
  framesPort: port + 1,
  standInPort: port + 2,
  smtpPort: Number(process.env.E2E_SQUID_SMTP_PORT ?? 2626),
  /** Its own data (PGlite, keys), emptied on every start. */
  dataDir: process.env.E2E_SQUID_DATA_DIR ?? '.data/e2e-squid',
  /** The x-integrator-id the server sends and the stand-in requires. */
  integratorId: 'e2e',
  /**
   * WALLETCONNECT_PROJECT_ID of this server (the main stack has none): its pay modal offers
   * WalletConnect, made from this id at run time. Not a real project; nothing reaches the relay.
   */
  walletConnectProjectId: 'e2e0c0ffee0c0ffee0c0ffee0c0ffee0',
  baseURL: `http://localhost:${port}`,
} as const
