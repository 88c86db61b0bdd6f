// gifenc ships no types; these cover the part of its API the giffer uses.
declare module 'gifenc' {
  export type RgbColor = [number, number, number]

  export interface FrameOptions {
    palette?: RgbColor[] | null
    delay?: number
    transparent?: boolean
    transparentIndex?: number
    repeat?: number
    colorDepth?: number
    dispose?: number
    first?: boolean
  }

  export interface Encoder {
    writeFrame(index: Uint8Array, width: number, height: number, options?: FrameOptions): void
    writeHeader(): void
    finish(): void
    bytes(): Uint8Array
    bytesView(): Uint8Array
  }

  export function GIFEncoder(options?: { initialCapacity?: number; auto?: boolean }): Encoder
  export function quantize(
    rgba: Uint8Array | Uint8ClampedArray,
    maxColors: number,
    options?: { format?: 'rgb565' | 'rgb444' | 'rgba4444'; oneBitAlpha?: boolean | number; clearAlpha?: boolean },
  ): RgbColor[]
  export function applyPalette(
    rgba: Uint8Array | Uint8ClampedArray,
    palette: RgbColor[],
    format?: 'rgb565' | 'rgb444' | 'rgba4444',
  ): Uint8Array
}
