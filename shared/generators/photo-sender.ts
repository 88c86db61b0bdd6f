/**
 * The slideshow's code that prepares photos and sends them, in one file fetched when the visitor
 * reaches for the file input (ImageUploader): a visitor who only reads the page loads none of it.
 */
export { preparePhoto } from './slideshow/photo-prepare.js'
export { uploadImage } from './uploads-client.js'
