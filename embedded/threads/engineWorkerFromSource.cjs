// The engine thread's module when the server runs from TypeScript sources (jest, tsx): a worker thread does not
// inherit the parent's TypeScript loader, so register tsx's require hook, then load the worker module.
// Built servers (dist/) load the compiled engineWorker.js directly and never use this file.
require('tsx/cjs/api').register();
require('./engineWorker.ts');
