// The offline embedder's worker when the server runs from TypeScript sources (jest, `npm run dev`): a worker thread
// does not inherit the parent's TypeScript loader, so register tsx's require hook, then load the worker module.
// Built servers (dist/) load the compiled offlineEmbedderWorker.js directly and never use this file.
require('tsx/cjs/api').register();
module.exports = require('./offlineEmbedderWorker.ts').default;
