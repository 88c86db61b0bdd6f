/**
 * Text made safe inside HTML the site writes as a string (a snippet to paste, options React
 * leaves be): in an element's text or a double-quoted attribute, it stays text.
 */
export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
