/**
 * What every upload must be, whichever store keeps it: a JPEG, PNG or WebP of the type its name
 * says, at most UPLOAD_MAX_BYTES, at most PHOTO_MAX_PIXELS by its header (checked before any
 * memory is reserved for it), and, as served or drawn, render-sized, upright and without
 * metadata. A photo that is not (a camera's original, as clients other than the page send) is
 * reduced once, in a render thread within the memory budget: by the local folder as it stores it,
 * in the bucket at its first use.
 */
import {
  PHOTO_LONG_SIDE,
  PHOTO_MAX_PIXELS,
  STORED_EXTENSIONS,
  UPLOAD_MAX_BYTES,
  type UploadType,
} from '../../../shared/generators/slideshow/slideshow.js'
import { HttpError } from '../../process/errors.js'
import type { PhotoHeader } from '../jobs.js'
import { photoHeader, type PhotoDimensions } from '../photo-header.js'
import type { PhotoReader } from '../photo-source.js'
import { nameOf, type StoredUpload } from './store.js'

/**
 * Makes a photo render-sized (`render/reduce-photo.ts`, a render thread within the memory budget):
 * its bytes are read through `read` only once the job has its thread and memory, so a photo
 * waiting its turn costs nothing outside the budget. In a box too small to draw, it refuses.
 */
export type Reducer = (read: PhotoReader, photo: PhotoHeader, signal?: AbortSignal) => Promise<Uint8Array>

export function unsupportedType(name = ''): HttpError {
  return new HttpError(415, 'unsupported_type', `Unsupported file type. ${name}`.trim(), 'file')
}

/** The product's words for a file over the limit, from the limit itself. */
export function tooBig(): HttpError {
  return new HttpError(413, 'too_large', `File is too big (max ${UPLOAD_MAX_BYTES / 1024 / 1024} MB)`, 'file')
}

/**
 * A file whose name's extension is not its real type. A file is read under one name only, its
 * number with its own type's extension: `photo-3.png` never reads the JPEG kept as number 3.
 */
export function wrongExtension(type: UploadType): HttpError {
  return new HttpError(415, 'wrong_extension', `The file is ${type}: its name must end in .${STORED_EXTENSIONS[type]}.`, 'file')
}

/** The type an upload's first bytes say (`sniffImageType`), when it is the one its key names; else why not (415). */
export function checkedType(type: UploadType | null, key: string, filename?: string): UploadType {
  if (!type) throw unsupportedType(filename)
  if (type !== nameOf(key).type) throw wrongExtension(type)
  return type
}

/**
 * What an upload's header says, refusing one whose header cannot be read (415) or that announces
 * more pixels than may be decoded even to reduce it (413): a decompression bomb is refused from
 * its header, before any memory is reserved for it.
 */
export function checkedDimensions(dimensions: PhotoDimensions | null): PhotoDimensions {
  if (!dimensions) throw new HttpError(415, 'unsupported_type', 'Unsupported file type: the image cannot be read.', 'file')
  if (dimensions.width * dimensions.height > PHOTO_MAX_PIXELS) {
    throw new HttpError(413, 'too_many_pixels', `The image has more than ${PHOTO_MAX_PIXELS} pixels.`, 'file')
  }
  return dimensions
}

/**
 * Whether a photo must be reduced before it is served or drawn: larger than the largest card,
 * turned by its EXIF orientation, not provably bare (`bare.ts`: metadata may hide where a
 * decoder's metadata does not look), or stored in a way that costs a render far more memory than
 * it needs: a progressive JPEG or an interlaced PNG (decoded whole), a JPEG whose colour is not
 * subsampled 4:2:0, 16-bit samples. Made again as a baseline 4:2:0 JPEG or a plain 8-bit PNG, it
 * draws in every shape. The page sends photos so already; they are kept byte for byte.
 */
export function needsReducing(photo: PhotoDimensions, type: UploadType, bare: boolean): boolean {
  const costly = photo.progressive || photo.bitDepth > 8 || (type === 'image/jpeg' && photo.samples > 1.5 && photo.channels > 1)
  return Math.max(photo.width, photo.height) > PHOTO_LONG_SIDE || photo.turnedOrTagged || !bare || costly
}

/**
 * The render-sized copy of an upload whose dimensions were checked (`checkedDimensions`), or null when it may be kept as it came. Every render
 * then reads and decodes the small photo, and nothing served carries where or with what it was taken.
 */
export async function reducedCopy(reduce: Reducer, read: PhotoReader, stored: StoredUpload, dimensions: PhotoDimensions, bare: boolean, signal?: AbortSignal): Promise<Uint8Array | null> {
  if (!needsReducing(dimensions, stored.type, bare)) return null
  return reduce(read, photoHeader(stored, dimensions), signal)
}
