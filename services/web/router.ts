import fs from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler } from 'express';
import { webError } from './errors';
import type { ApiRoutes } from '../../platform/http/routes';

/** Files of the built client that may change on every build: browsers revalidate them (ETag) before use. */
const REVALIDATE = 'no-cache';

/** 503 for `/` while the client has not been built (`npm run build`). */
const notBuilt: RequestHandler = (req, _res, next) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return next();
  if (req.path !== '/' && req.path !== '/index.html') return next();
  next(
    webError(
      'WEB_CLIENT_NOT_BUILT',
      'The web client has not been built: run `npm run build` (npm start does it).',
    ),
  );
};

/**
 * Serves the built web client (`dist/web`: index.html, app.js, style.css) at `/`. Only files that exist are
 * answered, so every API path and its 404 stay the API's. Not part of the OpenAPI document: it is a page.
 */
export function registerWebClient(routes: ApiRoutes, directory: string): void {
  if (!fs.existsSync(path.join(directory, 'index.html'))) {
    routes.router.use(notBuilt);
    return;
  }
  routes.router.use(
    express.static(directory, {
      index: 'index.html',
      redirect: false,
      setHeaders: (res) => res.setHeader('Cache-Control', REVALIDATE),
    }),
  );
}
