import { createHash } from 'node:crypto'
import type { NodeStatus } from './node-status.js'
import { statusScript } from './status-script.js'
import { storeText } from './store-state.js'

const style = `
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5rem auto; max-width: 60rem; padding: 0 1rem; color: #1d2430; background: #fbfbfd; }
h1 { font-size: 1.4rem; margin: 0 0 .2rem; } h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
.sub, .muted { color: #5b6578; } nav a { margin-right: 1rem; }
dl { display: grid; grid-template-columns: repeat(4, auto); gap: .2rem 1rem; justify-content: start; }
dt { color: #5b6578; } dd { margin: 0; font-weight: 600; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: .15rem .9rem .15rem 0; border-bottom: 1px solid #e3e6ee; }
td:nth-child(3) { font-family: ui-monospace, monospace; }
form { margin: 1rem 0 .3rem; display: flex; gap: .5rem; } input[type=search] { flex: 1; font: inherit; padding: .2rem .4rem; }
#found td:nth-child(3) { font-family: inherit; } .hash { font-family: ui-monospace, monospace; }
`

// Inline code runs under a content security policy that names its hashes: nothing else may run or load.
const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

/** The status page's content security policy: its own inline style and script, requests to this host only. */
export const statusPagePolicy = `default-src 'none'; style-src ${sha256(style)}; script-src ${sha256(statusScript)}; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'`

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char)

function ageText(status: NodeStatus, creationTime: number): string {
  const seconds = Math.max(0, (status.now - creationTime / 1000) / 1000)
  return seconds < 120 ? `${seconds.toFixed(1)} s` : seconds < 7200 ? `${Math.round(seconds / 60)} min` : `${Math.round(seconds / 3600)} h`
}

/** The status page of `/`: the node's figures as they are now, in plain HTML; the script keeps them live. */
export function statusPage(status: NodeStatus): string {
  const heads = status.chains
    .map(
      (head) =>
        `<tr><td>${head.chain}</td><td>${head.height}</td><td title="${escapeHtml(head.hash)}">${escapeHtml(head.hash.slice(0, 12))}…</td><td>${ageText(status, head.creationTime)}</td></tr>`,
    )
    .join('\n')
  const reorgs = status.reorgs
    .map(
      (reorg) =>
        `<tr><td>${new Date(reorg.at).toISOString().slice(11, 19)}</td><td>${reorg.chain}</td><td>${reorg.depth}</td>` +
        `<td>${reorg.from.height} ${escapeHtml(reorg.from.hash.slice(0, 8))}… → ${reorg.to.height} ${escapeHtml(reorg.to.hash.slice(0, 8))}…</td></tr>`,
    )
    .join('\n')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Weft node · ${escapeHtml(status.network)}</title>
<style>${style}</style>
</head>
<body>
<h1>Weft node</h1>
<p class="sub">${escapeHtml(status.network)} · ${escapeHtml(status.profile)} profile · version ${escapeHtml(status.version)} · <span id="updated">as of ${new Date(status.now).toISOString().slice(11, 19)} UTC</span></p>
<nav><a href="/info">/info</a><a href="${escapeHtml(status.cutPath)}">/cut</a><a href="/openapi.json">/openapi.json</a><a href="/metrics">/metrics</a></nav>
<dl>
<dt>cut height</dt><dd id="cut-height">${status.cutHeight}</dd>
<dt>blocks per second</dt><dd id="rate">${status.blocksPerSecond.toFixed(2)}</dd>
<dt>readiness</dt><dd id="ready">${escapeHtml(status.source)}</dd>
<dt>chains</dt><dd id="chain-count">${status.chains.length}</dd>
<dt>store</dt><dd id="store">${escapeHtml(storeText(status.store))}</dd>
</dl>
<ul id="upstreams"></ul>
<form id="search" action="/search" method="get" role="search">
<input type="search" id="q" name="q" required maxlength="256" placeholder="request key, block hash, height or account" aria-label="search">
<button type="submit">Search</button>
</form>
<p id="search-summary" class="muted" hidden></p>
<table id="found" hidden>
<thead><tr><th>found</th><th>chain</th><th>where</th><th>branch</th></tr></thead>
<tbody id="found-rows"></tbody>
</table>
<h2>Heads of the cut</h2>
<table>
<thead><tr><th>chain</th><th>height</th><th>hash</th><th>age</th></tr></thead>
<tbody id="chains">
${heads}
</tbody>
</table>
<h2>Recent reorgs</h2>
<p id="no-reorgs" class="muted"${status.reorgs.length > 0 ? ' hidden' : ''}>None since the node started.</p>
<table>
<thead><tr><th>time (UTC)</th><th>chain</th><th>depth</th><th>old head → new head</th></tr></thead>
<tbody id="reorgs">
${reorgs}
</tbody>
</table>
<script>${statusScript}</script>
</body>
</html>
`
}
