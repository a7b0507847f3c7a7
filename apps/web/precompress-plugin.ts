import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin } from 'vite'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Text-like files worth compressing; images, fonts and source maps are left as they are. */
const compressiblePattern = /\.(?:js|mjs|css|html|svg|json|txt|xml|wasm|webmanifest|ico)$/

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name)
      return entry.isDirectory() ? listFiles(path) : Promise.resolve([path])
    }),
  )
  return nested.flat()
}

/**
 * Writes `file.br` (brotli, quality 11) and `file.gz` (gzip, level 9) beside each compressible
 * file of `dir`, each only when it is smaller than the file. The server sends them by
 * Accept-Encoding (@fastify/static's preCompressed), so no request pays for compression.
 * Rejects when a file cannot be read or written.
 */
export async function precompressDirectory(dir: string): Promise<{ files: number; bytes: number }> {
  const files = (await listFiles(dir)).filter((path) => compressiblePattern.test(path))
  let bytes = 0
  await Promise.all(
    files.map(async (path) => {
      const content = await readFile(path)
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
      ])
      if (br.length < content.length) await writeFile(`${path}.br`, br)
      if (gz.length < content.length) await writeFile(`${path}.gz`, gz)
      bytes += content.length
    }),
  )
  return { files: files.length, bytes }
}

/** The build step of `precompressDirectory` over Vite's output directory, after every file is written. */
export function precompressPlugin(): Plugin {
  let outDir = ''
  return {
    name: 'quicklinks:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    async closeBundle() {
      const { files, bytes } = await precompressDirectory(outDir)
      this.info(`precompressed ${files} files (${Math.round(bytes / 1024)} KB) as .br and .gz`)
    },
  }
}
