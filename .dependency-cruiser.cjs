// dependency-cruiser (run by `npm run check`, scripts/check.mjs): no import cycle between files,
// and none between folders, in any app's or package's source. A folder cycle (relayer imports
// routing, routing imports relayer) is how a module's internals start leaking into its neighbours;
// shared code goes into a folder both can import (services/chains, services/tokens, …).
//
// Tests (*.test.ts[x]) are left out: a test may import from anywhere it needs to set its scene, and
// nothing imports a test, so it can close no cycle that the product's code would have.

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Two files import each other, directly or through others.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      severity: 'error',
      comment: 'Two folders import each other, directly or through others: move what both need to a third.',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'payments-verifier-knows-no-provider',
      severity: 'error',
      comment:
        'Route building, intents and tracking reach a provider only through RoutingProvider: a provider ' +
        '(local, squid, a later one) plugs in without a change to them (one verifier for all).',
      from: { path: '^apps/server/src/services/payments/(route|tracking)/' },
      to: { path: '^apps/server/src/services/payments/providers/' },
    },
    {
      name: 'deposit-view-loads-no-wallet-code',
      severity: 'error',
      comment:
        'The "Send from any wallet or exchange" view renders without the wallet stack (issue 33): it imports nothing of the pay modal, the wallet features or the app shell that loads wagmi.',
      from: { path: '^apps/web/src/features/deposits/' },
      to: { path: '^apps/web/src/(app|features/(pay|wallet|swap|routing))/' },
    },
    {
      name: 'core-imports-no-app',
      severity: 'error',
      comment:
        'packages/core holds the API contract (its schemas) and the shared error model for every app: it must not depend on one.',
      from: { path: '^packages/core/src/' },
      to: { path: '^apps/' },
    },
    {
      name: 'server-asks-the-signer',
      severity: 'error',
      comment:
        'The app server reaches the signer only through its doors (docs/decisions/0016): the plugin it ' +
        'mounts, the in-process API in src/api/, its migrations and its section of the environment ' +
        '(config/signer-env.ts, docs/decisions/0023); never its tables or services.',
      from: { path: '^apps/server/src/' },
      to: {
        path: '^apps/signer/src/',
        pathNot:
          '^apps/signer/src/(api/|routes/signer-plugin\\.ts$|db/signer-migrations\\.ts$|frames-server/build-frames-server\\.ts$|config/signer-env\\.ts$|signer-config\\.ts$|delivery\\.ts$)',
      },
    },
    {
      name: 'signer-depends-on-no-server',
      severity: 'error',
      comment:
        'The signer is one app with one door (docs/decisions/0016): the app server uses it, never the ' +
        'other way round; what both processes need lives in packages/runtime.',
      from: { path: '^apps/signer/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'runtime-imports-no-app',
      severity: 'error',
      comment: 'packages/runtime is the host both processes share (docs/decisions/0016): it imports no app.',
      from: { path: '^packages/runtime/' },
      to: { path: '^apps/' },
    },
    {
      name: 'packages-depend-on-no-app',
      severity: 'error',
      comment: 'A package (the SDK, the protocol, core…) is used by apps and never imports one.',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: {
      path: [
        '\\.test\\.tsx?$',
        '(^|/)node_modules/',
        '(^|/)dist/',
        '(^|/)\\.data/',
        '^packages/contracts/generated/',
      ],
    },
    // Workspace packages resolve through node_modules/@quicklinks/* to their src/, so cycles
    // across packages are seen too.
    includeOnly: { path: ['^apps/[^/]+/src/', '^apps/signer/frames/src/', '^packages/[^/]+/src/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
  },
}
