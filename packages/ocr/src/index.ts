// The OCR both extractors use (images, and PDF pages without a text layer): one package, so a fix to
// the worker pool or the language staging reaches both.
export { ocrIdleMs, recognisePng, stopOcrWorkers, withOcrWorker, type OcrJob } from './ocr-engine.js';
export { defaultOcrLanguages, stageLanguages, traineddataFile } from './ocr-languages.js';
export { meanConfidence, minParagraphConfidence, pageText, type PageText } from './ocr-text.js';
