import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream, existsSync, mkdirSync, rmSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { type ImportedSnapshot, importSnapshot } from '@weft/store'
import type { NetworkName } from '@weft/types'
import type { Logger } from 'pino'
import { BootstrapError } from '../errors.js'
import type { PublishedSnapshot, SnapshotManifest } from './snapshot-publisher.js'

/** Options of `bootstrapStore`. */
export interface BootstrapOptions {
  /** A publisher's `manifest.json` (its newest snapshot of the network is taken), or one snapshot file. */
  readonly url: string
  /** The node's data folder: bootstrapped only when it holds no store. */
  readonly data: string
  readonly network: NetworkName
  readonly log: Logger
  /** Attempts of the download in a row that add no byte before it is given up (default 5). */
  readonly attempts?: number
  /** Milliseconds before the first retry, doubled at each (default 1,000). */
  readonly retryDelay?: number
  readonly signal?: AbortSignal
}

// The folder, inside the data folder, that holds the download until it is imported (the import leaves it alone).
const downloads = '.bootstrap'
// How often the download's progress is logged.
const progressEveryMs = 5000

/**
 * Gives an empty data folder the store of a published snapshot: reads the manifest, downloads the
 * newest snapshot of the network into `<data>/.bootstrap` (a download cut short resumes with an HTTP
 * Range request, also after a restart), checks its size and SHA-256 against the manifest, imports it
 * (every block validated, the file's own count and checksum verified) and deletes the download.
 * Answers undefined, doing nothing, when the folder holds a store already. A download whose bytes
 * differ from the manifest's is deleted; a failed import leaves no store behind (`BOOTSTRAP_FAILED`,
 * with the reason).
 */
export async function bootstrapStore(options: BootstrapOptions): Promise<ImportedSnapshot | undefined> {
  const { url, network, log } = options
  const data = resolve(options.data)
  if (existsSync(join(data, 'CURRENT'))) {
    log.info({ data }, 'the data folder holds a store: --bootstrap-from is not used')
    return undefined
  }
  const wanted = await wantedSnapshot(url, network, options.signal)
  const folder = join(data, downloads)
  mkdirSync(folder, { recursive: true })
  const part = join(folder, `${wanted.file.replace(/[^\w.-]/g, '_')}.part`)
  log.info({ url: wanted.url, bytes: wanted.bytes, blocks: wanted.blocks }, 'bootstrap: downloading a snapshot')
  await download(wanted, part, options)
  if (wanted.sha256 !== undefined) {
    const sha256 = await fileSha256(part)
    if (sha256 !== wanted.sha256) {
      rmSync(folder, { recursive: true, force: true })
      throw new BootstrapError(
        'checksum',
        `Expected the snapshot ${wanted.url} to have the SHA-256 its manifest gives, ${wanted.sha256}, received bytes with ${sha256}: the download was deleted`,
      )
    }
  }
  log.info({ file: part }, 'bootstrap: importing the snapshot (every block is validated)')
  let lastLog = 0
  try {
    const imported = await importSnapshot(createReadStream(part), {
      path: data,
      network,
      keep: [downloads],
      onProgress: (blocks) => {
        if (Date.now() - lastLog < progressEveryMs) return
        lastLog = Date.now()
        log.info({ blocks, of: wanted.blocks }, 'bootstrap: importing')
      },
      onRulesCheck: ({ height, top }) => log.info({ height: Math.min(height, top), top }, 'bootstrap: checking every block by every rule'),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })
    log.info({ blocks: imported.blocks, network: imported.network }, 'bootstrap: the snapshot is imported; the node starts from it')
    return imported
  } catch (error) {
    throw new BootstrapError('import', `Expected the snapshot ${wanted.url} to import, but it failed: ${(error as Error).message}`, {
      cause: error,
    })
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** The snapshot a bootstrap downloads: its URL, and what the manifest says of it, if one named it. */
interface WantedSnapshot {
  readonly url: string
  readonly file: string
  readonly bytes?: number
  readonly blocks?: number
  readonly sha256?: string
}

// The newest snapshot of `network` in the manifest at `url`; a URL that names no .json file is the snapshot itself.
async function wantedSnapshot(url: string, network: NetworkName, signal: AbortSignal | undefined): Promise<WantedSnapshot> {
  const path = new URL(url).pathname
  if (!path.endsWith('.json')) return { url, file: path.split('/').at(-1) || 'snapshot.gz' }
  let manifest: SnapshotManifest
  try {
    const response = await fetch(url, signal === undefined ? {} : { signal })
    if (!response.ok) throw new Error(`it answered ${response.status}`)
    manifest = (await response.json()) as SnapshotManifest
  } catch (error) {
    throw new BootstrapError('manifest', `Expected a snapshot manifest at ${url}, but ${(error as Error).message}`, { cause: error })
  }
  const entries: unknown = manifest?.snapshots
  const entry = Array.isArray(entries) ? (entries as PublishedSnapshot[]).find((snapshot) => snapshot?.network === network) : undefined
  if (manifest?.format !== 'weft-snapshot-manifest' || entry === undefined || typeof entry.file !== 'string')
    throw new BootstrapError('manifest', `Expected the manifest at ${url} to list a snapshot of ${network}, found none`)
  return { url: new URL(entry.file, url).href, file: entry.file, bytes: entry.bytes, blocks: entry.blocks, sha256: entry.sha256 }
}

// Downloads `wanted` into `part`, from where an earlier attempt stopped: a Range request continues it
// (a server that ignores Range sends it whole, and the part starts again). Gives up after `attempts`
// failed attempts in a row that added nothing.
async function download(wanted: WantedSnapshot, part: string, options: BootstrapOptions): Promise<void> {
  const { log, signal } = options
  const attempts = options.attempts ?? 5
  let delay = options.retryDelay ?? 1000
  let failures = 0
  for (;;) {
    const have = sizeOf(part)
    if (wanted.bytes !== undefined && have === wanted.bytes) return
    try {
      const response = await fetch(wanted.url, {
        headers: have > 0 ? { range: `bytes=${have}-` } : {},
        ...(signal === undefined ? {} : { signal }),
      })
      if (response.status !== 200 && response.status !== 206) throw new Error(`it answered ${response.status}`)
      const from = response.status === 206 ? have : 0
      const total = wanted.bytes ?? from + Number(response.headers.get('content-length') ?? Number.NaN)
      let got = from
      let lastLog = Date.now()
      const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>)
      body.on('data', (chunk: Buffer) => {
        got += chunk.length
        if (got > from) failures = 0
        if (Date.now() - lastLog < progressEveryMs) return
        lastLog = Date.now()
        log.info({ bytes: got, of: total }, 'bootstrap: downloading')
      })
      await pipeline(body, createWriteStream(part, { flags: from === 0 ? 'w' : 'a' }))
      if (Number.isFinite(total) && sizeOf(part) < total) throw new Error(`it ended after ${sizeOf(part)} of ${total} bytes`)
      return
    } catch (error) {
      if (signal?.aborted) throw error
      failures += sizeOf(part) > have ? 0 : 1
      if (failures >= attempts)
        throw new BootstrapError(
          'download',
          `Expected to download the snapshot ${wanted.url}, but ${attempts} attempts in a row failed, the last: ${(error as Error).message}. ` +
            `The ${sizeOf(part)} bytes received are kept: a restart resumes the download`,
          { cause: error },
        )
      log.warn({ err: error, bytes: sizeOf(part), retryInMs: delay }, 'bootstrap: the download stopped; resuming after a pause')
      await new Promise((resolve) => setTimeout(resolve, delay))
      delay = Math.min(delay * 2, 30_000)
    }
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}
