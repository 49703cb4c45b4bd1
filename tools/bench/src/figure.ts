/** One figure of the bench, as written to bench-results.json. */
export interface Figure {
  /** Stable name of the figure. */
  readonly name: string
  /** The measured value of the weft code. */
  readonly value: number
  /** The same measure of the floor, in the same run. */
  readonly floor: number
  /** value / floor. */
  readonly ratio: number
  /** The bound of issue 9, or null where the issue names none. */
  readonly target: number | null
  /** Which number the target bounds: the ratio, or (for absolute bounds) the value itself. */
  readonly bounds: 'ratio' | 'value'
  /** How the bounded number must compare with the target. */
  readonly direction: '>=' | '<='
  readonly unit: string
  /** Whether the bounded number meets the target (null without a target). */
  readonly pass: boolean | null
  /** What the floor is. */
  readonly floorIs: string
  /** Other numbers of the same measurement, for reading it. */
  readonly details: Readonly<Record<string, number | string>>
}

/** Builds a figure, computing the ratio and whether it passes. */
export function figure(input: Omit<Figure, 'ratio' | 'pass'>): Figure {
  const ratio = input.floor === 0 ? Number.NaN : input.value / input.floor
  const bounded = input.bounds === 'ratio' ? ratio : input.value
  const pass = input.target === null ? null : input.direction === '>=' ? bounded >= input.target : bounded <= input.target
  return { ...input, ratio: round(ratio, 3), value: round(input.value, 3), floor: round(input.floor, 3), pass }
}

/** Rounds to `digits` decimals (results stay readable, JSON stays numbers). */
export function round(n: number, digits = 2): number {
  const scale = 10 ** digits
  return Math.round(n * scale) / scale
}

/** The q-quantile (0..1) of numbers, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[rank] as number
}
