import type { Figure } from './figure.js'
import type { Machine } from './machine.js'

function number(n: number): string {
  if (!Number.isFinite(n)) return String(n)
  return Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 2 })
}

/** The table printed at the end of a run. */
export function formatTable(figures: readonly Figure[], machine: Machine, seconds: number): string {
  const rows = figures.map((f) => [
    f.name,
    `${number(f.value)} ${f.unit}`,
    `${number(f.floor)} ${f.unit}`,
    number(f.ratio),
    f.target === null ? 'none' : `${f.bounds} ${f.direction} ${f.target}`,
    f.pass === null ? '-' : f.pass ? 'pass' : 'FAIL',
  ])
  const header = ['figure', 'weft', 'floor', 'ratio', 'target', 'result']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')
  return [
    `machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, node ${machine.node}, ${machine.platform}, load average ${machine.loadAverage} at start`,
    '',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `total ${seconds.toFixed(0)} s`,
  ].join('\n')
}
