/**
 * Subject lines for a request: from the language model when one is configured and free, else,
 * or when it fails, from the offline composer. A visitor always gets a list.
 */
import type { Logger } from 'pino'
import type { SubjectAnswer, SubjectRequest } from '../../../shared/generators/subject-lines/schema.js'
import type { SubjectComposer } from './composer.js'
import { ModelError, type SubjectModel } from './model.js'

/** Calls to the model under way at once; further requests get the composer's lines at once. */
export const MAX_MODEL_CALLS = 8
/** After a failure is logged, further ones within this time are only counted, into the next line. */
const FAILURE_LOG_INTERVAL_MS = 60_000

export interface SubjectGeneratorOptions {
  composer: SubjectComposer
  model?: SubjectModel
  logger: Logger
  now?: () => number
}

export class SubjectGenerator {
  private inFlight = 0
  private lastFailureLog = -Infinity
  private unloggedFailures = 0

  constructor(private readonly options: SubjectGeneratorOptions) {}

  async generate(request: SubjectRequest): Promise<SubjectAnswer> {
    const { model, composer } = this.options
    if (!model || this.inFlight >= MAX_MODEL_CALLS) return composer.compose(request)
    this.inFlight++
    try {
      const lines = await model.generate(request)
      // A line the model left without a usable preheader gets one of the composer's.
      const spare = composer.preheaders(request, lines.subjects.length)
      return { subjects: lines.subjects, preheaders: lines.preheaders.map((preheader, index) => preheader ?? spare[index % spare.length]!) }
    } catch (error) {
      this.noteFailure(error instanceof ModelError ? error.message : String(error))
      return composer.compose(request)
    } finally {
      this.inFlight--
    }
  }

  /** One warn line with the reason, no stack; a run of failures is summed up in the next line. */
  private noteFailure(reason: string): void {
    const now = (this.options.now ?? Date.now)()
    if (now - this.lastFailureLog < FAILURE_LOG_INTERVAL_MS) {
      this.unloggedFailures++
      return
    }
    const earlier = this.unloggedFailures ? { earlierFailures: this.unloggedFailures } : {}
    this.options.logger.warn({ reason, ...earlier }, 'AI subject lines failed: answered with the offline composer')
    this.lastFailureLog = now
    this.unloggedFailures = 0
  }
}
