// A worker thread of the hashing floor: hashes its blocks over and over for the given time.
import { parentPort, workerData } from 'node:worker_threads'
import { type Block, computeBlockHash, computePayloadHashes, powHash } from '@weft/block'

const { blocks, milliseconds } = workerData as { blocks: Block[]; milliseconds: number }
let hashed = 0
let sink = 0
const started = performance.now()
while (performance.now() - started < milliseconds) {
  for (const block of blocks) {
    sink ^=
      (computeBlockHash(block.header)[0] ?? 0) ^
      (computePayloadHashes(block.payload).payloadHash[0] ?? 0) ^
      Number(powHash(block.header) & 0xffn)
  }
  hashed += blocks.length
}
parentPort?.postMessage({ hashed, seconds: (performance.now() - started) / 1000, sink })
