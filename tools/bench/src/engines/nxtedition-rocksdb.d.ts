// The part of @nxtedition/rocksdb (which ships no types) that the engine bench uses: an
// abstract-level 1 database over RocksDB, keys and values as Buffers.
declare module '@nxtedition/rocksdb' {
  /** What the engine bench sets when it opens a database; the rest stays at the binding's defaults. */
  export interface RocksOpenOptions {
    readonly blockSize?: number
    /** ZSTD (with a dictionary) when true, the binding's default; none when false. */
    readonly compression?: boolean
    readonly walCompression?: boolean
  }

  /** A chained batch: puts written atomically by `write`. */
  export interface RocksBatch {
    put(key: Buffer, value: Buffer): unknown
    write(): Promise<void>
  }

  /** An iterator over a key range. */
  export interface RocksIterator {
    nextv(size: number): Promise<Array<[Buffer, Buffer]>>
    close(): Promise<void>
  }

  /** A RocksDB database. */
  export class RocksLevel {
    constructor(location: string, options: { keyEncoding: 'buffer'; valueEncoding: 'buffer' })
    open(options?: RocksOpenOptions): Promise<void>
    batch(): RocksBatch
    iterator(options: { gte: Buffer; lt: Buffer; limit: number }): RocksIterator
    getProperty(property: string): string
    close(): Promise<void>
  }
}
