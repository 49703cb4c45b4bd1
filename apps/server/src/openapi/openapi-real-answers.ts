// Copied from the repository's real-network vectors (fixtures/vectors/: answers of chainweb-node on
// mainnet01); test/openapi-examples.ts checks that they still match them.

/** Mainnet01 chain 0 block 1,000,001's header, keys in the contract's order (chainweb names). */
export const realHeader = {
  nonce: '110239794631051275',
  creationTime: 1602382678045236,
  parent: 'k0an0qEORusqQg9ZjKrxa-0Bo0-hQVYLXqWi5LHxg3k',
  adjacents: {
    '5': 'ALcxv1ZiwwQ_QX9eOBZMbzIop6n7XtveS1FqOFwyvGM',
    '10': 'C76ElC60qXSJQCHePpzzJxsCYvvrqvmkoHPyZnex-4Q',
    '15': 'Kv0sz_rTANjoiJwMrdZFCJNFwdH0U_M5ouwMr3BXBfo',
  },
  target: 'QrcsbEm-3WjyCGAGlzIEhLEN3ZMWORoyYy8AAAAAAAA',
  payloadHash: 'smUiDW9jfD_0vrdt4-fXKT_lqC90RsgEGObdp3FznFY',
  chainId: 0,
  weight: 'bOkHN2JUv2AeAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  height: 1000001,
  chainwebVersion: 'mainnet01',
  epochStart: 1602381443331834,
  featureFlags: 0,
  hash: 'vhVa6Deh10RXLRf3L-MSQTYqaL-_IY_mi-v58MjP9R8',
}

/** The same header, binary, as unpadded base64url. */
export const realHeaderBinary =
  'AAAAAAAAAAA0slHKW7EFAJNGp9KhDkbrKkIPWYyq8WvtAaNPoUFWC16louSx8YN5AwAFAAAAALcxv1ZiwwQ_QX9eOBZMbzIop6n7XtveS1FqOFwyvGMKAAAAC76ElC60qXSJQCHePpzzJxsCYvvrqvmkoHPyZnex-4QPAAAAKv0sz_rTANjoiJwMrdZFCJNFwdH0U_M5ouwMr3BXBfpCtyxsSb7daPIIYAaXMgSEsQ3dkxY5GjJjLwAAAAAAALJlIg1vY3w_9L63bePn1yk_5agvdEbIBBjm3adxc5xWAAAAAGzpBzdiVL9gHgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQUIPAAAAAAAFAAAA-na5gFuxBQALiBhXgqaHAb4VWug3oddEVy0X9y_jEkE2Kmi_vyGP5ovr-fDIz_Uf'

