import type { DeviceReadAhead } from '@weft/store'

/**
 * The most read-ahead a store's disk should have. LevelDB maps its 2 MiB table files and the kernel
 * reads this much around each fault, so above it a cold read of a few blocks reads whole files. On
 * the 10,000,000-block bench store, a deep page's first read (60 pages at random) took 2.5-2.8 ms
 * p50 and read about 420 KiB from the disk at 128 KiB, 3.4 ms and 840 KiB at 256, and 4.2-5.2 ms
 * (13.5 ms on a throttled disk) and 2 MiB at 8,192 KiB. MongoDB's production notes draw the line at
 * 256 KiB for the same reason.
 */
export const readAheadLimit = 256 * 1024

/** What to log about a store on `readAhead`: a warning with the fix, or nothing (within the limit, or not known). */
export function readAheadWarning(
  data: string,
  readAhead: DeviceReadAhead | undefined,
): { fields: { data: string; device: string; readAheadKiB: number }; message: string } | undefined {
  if (readAhead === undefined || readAhead.bytes <= readAheadLimit) return undefined
  const kib = readAhead.bytes / 1024
  return {
    fields: { data, device: readAhead.device, readAheadKiB: kib },
    message:
      `the store's disk ${readAhead.device} reads ahead ${kib} KiB: a first read of old blocks pulls whole table files ` +
      `from the disk, about 2 MiB a page. Fix: as root, echo 128 > /sys/block/${readAhead.device}/queue/read_ahead_kb ` +
      '(a udev rule keeps it across boots: deploy/README.md), then restart weft-server',
  }
}
