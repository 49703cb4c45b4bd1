import { httpUrl, number, text } from './config-kinds.js'

// Entries of the settings table (config-options.ts spreads them in) about snapshots a node publishes
// and the snapshot a new node starts from. Plain entries of the table's shape.

/** The snapshot settings: where and how often snapshots are written, how many are kept, and where a new node starts from. */
export const snapshotOptions = {
  snapshotDir: {
    flag: 'snapshot-dir',
    env: 'WEFT_SNAPSHOT_DIR',
    kind: text('<folder>'),
    default: undefined,
    defaultText: 'off',
    help: 'folder the node writes snapshots and their manifest.json into, every --snapshot-every seconds (publish it with any static HTTP server)',
  },
  snapshotEvery: {
    flag: 'snapshot-every',
    env: 'WEFT_SNAPSHOT_EVERY',
    kind: number('a number of seconds, at least 1', (value) => Number.isFinite(value) && value >= 1, '<seconds>'),
    default: 6 * 3600,
    defaultText: '21600 (six hours)',
    help: 'seconds between two snapshots written into --snapshot-dir (the first is written at start)',
  },
  snapshotKeep: {
    flag: 'snapshot-keep',
    env: 'WEFT_SNAPSHOT_KEEP',
    kind: number('a positive integer', (value) => Number.isSafeInteger(value) && value > 0),
    default: 3,
    help: 'snapshots kept in --snapshot-dir: older ones are deleted once a new one is complete',
  },
  bootstrapFrom: {
    flag: 'bootstrap-from',
    env: 'WEFT_BOOTSTRAP_FROM',
    kind: httpUrl(),
    default: undefined,
    defaultText: 'off',
    help: "on an empty --data folder: the URL of a snapshot publisher's manifest.json (or of one snapshot file) to download, verify and import before the node starts",
  },
} as const