/** The same block's payload with outputs (one transaction). */
export const realPayloadWithOutputs: { transactions: Array<[string, string]>; [key: string]: unknown } = {
  transactions: [
    [
      'eyJoYXNoIjoibFRqWW9taEFDSEUxemphRFlvbnV6VGJmdEV1THp2SExNTUE5dzI0SFY5SSIsInNpZ3MiOlt7InNpZyI6IjE3ZDhkYmRmYjUyZWUyMmMyMTA5MGNjYzBkYzY0MzhmYjFjZjlmZWVmNmVjNGY1YWQwMTA3MzViNjllYjA4MjQ2MGU3ZTExYmI4NTBjM2FkN2M4MjAyNzFiMzViNmFiMDcyOTExNGExOGE2YWUwMmFiYWJmZGM0Yzc1ZWZiZjA0In1dLCJjbWQiOiJ7XCJuZXR3b3JrSWRcIjpcIm1haW5uZXQwMVwiLFwicGF5bG9hZFwiOntcImV4ZWNcIjp7XCJkYXRhXCI6e30sXCJjb2RlXCI6XCIoY29pbi50cmFuc2ZlciBcXFwiNjUyYTg4MzFhNWFkMjQzOTYxNWM4NzQ2NzliNjAwN2EwMzUzOTg1Mjk3YzhmN2MzNDhmMzhhYzYxODZiNzBmN1xcXCIgXFxcIjlhMjEyYjZiZDM5ZmZlOWMzZTIxNTk5ZDMyOWEzYTg0YzkwN2NkNGJlMWYzYjUyYWE0ZmU3NmEzNjk1Yzk1ODFcXFwiIDEwLjEzKVwifX0sXCJzaWduZXJzXCI6W3tcInB1YktleVwiOlwiNjUyYTg4MzFhNWFkMjQzOTYxNWM4NzQ2NzliNjAwN2EwMzUzOTg1Mjk3YzhmN2MzNDhmMzhhYzYxODZiNzBmN1wiLFwiY2xpc3RcIjpbe1wiYXJnc1wiOltdLFwibmFtZVwiOlwiY29pbi5HQVNcIn0se1wiYXJnc1wiOltcIjY1MmE4ODMxYTVhZDI0Mzk2MTVjODc0Njc5YjYwMDdhMDM1Mzk4NTI5N2M4ZjdjMzQ4ZjM4YWM2MTg2YjcwZjdcIixcIjlhMjEyYjZiZDM5ZmZlOWMzZTIxNTk5ZDMyOWEzYTg0YzkwN2NkNGJlMWYzYjUyYWE0ZmU3NmEzNjk1Yzk1ODFcIiwxMC4xM10sXCJuYW1lXCI6XCJjb2luLlRSQU5TRkVSXCJ9XX1dLFwibWV0YVwiOntcImNyZWF0aW9uVGltZVwiOjE2MDIzODI1NTgsXCJ0dGxcIjoyODgwMCxcImdhc0xpbWl0XCI6NjAwLFwiY2hhaW5JZFwiOlwiMFwiLFwiZ2FzUHJpY2VcIjoxLjBlLTUsXCJzZW5kZXJcIjpcIjY1MmE4ODMxYTVhZDI0Mzk2MTVjODc0Njc5YjYwMDdhMDM1Mzk4NTI5N2M4ZjdjMzQ4ZjM4YWM2MTg2YjcwZjdcIn0sXCJub25jZVwiOlwiXFxcIjIwMjAtMTAtMTFUMDI6MTc6MDMuNTM3WlxcXCJcIn0ifQ',
      'eyJnYXMiOjU3MiwicmVzdWx0Ijp7InN0YXR1cyI6InN1Y2Nlc3MiLCJkYXRhIjoiV3JpdGUgc3VjY2VlZGVkIn0sInJlcUtleSI6ImxUallvbWhBQ0hFMXpqYURZb251elRiZnRFdUx6dkhMTU1BOXcyNEhWOUkiLCJsb2dzIjoicERxbDlQazJBSHAwanEyVzRWQmZPWmpWWEhTTHRqMklBWGZ0TlRBZXBFVSIsIm1ldGFEYXRhIjpudWxsLCJjb250aW51YXRpb24iOm51bGwsInR4SWQiOjEyNzIzNTN9',
    ],
  ],
  minerData:
    'eyJhY2NvdW50IjoiYTFiMzE0MGNiN2NjODk1YzBlMDkxNzAyZWQwNTU3OWZiZTA1YzZlNjc0NWY4MmNlNjAzNzQ2YjQwMGM4MTU0OCIsInByZWRpY2F0ZSI6ImtleXMtYWxsIiwicHVibGljLWtleXMiOlsiYTFiMzE0MGNiN2NjODk1YzBlMDkxNzAyZWQwNTU3OWZiZTA1YzZlNjc0NWY4MmNlNjAzNzQ2YjQwMGM4MTU0OCJdfQ',
  transactionsHash: 'Fzhmc04Cub7YcLd2ybMKBok8TpBQ6-W_msAV8gFzuhM',
  outputsHash: 'VsGmieWzCV3nwDHFtdKrGd61mycmtv_vJ9mI0VZrONI',
  payloadHash: 'smUiDW9jfD_0vrdt4-fXKT_lqC90RsgEGObdp3FznFY',
  coinbase:
    'eyJnYXMiOjAsInJlc3VsdCI6eyJzdGF0dXMiOiJzdWNjZXNzIiwiZGF0YSI6IldyaXRlIHN1Y2NlZWRlZCJ9LCJyZXFLZXkiOiJJbXN3WVc0d2NVVlBVblZ6Y1ZGbk9WcHFTM0o0WVMwd1FtOHdMV2hSVmxsTVdIRlhhVFZNU0hobk0yc2kiLCJsb2dzIjoicDkzUW00LVdGYnpFb0R6Y0FoSEFWZTd6N21kaFQ0UG9yMVJ0S2QydWR1YyIsIm1ldGFEYXRhIjpudWxsLCJjb250aW51YXRpb24iOm51bGwsInR4SWQiOjEyNzIzNTF9',
}

/** The hash of its parent, block 1,000,000. */
export const realParentHash = 'k0an0qEORusqQg9ZjKrxa-0Bo0-hQVYLXqWi5LHxg3k'

