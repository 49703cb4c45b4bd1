import type { IngestContext } from './context.js'
import { copy } from './copy.js'
import { followStep, sweepTips } from './follow-step.js'
import { type Wanted, want } from './reach.js'
import type { ScheduleEvent, Work, WorkKind } from './schedule.js'

/** A piece of work that does something (not a wait or the end). */
export type RunnableWork = Extract<Work, { kind: WorkKind }>

/** How a piece of work ended, for the schedule's `done` event: the blocks it wrote, a step's outcome. */
export type WorkDone = Pick<Extract<ScheduleEvent, { type: 'done' }>, 'wrote' | 'outcome'>

/**
 * Runs one piece of work that `nextWork` gave: a copy (its pages and progress reported as it goes),
 * a follow step on its announcements, or a sweep of every chain's tip.
 */
export async function runWork(ctx: IngestContext, work: RunnableWork): Promise<WorkDone> {
  const { settings } = ctx
  switch (work.kind) {
    case 'copy': {
      const wrote = await copy(ctx, {
        onPage: (page) => settings.onEvent?.({ type: 'page', ...page }),
        onProgress: (done, total) => settings.onProgress?.(done, total),
      })
      return { wrote }
    }
    case 'step': {
      const announced: Wanted = new Map()
      for (const announcement of work.announced) want(announced, announcement.chain, announcement)
      return followStep(ctx, announced, work.announcedAll)
    }
    case 'sweep':
      return { wrote: await sweepTips(ctx) }
  }
}

/** Logs and reports (`synced`) a copy that reached the upstream's cut, once the schedule took it in. */
export function reportCopied(ctx: IngestContext, inserted: number, ms: number): void {
  const { settings } = ctx
  settings.logger.info({ upstream: ctx.pool.current?.url, inserted, ms }, 'copied up to the upstream cut')
  settings.onEvent?.({ type: 'synced', inserted, chains: ctx.network.graphs[0]?.graph.size ?? 0 })
}
