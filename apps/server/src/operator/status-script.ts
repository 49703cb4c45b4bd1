/**
 * The status page's script, inline and dependency-free: it polls `/status` every second and asks
 * `/ready` for readiness and upstreams (a node without that route shows its block source instead),
 * then redraws the figures the server rendered first. Ages tick between polls. The search box asks
 * `/search` and lists what it found (without the script, the form shows that JSON).
 */
export const statusScript = `
'use strict'
const $ = (id) => document.getElementById(id)
let status
let fetchedAt = 0
const age = (creationTime) => {
  const seconds = Math.max(0, (status.now + (Date.now() - fetchedAt) - creationTime / 1000) / 1000)
  return seconds < 120 ? seconds.toFixed(1) + ' s' : seconds < 7200 ? Math.round(seconds / 60) + ' min' : Math.round(seconds / 3600) + ' h'
}
const cell = (row, text, title) => {
  const td = row.insertCell()
  td.textContent = text
  if (title) td.title = title
}
function draw() {
  if (!status) return
  $('cut-height').textContent = String(status.cutHeight)
  $('rate').textContent = status.blocksPerSecond.toFixed(2)
  const store = status.store
  $('store').textContent = store.writable ? 'writable' : 'full: ' + store.freeBytes + ' bytes free in ' + store.folder + ', writes stopped'
  const chains = $('chains')
  chains.replaceChildren()
  for (const head of status.chains) {
    const row = chains.insertRow()
    cell(row, String(head.chain))
    cell(row, String(head.height))
    cell(row, head.hash.slice(0, 12) + '…', head.hash)
    cell(row, age(head.creationTime))
  }
  const reorgs = $('reorgs')
  reorgs.replaceChildren()
  for (const reorg of status.reorgs) {
    const row = reorgs.insertRow()
    cell(row, new Date(reorg.at).toISOString().slice(11, 19))
    cell(row, String(reorg.chain))
    cell(row, String(reorg.depth))
    cell(row, reorg.from.height + ' ' + reorg.from.hash.slice(0, 8) + '… → ' + reorg.to.height + ' ' + reorg.to.hash.slice(0, 8) + '…')
  }
  $('no-reorgs').hidden = status.reorgs.length > 0
}
async function readiness() {
  const response = await fetch('/ready', { cache: 'no-store' })
  if (response.status === 404) return { text: status ? status.source : 'devnet', upstreams: [] }
  const body = await response.json()
  return { text: body.ready ? 'ready' : 'not ready', upstreams: body.upstreams || [] }
}
async function poll() {
  try {
    const response = await fetch('/status', { cache: 'no-store' })
    status = await response.json()
    fetchedAt = Date.now()
    const ready = await readiness()
    $('ready').textContent = ready.text
    const upstreams = $('upstreams')
    upstreams.replaceChildren()
    for (const upstream of ready.upstreams) {
      const li = document.createElement('li')
      li.textContent = upstream.url + ': ' + upstream.state + (upstream.lastContact ? ', last contact ' + upstream.lastContact : '')
      upstreams.append(li)
    }
    $('updated').textContent = 'live, updated ' + new Date().toISOString().slice(11, 19)
    $('updated').dataset.updates = String(Number($('updated').dataset.updates || 0) + 1)
  } catch (error) {
    $('updated').textContent = 'cannot reach the node: ' + error.message
  }
  draw()
}
const short = (hash) => hash.slice(0, 12) + '…'
const branch = (found) => (found.canonical ? 'canonical' : 'orphaned') + ', depth ' + found.depth
function foundRow(kind, chain, where, title, standing) {
  const row = $('found-rows').insertRow()
  cell(row, kind)
  cell(row, String(chain))
  cell(row, where, title)
  cell(row, standing)
}
function showFound(answer) {
  $('found-rows').replaceChildren()
  for (const tx of answer.transactions)
    foundRow('transaction', tx.chain, 'height ' + tx.height + ', block ' + short(tx.blockHash) + ', position ' + tx.position, tx.blockHash, branch(tx))
  for (const block of answer.blocks) foundRow('block', block.chain, 'height ' + block.height + ', ' + short(block.hash), block.hash, branch(block))
  for (const transfer of answer.transfers)
    foundRow(
      'transfer',
      transfer.chain,
      transfer.amount + ' ' + transfer.token + ' from ' + (transfer.sender || '(none)') + ' to ' + (transfer.receiver || '(none)') + ', height ' + transfer.height,
      transfer.requestKey,
      branch(transfer),
    )
  const count = $('found-rows').rows.length
  const what = { hash: 'request key or block hash', height: 'height', account: 'account' }[answer.kind]
  let summary = count === 0 ? 'Nothing found for ' + what + ' ' + answer.query : count + ' found for ' + what + ' ' + answer.query
  if (answer.moreTransfers) summary += ' (the newest ' + answer.transfers.length + ' transfers)'
  if (answer.index === 'disabled' && answer.kind !== 'height') summary += '; the transaction index is off (--no-index)'
  if (answer.index === 'catching-up' && answer.kind !== 'height') summary += '; the transaction index is still catching up'
  $('search-summary').textContent = summary
  $('search-summary').hidden = false
  $('found').hidden = count === 0
}
$('search').addEventListener('submit', async (event) => {
  event.preventDefault()
  const query = $('q').value.trim()
  if (query === '') return
  try {
    const response = await fetch('/search?q=' + encodeURIComponent(query), { cache: 'no-store' })
    if (!response.ok) throw new Error(response.status + ' ' + (await response.text()).slice(0, 200))
    showFound(await response.json())
  } catch (error) {
    $('found').hidden = true
    $('search-summary').textContent = 'Search failed: ' + error.message
    $('search-summary').hidden = false
  }
})
poll()
setInterval(poll, 1000)
`
