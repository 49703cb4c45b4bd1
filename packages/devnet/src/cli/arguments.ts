import { getNetwork, type Network } from '@weft/block'
import { type Flags, UsageError, type Values } from '@weft/command-line'
import { type ChainStore, openStore } from '@weft/store'
import { type NetworkName, networkNames } from '@weft/types'

/** The flags every command takes: the store's folder and network. */
export const storeFlags: Flags = {
  data: { type: 'string' },
  network: { type: 'string', default: 'development' },
}

/** The help of `storeFlags` (and of `--help`). */
export const storeHelp = `  --data DIR          the store's folder (created if missing)            [required]
  --network NAME      development | recap-development | test-singleton (the networks
                      a CPU mines; others only if their targets allow) [default: development]
  -h, --help          show this help`

/** `--data`, required: the store's folder. */
export function dataFolder(values: Values): string {
  if (values.data === undefined) throw new UsageError("Expected --data DIR, the store's folder")
  return values.data as string
}

/** `--network`, one of the networks Weft knows. */
export function networkOf(values: Values): Network {
  const name = values.network as string
  try {
    return getNetwork(name as NetworkName)
  } catch (error) {
    throw new UsageError(`Expected --network to be one of ${networkNames.join(', ')}, received ${JSON.stringify(name)}`, { cause: error })
  }
}

/** A flag's value as a number; a usage error when it is not one. */
export function numberOf(flag: string, text: string): number {
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value))
    throw new UsageError(`Expected ${flag} to be a number, received ${JSON.stringify(text)}`)
  return value
}

/** Opens the store of `--data` and `--network`, runs `body` on it, and closes it. */
export async function withStore<T>(values: Values, body: (store: ChainStore) => Promise<T>): Promise<T> {
  const path = dataFolder(values)
  const store = await openStore({ path, network: networkOf(values).name })
  try {
    return await body(store)
  } finally {
    await store.close()
  }
}
