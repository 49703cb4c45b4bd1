import { cpus, loadavg, totalmem } from 'node:os'

/** The machine a run measured on. */
export interface Machine {
  readonly cpu: string
  readonly cores: number
  readonly memoryGiB: number
  readonly node: string
  readonly platform: string
  readonly loadAverage: number
}

/** Describes this machine (load average: other work on it makes every figure noisier). */
export function describeMachine(): Machine {
  const list = cpus()
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  }
}
