/**
 * `POST api/v2/public/ai/email-subject-generate`: the free subject line generator. Anyone may
 * call it (no session); it is limited per address and, like every post to the dashboard,
 * accepted from the site's own pages only.
 *
 *   → {"industry": "fashion", "tone": "playful", "topic": "summer sale", "emoji": true}
 *   ← {"subjects": ["…", …], "preheaders": ["…", …]}   5 to 10 of each, preheaders[i] goes with subjects[i]
 */
import type { Router } from 'express'
import { subjectRequestSchema } from '../../../shared/generators/subject-lines/schema.js'
import { HttpError } from '../../process/errors.js'
import { parseRequest } from '../../process/validation.js'
import { SubjectComposer } from './composer.js'
import { SubjectGenerator } from './generator.js'
import { SubjectModel } from './model.js'
import type { DashboardContext } from '../../dashboard/context.js'

const SUBJECTS_PATH = '/api/v2/public/ai/email-subject-generate'

export function aiSubjectRoutes(router: Router, context: DashboardContext): void {
  const generator = new SubjectGenerator({
    composer: new SubjectComposer(context.data.subjectPhrases),
    model: context.ai && new SubjectModel(context.ai),
    logger: context.logger.child({ feature: 'subject-lines' }),
    now: context.now,
  })

  router.post(SUBJECTS_PATH, context.limiters.subjects, async (req, res) => {
    res.set('Cache-Control', 'no-store')
    let request
    try {
      request = parseRequest(subjectRequestSchema, req.body)
    } catch (error) {
      if (!(error instanceof HttpError) || !error.field) throw error
      // The dashboard's error body: the field's own message, and one line naming it.
      const text = error.message.slice(error.field.length + 2)
      res.status(400).json({ message: error.message, errors: { [error.field]: [text] } })
      return
    }
    res.json(await generator.generate(request))
  })
}
