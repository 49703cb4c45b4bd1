// The page cache of a store's files: a first read after `evictFromPageCache` meets the disk, as it
// does on a node whose store is larger than its memory, whatever the rest of the machine keeps cached.
import { spawnSync } from 'node:child_process'
import { closeSync, fsyncSync, openSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** Every file under `path`, in its subfolders too. */
export function folderFiles(path: string): string[] {
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? folderFiles(join(path, entry.name)) : [join(path, entry.name)],
  )
}

/**
 * Flushes each file, then asks the kernel to drop its pages (dd's nocache flag: posix_fadvise
 * DONTNEED on the whole file). False when dd refused.
 */
export function evictFromPageCache(files: readonly string[]): boolean {
  for (const file of files) {
    const fd = openSync(file, 'r')
    fsyncSync(fd)
    closeSync(fd)
    if (spawnSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0'], { stdio: 'ignore' }).status !== 0) return false
  }
  return true
}
