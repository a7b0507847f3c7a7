import { readFile } from 'node:fs/promises'
import { AppError } from '@quicklinks/core/app-error'
import { type DevnetDeployment, devnetDeploymentSchema } from './devnet-deployment-schema.ts'

/**
 * Reads the devnet deployment file afresh on every call (the devnet may finish deploying after
 * the server starts). Throws AppError SERVICE_UNAVAILABLE when the file is missing, unreadable
 * or not a deployment, with a message saying what to do.
 */
export async function getDevnetDeploymentOrThrow(path: string): Promise<DevnetDeployment> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    const isMissing = (error as NodeJS.ErrnoException).code === 'ENOENT'
    throw new AppError('SERVICE_UNAVAILABLE', {
      message: `Cannot read devnet deployment file ${path}`,
      userMessage: isMissing
        ? 'The devnet has not been deployed yet. Start it with `npm start` (or `npm start -w packages/devnet`) and retry.'
        : 'The devnet deployment file cannot be read.',
      cause: error,
    })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new AppError('SERVICE_UNAVAILABLE', {
      message: `Devnet deployment file ${path} is not JSON`,
      userMessage:
        'The devnet deployment file is incomplete (is the devnet still deploying?). Retry shortly.',
      cause: error,
    })
  }
  const parsed = devnetDeploymentSchema.safeParse(json)
  if (!parsed.success) {
    throw new AppError('SERVICE_UNAVAILABLE', {
      message: `Devnet deployment file ${path} has an unexpected shape: ${parsed.error.message}`,
      userMessage: 'The devnet deployment file does not describe a deployment. Restart the devnet.',
      cause: parsed.error,
    })
  }
  return parsed.data
}
