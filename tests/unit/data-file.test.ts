import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { readDataFile } from '../../server/data-file.js'

class BadFile extends Error {}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-file-'))
const write = (name: string, text: string) => {
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  return file
}
const schema = z.array(z.object({ id: z.string() }))

describe('reading a data file', () => {
  it('gives the checked data', () => {
    expect(readDataFile(write('good.json', '[{"id":"a"}]'), schema, BadFile)).toEqual([{ id: 'a' }])
  })

  it('names the file of malformed JSON, with the given error class', () => {
    const file = write('broken.json', '[{"id":')
    expect(() => readDataFile(file, schema, BadFile)).toThrow(BadFile)
    expect(() => readDataFile(file, schema, BadFile)).toThrow(file)
  })

  it('names the file and at most its first five problems, each with its path', () => {
    const file = write('wrong.json', JSON.stringify(Array.from({ length: 8 }, () => ({ id: 1 }))))
    let message = ''
    try {
      readDataFile(file, schema, BadFile)
    } catch (error) {
      message = (error as Error).message
    }
    expect(message.startsWith(`${file}: 0.id: `)).toBe(true)
    expect(message.split('; ')).toHaveLength(5)
  })
})
