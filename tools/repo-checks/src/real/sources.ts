// Reads the real block data of `../shared/vectors/real/` (its README says what each file is) into
// headers, runs, layers, payloads and cuts. Every reader takes the folder and returns nothing for a
// file that is not there, so that a folder with some of the files (the repository's own test data)
// replays what it holds.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AnyHeaderJson } from '@weft/block'
import { decodeHeader, type Header, headerFromJson, parseJsonExact } from '@weft/block'
import type { PayloadWithOutputs } from '@weft/types'

/** One header as a file holds it: its binary and/or a JSON object written by a node. */
export interface RealHeader {
  readonly file: string
  readonly header: Header
  /** The binary as written (unpadded base64url decoded), when the file has it. */
  readonly binary?: Buffer
  /** The JSON object as a node wrote it (parsed exactly), when the file has one: decoded by Weft and compared with the binary's. */
  readonly object?: AnyHeaderJson
}

/** Headers that follow one another on one chain, parent first. */
export interface HeaderRun {
  readonly file: string
  readonly headers: readonly Header[]
}

/** Complete layers of every chain at consecutive heights, lowest first. */
export interface LayerRun {
  readonly file: string
  readonly layers: ReadonlyArray<readonly Header[]>
}

/** A header with its parent and adjacent parents, as the node's own validation test has it. */
export interface Triple {
  readonly file: string
  readonly header: Header
  readonly parent: Header
  readonly adjacentParents: readonly Header[]
}

/** A parent and a child the node's test breaks on purpose, with the failures the node expected. */
export interface BrokenPair {
  readonly file: string
  readonly parent: Header
  readonly header: Header
  readonly expected: readonly string[]
}

/** Payloads with outputs, with the headers whose payload hashes they should match (by height), when the data has them. */
export interface PayloadSet {
  readonly file: string
  readonly payloads: readonly PayloadWithOutputs[]
}

/** A /cut answer as text: its key order is the order the node wrote. */
export interface CutText {
  readonly file: string
  readonly text: string
}

/** A header update event: the header, and the proof-of-work hash and target the node put beside it. */
export interface UpdateEvent {
  readonly file: string
  readonly header: Header
  readonly powHash: string
  readonly target: string
}

/** Everything read from a real-data folder. */
export interface RealData {
  readonly headers: RealHeader[]
  readonly runs: HeaderRun[]
  readonly layers: LayerRun[]
  readonly triples: Triple[]
  readonly broken: BrokenPair[]
  readonly payloads: PayloadSet[]
  readonly cuts: CutText[]
  readonly updates: UpdateEvent[]
  /** The files read, relative to the folder. */
  readonly files: string[]
}

const binary = (text: string): Buffer => Buffer.from(text, 'base64url')
const ascending = (headers: Header[]): Header[] => headers.sort((a, b) => a.height - b.height)

