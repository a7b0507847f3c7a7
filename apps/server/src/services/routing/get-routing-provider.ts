import { AppError } from '@quicklinks/core/app-error'
import type { ServerConfig } from '../../env.ts'
import { createLocalRoutingProvider } from './providers/local/create-local-routing-provider.ts'
import type { RoutingProvider } from './routing-provider.ts'

function createUnavailableProvider(name: string): RoutingProvider {
  const fail = async (): Promise<never> => {
    throw new AppError('SERVICE_UNAVAILABLE', {
      message: `Routing provider ${name} is not built yet`,
      userMessage: `No chains configured: the ${name} routing provider is not available in this version. Set ROUTING_PROVIDER=local.`,
    })
  }
  return { name, chains: fail, tokens: fail, route: fail, status: fail }
}

/**
 * The routing provider ROUTING_PROVIDER selects. `squid` answers 503 until its adapter lands
 * with the payment-engine issue.
 */
export function getRoutingProvider(
  config: Pick<ServerConfig, 'routingProvider' | 'devnetDeploymentFile' | 'devMode'>,
): RoutingProvider {
  if (config.routingProvider === 'squid') return createUnavailableProvider('squid')
  return createLocalRoutingProvider({
    devnetDeploymentFile: config.devnetDeploymentFile,
    devMode: config.devMode,
  })
}
