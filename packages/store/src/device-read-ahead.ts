import { readFile, realpath, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'

/** The read-ahead of the block device that holds a store's folder. */
export interface DeviceReadAhead {
  /** The device's kernel name (`vda`, `nvme0n1`, `dm-0`): the one whose `queue/read_ahead_kb` applies. */
  readonly device: string
  /** Bytes the kernel reads ahead on a read that misses the page cache (and around a fault in a mapped file). */
  readonly bytes: number
}

// Linux's dev_t: 12 bits of major and 20 of minor, split across the word (see `gnu_dev_major` in glibc).
function majorMinor(dev: bigint): string {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn)
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn)
  return `${major}:${minor}`
}

async function readKiB(file: string): Promise<number | undefined> {
  try {
    const value = Number((await readFile(file, 'utf8')).trim())
    return Number.isInteger(value) && value >= 0 ? value : undefined
  } catch {
    return undefined
  }
}

// The device number of `path`, or of its nearest existing ancestor (a store folder not created yet).
async function deviceOf(path: string): Promise<bigint> {
  let at = resolve(path)
  while (at !== dirname(at)) {
    try {
      return (await stat(at, { bigint: true })).dev
    } catch {
      at = dirname(at)
    }
  }
  return (await stat(at, { bigint: true })).dev
}

/**
 * The read-ahead of the block device holding `path` (Linux, from sysfs); `undefined` where it cannot
 * be known: another system, a file system without one device of its own (tmpfs, overlay, btrfs), or
 * no `/sys`. A partition reports its disk's setting, the one the kernel uses for it.
 *
 * LevelDB maps its table files and the kernel reads this much around each fault in them, so a large
 * read-ahead turns a cold read of a few blocks into a read of a whole 2 MiB table file.
 */
export function deviceReadAhead(path: string): Promise<DeviceReadAhead | undefined> {
  return readAheadIn('/sys', path)
}

/** `deviceReadAhead` with sysfs mounted at `sysfs` (a test builds one of its own). */
export async function readAheadIn(sysfs: string, path: string): Promise<DeviceReadAhead | undefined> {
  let entry: string
  try {
    entry = await realpath(join(sysfs, 'dev', 'block', majorMinor(await deviceOf(path))))
  } catch {
    return undefined
  }
  // A disk has its own queue; a partition (`…/vda/vda1`) uses its disk's.
  for (const folder of [entry, dirname(entry)]) {
    const kib = await readKiB(join(folder, 'queue', 'read_ahead_kb'))
    if (kib !== undefined) return { device: basename(folder), bytes: kib * 1024 }
  }
  return undefined
}
