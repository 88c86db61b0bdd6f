/**
 * Where each chosen photo is on its way to the image service, as its card shows it and as a
 * screen reader hears it: waiting for its turn (photos are prepared one at a time), being
 * prepared, being sent, ready.
 */
import type { PrepareStep } from './photo-render.js'

export type PhotoPhase = 'waiting' | 'preparing' | 'sending' | 'ready'

/** The uploader's own stages, which the card draws its progress bar from. */
export const CARD_STAGES = { waiting: 'preparing', preparing: 'preparing', sending: 'uploading', ready: 'ready' } as const satisfies Record<PhotoPhase, string>

/**
 * How far preparing is, in percent. The browser says nothing from within a decode or an encode,
 * so it moves in two coarse steps: nothing while the photo is decoded, half once it is encoded.
 */
export function preparingProgress(step: PrepareStep): number {
  return step === 'encoding' ? 50 : 0
}

/** What a card says of its photo: "Waiting", "Preparing 50 %", "Sending 45 %", "Ready". */
export function phaseLabel(phase: PhotoPhase, progress: number): string {
  if (phase === 'waiting') return 'Waiting'
  if (phase === 'ready') return 'Ready'
  return `${phase === 'preparing' ? 'Preparing' : 'Sending'} ${Math.round(progress)} %`
}

/**
 * What a screen reader hears when a photo moves on: once a phase, without its progress, so that
 * ten photos say thirty short things, not one for every percent. Waiting is not said: every new
 * photo starts there, and its card says so.
 */
export function phaseAnnouncement(position: number, total: number, phase: PhotoPhase): string {
  return `Photo ${position} of ${total}: ${phase}`
}