/** Reads every known file of `folder` that exists. */
export function readRealData(folder: string): RealData {
  const data: RealData = { headers: [], runs: [], layers: [], triples: [], broken: [], payloads: [], cuts: [], updates: [], files: [] }
  const read = (file: string): unknown | undefined => {
    const path = join(folder, file)
    if (!existsSync(path)) return undefined
    data.files.push(file)
    return parseJsonExact(readFileSync(path))
  }
  const fromBinary = (file: string, text: string): Header => {
    const bytes = binary(text)
    const header = decodeHeader(bytes)
    data.headers.push({ file, header, binary: bytes })
    return header
  }
  const fromObject = (file: string, object: AnyHeaderJson): Header => {
    const header = headerFromJson(object)
    data.headers.push({ file, header, object })
    return header
  }

  // Layers of all twenty chains (decoded by the checking script: only the binaries are the data).
  for (const file of ['zk-light-clients/mainnet-layers-5099342-5099348.json', 'zk-light-clients/mainnet-layers-5160237-5160243.json']) {
    const layers = read(file) as { layers: Array<{ headers: Array<{ binary: string }> }> } | undefined
    if (layers !== undefined)
      data.layers.push({ file, layers: layers.layers.map((layer) => layer.headers.map((h) => fromBinary(file, h.binary))) })
  }
  // The same layers as found: a byte array of u16 layer count, then per layer u16 size, u64 height,
  // u16 header count and the 318-byte headers (little-endian).
  for (const file of ['zk-light-clients/kadena_layer_headers.json', 'zk-light-clients/epoch_change_kadena_layer_headers.json']) {
    const bytes = read(file) as number[] | undefined
    if (bytes !== undefined)
      data.layers.push({
        file,
        layers: layerBytes(Buffer.from(bytes)).map((layer) => layer.map((h) => fromBinary(file, h.toString('base64url')))),
      })
  }
  // The node's own validation test: headers with their parents and adjacent parents, and broken testnet04 children.
  const validation = read('chainweb-node/validation-test-headers.json') as
    | {
        testHeaders: Array<{ header: string; parent: string; adjacents: string[] }>
        testnet04InvalidPairs: Array<{ header: string; parent: string; expectedFailures: string[] }>
      }
    | undefined
  for (const triple of validation?.testHeaders ?? []) {
    const file = 'chainweb-node/validation-test-headers.json'
    data.triples.push({
      file,
      header: fromBinary(file, triple.header),
      parent: fromBinary(file, triple.parent),
      adjacentParents: triple.adjacents.map((text) => fromBinary(file, text)),
    })
  }
  for (const pair of validation?.testnet04InvalidPairs ?? []) {
    const file = 'chainweb-node/validation-test-headers.json'
    // The broken child is no real header: it is replayed as a negative case only.
    data.broken.push({
      file,
      parent: fromBinary(file, pair.parent),
      header: decodeHeader(binary(pair.header)),
      expected: pair.expectedFailures,
    })
  }
  const snapshots = read('chainweb-node/embedded-snapshot-headers.json') as
    | { heights: Record<string, { headers: Array<{ binary: string }> }> }
    | undefined
  for (const { headers } of Object.values(snapshots?.heights ?? {}))
    for (const h of headers) fromBinary('chainweb-node/embedded-snapshot-headers.json', h.binary)
  const compact = read('zk-light-clients/compact.json') as { base: string[] } | undefined
  for (const text of compact?.base ?? []) fromBinary('zk-light-clients/compact.json', text)

  // Header pages as a node wrote them (JSON objects, descending).
  const pages = (files: string[]): Header[] =>
    files.flatMap((file) => ((read(file) as { items: AnyHeaderJson[] } | undefined)?.items ?? []).map((object) => fromObject(file, object)))
  const run730 = pages([
    'kadena-js/header-branch-page1-3306636-3306277.json',
    'kadena-js/header-branch-page2-3306276-3305917.json',
    'kadena-js/header-branch-page3-3305916-3305907.json',
  ])
  if (run730.length > 0) data.runs.push({ file: 'kadena-js/header-branch-page*.json', headers: ascending(run730) })
  const run10 = pages(['kadena-js/range-header-10-1511610-1511601.json'])
  if (run10.length > 0) data.runs.push({ file: 'kadena-js/range-header-10-1511610-1511601.json', headers: ascending(run10) })
  readTestnet04(data, read, fromBinary, fromObject)
  for (const file of ['kadena-js/payloads-with-outputs-3306537-3306636.json', 'kadena-js/range-payload-10-1511601-1511610.json']) {
    const payloads = read(file) as PayloadWithOutputs[] | undefined
    if (payloads !== undefined) data.payloads.push({ file, payloads })
  }
  for (const file of ['kadena-ex/block_payload_batch_with_outputs.json', 'kadena-ex/block_payload_retrieve_with_outputs.json']) {
    const found = read(file) as PayloadWithOutputs | PayloadWithOutputs[] | undefined
    if (found !== undefined) data.payloads.push({ file, payloads: Array.isArray(found) ? found : [found] })
  }
  const updates = read('kadena-js/header-updates-blockStream-3384582.json') as
    | Array<{ header: AnyHeaderJson; powHash: string; target: string }>
    | undefined
  for (const event of updates ?? []) {
    const file = 'kadena-js/header-updates-blockStream-3384582.json'
    data.updates.push({ file, header: fromObject(file, event.header), powHash: event.powHash, target: event.target })
  }
  for (const file of [
    'kadena-js/cut-66132920.json',
    'kadena-ex/cut.json',
    'kadena-ex/cut_location.json',
    'kadena-ex/cut_with_max_height.json',
    'chainweb-node/mainnet-final-cut.json',
  ]) {
    const path = join(folder, file)
    if (existsSync(path)) {
      data.files.push(file)
      data.cuts.push({ file, text: readFileSync(path, 'utf8') })
    }
  }
  return data
}

/** The 318-byte headers of each layer of a zk-light-clients layer file. */
export function layerBytes(bytes: Buffer): Buffer[][] {
  const layers: Buffer[][] = []
  let at = 2
  for (let layer = bytes.readUInt16LE(0); layer > 0; layer--) {
    const size = bytes.readUInt16LE(at)
    const count = bytes.readUInt16LE(at + 10)
    const width = (size - 10) / count
    layers.push(Array.from({ length: count }, (_, i) => bytes.subarray(at + 12 + i * width, at + 12 + (i + 1) * width)))
    at += 2 + size
  }
  return layers
}

// kadena.ex's testnet04 pages: binaries, and the same headers as the node's JSON objects.
function readTestnet04(
  data: RealData,
  read: (file: string) => unknown,
  fromBinary: (file: string, text: string) => Header,
  fromObject: (file: string, object: AnyHeaderJson) => Header,
): void {
  const byHash = new Map<string, Header>()
  for (const file of [
    'kadena-ex/block_header_retrieve_encode.json',
    'kadena-ex/block_header_retrieve_encode2.json',
    'kadena-ex/block_header_retrieve_branches_1.json',
    'kadena-ex/block_header_retrieve_branches_3.json',
  ]) {
    for (const text of (read(file) as { items: string[] } | undefined)?.items ?? []) {
      const header = fromBinary(file, text)
      byHash.set(header.hash.toString('base64url'), header)
    }
  }
  const one = read('kadena-ex/block_header_retrieve_by_hash_encode.json') as string | undefined
  if (one !== undefined) fromBinary('kadena-ex/block_header_retrieve_by_hash_encode.json', one)
  for (const file of ['kadena-ex/block_header_retrieve_decode.json', 'kadena-ex/block_header_retrieve_by_hash_decode.json']) {
    const found = read(file) as { items: AnyHeaderJson[] } | AnyHeaderJson | undefined
    if (found === undefined) continue
    for (const object of 'items' in found ? found.items : [found]) fromObject(file, object)
  }
  // Consecutive heights among them are runs: 0-3, 5-6, 4095-4096.
  const sorted = ascending([...byHash.values()])
  let run: Header[] = []
  const flush = (): void => {
    if (run.length > 1) data.runs.push({ file: 'kadena-ex/block_header_retrieve_*.json', headers: run })
    run = []
  }
  for (const header of sorted) {
    if (run.length > 0 && run.at(-1)!.height + 1 !== header.height) flush()
    run.push(header)
  }
  flush()
}