/** Mainnet01's cut of genesis blocks, as /cut answers it. */
export const realCut = {
  hashes: {
    '9': { height: 0, hash: '5cwptPDy7u6aMS221qsCr93g6ifDr0WUyvoKhi59-PA' },
    '0': { height: 0, hash: 'SNAMXHBvZtAbeS19x12bZV2p5d1E4BaxrggceNdUxbw' },
    '6': { height: 0, hash: 'OXehM2W5YuiV0iWlDGIPMdaRv721zMUbj3caJqZJNBU' },
    '4': { height: 0, hash: 'yeWKDE27xM45-LgdwpnVMM6E4pAoYryRrJJFgRiaKgQ' },
    '1': { height: 0, hash: 'aVFFqF8PbGu-MZkUhb1Ok4XijgxWUYxBxigBQgZmDFI' },
    '2': { height: 0, hash: 'Isgjp62lHk0uXgQfu_HZoeuP3udIiwkBlq1hHvXqXCM' },
    '3': { height: 0, hash: 'tMyy7k6lrQOsGg2oXh20kOC3zudjwsaL9F5Ogx0XNBo' },
    '5': { height: 0, hash: 'GmCgnnxUtn08N8WtL8Gpn3Hg6AKyP4q0W0u3NLZn0Zo' },
    '8': { height: 0, hash: '09qk9ulwtq854ogJwlDZKN7NC_Q3lqiy1jdD0_YvWMI' },
    '7': { height: 0, hash: 'CAfkqtRJpdf3rNSKx0SRwgaJlSUBLXwF1OMjn2-eBps' },
  },
  origin: null,
  weight: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  height: 0,
  instance: 'mainnet01',
  id: '2XpD7GqM0B86nN3avOr0QY794vI5GJzE7MMSu7k3sbI',
}

/** Mainnet01's /info at its genesis cut. */
// mainnet01's graph history as the real node's /info gives it (nodeHistoricalChains repeats it).
const mainnetGraphHistory = [
  [
    852054,
    [
      [16, [1, 17, 15]],
      [9, [6, 4, 7]],
      [0, [10, 5, 15]],
      [6, [9, 1, 8]],
      [4, [9, 14, 19]],
      [1, [16, 6, 11]],
      [2, [12, 17, 7]],
      [18, [3, 17, 19]],
      [14, [4, 15, 13]],
      [10, [0, 11, 19]],
      [3, [18, 8, 13]],
      [12, [2, 11, 13]],
      [5, [0, 8, 7]],
      [17, [16, 2, 18]],
      [11, [1, 10, 12]],
      [8, [6, 3, 5]],
      [7, [9, 2, 5]],
      [15, [16, 0, 14]],
      [13, [14, 3, 12]],
      [19, [4, 18, 10]],
    ],
  ],
  [
    0,
    [
      [9, [4, 5, 8]],
      [0, [2, 3, 5]],
      [6, [1, 5, 7]],
      [4, [9, 1, 2]],
      [1, [6, 4, 3]],
      [2, [0, 4, 7]],
      [3, [0, 1, 8]],
      [5, [9, 0, 6]],
      [8, [9, 3, 7]],
      [7, [6, 2, 8]],
    ],
  ],
]

export const realInfo = {
  nodeApiVersion: '0.0',
  nodeBlockDelay: 30000000,
  nodeChains: ['9', '0', '6', '4', '1', '2', '3', '5', '8', '7'],
  nodeGenesisHeights: [
    ['16', 852054],
    ['9', 0],
    ['0', 0],
    ['6', 0],
    ['4', 0],
    ['1', 0],
    ['2', 0],
    ['18', 852054],
    ['14', 852054],
    ['10', 852054],
    ['3', 0],
    ['12', 852054],
    ['5', 0],
    ['17', 852054],
    ['11', 852054],
    ['8', 0],
    ['7', 0],
    ['15', 852054],
    ['13', 852054],
    ['19', 852054],
  ],
  nodeGraphHistory: mainnetGraphHistory,
  nodeHistoricalChains: mainnetGraphHistory,
  nodeLatestBehaviorHeight: 6510743,
  nodeNumberOfChains: 10,
  nodePackageVersion: '3.2',
  nodeVersion: 'mainnet01',
}

/** An update event's data of mainnet01 (chain 6, height 1,554,652). */
export const realHeaderUpdate = {
  header: {
    nonce: '3399765038640884059',
    creationTime: 1619037443761924,
    parent: 'qaUtvtXk75nXsWM9l6vkeGkQilZfE_YgzWkZm-7tLyE',
    adjacents: {
      '1': 'OTcNZsNMA-TZ9RTlfWqegFiE0ZkBYcy3JCzh23gmm9Y',
      '8': 'nznrNdU8RWatTVlS8yTaVaxk8CT1ZjR4ZWta7GAaMDk',
      '9': 'CanRK_wW8RjyA1X9xSEQCXymsnk3VERAJtAB2abrY_M',
    },
    target: 'zklwTetkWv91YxYIRmXCt6kUHpEBpiN8gwcAAAAAAAA',
    payloadHash: 'cT86RaKJUyCZXKB3gYqX9A9SNway-lUBrHSvNr7_SaM',
    chainId: 6,
    weight: 'd8mOCoZeFpajAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    height: 1554652,
    chainwebVersion: 'mainnet01',
    epochStart: 1619035890499046,
    featureFlags: 0,
    hash: 'okI4V9Pez5-UPw4nys2Nk9iIPz3-n30HCag5_NQptlo',
  },
  powHash: '00000000000006e0b164858ee0fcbfd112f4242d5010ff33d3a43d2cc3c15177',
  target: '00000000000007837c23a601911e14a9b7c2654608166375ff5a64eb4d7049ce',
  txCount: 0,
}
