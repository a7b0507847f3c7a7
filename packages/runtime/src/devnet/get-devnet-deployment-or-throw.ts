import { AppError } from '@quicklinks/core/app-error'
import { type DevnetDeployment, readDeployment } from '@quicklinks/devnet/devnet-deployment'

/**
 * Reads the devnet deployment file afresh on every call (the devnet may finish deploying after
 * the server starts), with the devnet package's own reader and schema. Throws AppError
 * SERVICE_UNAVAILABLE when the file is missing (with what to run) or unusable; the reason is
 * kept as the internal message for the logs.
 */
export async function getDevnetDeploymentOrThrow(path: string): Promise<DevnetDeployment> {
  try {
    return await readDeployment(path)
  } catch (error) {
    const isMissing = (error as { cause?: { code?: unknown } }).cause?.code === 'ENOENT'
    throw new AppError('SERVICE_UNAVAILABLE', {
      message: error instanceof Error ? error.message : String(error),
      userMessage: isMissing
        ? 'The devnet has not been deployed yet. Start it with `npm start` (or `npm start -w packages/devnet`) and retry.'
        : 'The devnet deployment file is not usable. Restart the devnet (`npm start`).',
      cause: error,
    })
  }
}
