import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../../../../test/build-test-app.ts'
import { createWorkerRounds, type WorkerRounds } from '../../../../../../test/create-worker-rounds.ts'
import { getDevnetRelayerPrivateKey } from '../../../../../../test/payment-test-kit.ts'
import { relayerPayerIndex as payerIndex, useRelayerScene } from '../../../../../../test/relayer-scene.ts'
import {
  getTestFills,
  payTestRoute,
  readTestDeposit,
  waitForTestValue,
} from '../../../../../../test/relayer-test-kit.ts'

// Two app instances on one database and one relayer key: one writer relays, the other waits for
// its writer lock and takes over when it stops (the set-up is shared with relayer-matching.test.ts).

const scene = useRelayerScene()

// Chain round trips on a CI runner shared by every test project: more room than the default 30 s.
describe('the relayer across app instances', { timeout: 60_000 }, () => {
  it('two app instances on one database relay with one writer, each deposit filled once, and the other takes over', async () => {
    const { devnet, database, quoteUsdcRoute } = scene
    // Each instance's worker rounds, so the test waits for rounds instead of time.
    const rounds = new Map<TestApp, WorkerRounds>()
    const startApp = async () => {
      const appRounds = createWorkerRounds()
      const testApp = await buildTestApp(
        {
          devMode: true,
          devnetDeploymentFile: devnet.deploymentFile,
          relayerPrivateKey: getDevnetRelayerPrivateKey(),
          workerIntervalMs: 100,
        },
        { database, startWorkers: true, onWorkerRound: appRounds.onWorkerRound },
      )
      rounds.set(testApp, appRounds)
      return testApp
    }
    const apps = [await startApp(), await startApp()]
    const roundsOf = (testApp: TestApp): WorkerRounds => {
      const appRounds = rounds.get(testApp)
      if (!appRounds) throw new Error('an app without its rounds')
      return appRounds
    }
    let closed: TestApp | undefined
    // The next relayer round of any instance still running.
    const nextRelayerRound = () =>
      Promise.race(
        apps.filter((testApp) => testApp !== closed).map((testApp) => roundsOf(testApp).next('relayer')),
      )
    const lockMessage = 'Relayer holds the writer lock of its key'
    const writers = () => apps.filter((testApp) => testApp.logs.some((line) => line.msg === lockMessage))
    try {
      const payments = [
        { from: 8453, to: 42161, amount: parseUnits('3', 6) },
        { from: 42161, to: 8453, amount: parseUnits('2', 6) },
      ]
      const paid = []
      for (const payment of payments) {
        const { intentId, route } = await quoteUsdcRoute(payment.from, payment.to, payment.amount)
        const deposit = await payTestRoute(
          devnet,
          payment.from,
          payerIndex,
          route,
          devnet.token(payment.from, 'USDC'),
          payment.amount,
        )
        paid.push({ ...payment, intentId, deposit })
      }
      for (const payment of paid) {
        await waitForTestValue(
          async () => {
            const row = await readTestDeposit(database, payment.deposit.orderKey).catch(() => undefined)
            return row?.state === 'settled' ? row : undefined
          },
          `settlement of ${payment.intentId}`,
          nextRelayerRound,
        )
      }
      expect(writers().length).toBe(1)
      const [writer] = writers()
      const other = apps.find((testApp) => testApp !== writer)
      if (!writer || !other) throw new Error('expected one writer and one waiting instance')
      expect(
        other.logs.some(
          (line) => line.msg === 'Another instance relays with this key; waiting for its writer lock',
        ),
      ).toBe(true)

      // The writer stops: the other instance takes the lock and relays the next payment.
      await writer.app.close()
      closed = writer
      const { intentId, route } = await quoteUsdcRoute(8453, 43114, parseUnits('1', 6))
      const last = await payTestRoute(
        devnet,
        8453,
        payerIndex,
        route,
        devnet.token(8453, 'USDC'),
        parseUnits('1', 6),
      )
      await waitForTestValue(
        async () => {
          const row = await readTestDeposit(database, last.orderKey).catch(() => undefined)
          return row?.state === 'settled' ? row : undefined
        },
        'settlement after the takeover',
        nextRelayerRound,
      )
      expect(other.logs.some((line) => line.msg === lockMessage)).toBe(true)

      // A few more rounds of the remaining instance (every chain's lane) change nothing.
      await roundsOf(other).settle('relayer', 3)
      for (const payment of [...paid, { to: 43114, intentId }]) {
        expect(await getTestFills(devnet, payment.to, payment.intentId)).toHaveLength(1)
      }
    } finally {
      for (const testApp of apps) await testApp.app.close()
    }
  })
})
