import { createCollection, presentCollectionInfo, validateCollectionName } from '../api/collectionsApi';
import { parseWith } from '../api/parseBody';
import { countPoints, retrievePoints, scrollPoints } from '../api/pointReads';
import {
  createPayloadIndex,
  deletePayloadIndex,
  deletePoints,
  upsertPoints,
  writePayload,
} from '../api/pointWrites';
import { queryPoints, searchPoints } from '../api/vectorSearch';
import type { Catalog } from '../catalog';
import { parsePointId } from '../pointId';
import {
  countSchema,
  createIndexSchema,
  pointsSelectorSchema,
  querySchema,
  retrieveSchema,
  scrollSchema,
  searchSchema,
  setPayloadSchema,
  upsertSchema,
} from '../schemas/pointsSchema';
import { pointNotFound } from '../errors';
import { presentRecord } from '../api/presenters';

/** What a route handler receives. */
export interface RouteContext {
  catalog: Catalog;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
}

/** One route: its method, path template (`{name}` segments) and handler returning the `result` value. */
export interface Route {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  path: string;
  handle(context: RouteContext): unknown;
}

/** Qdrant's `wait` query flag (default false). */
function waitOf(query: URLSearchParams): boolean {
  return query.get('wait') === 'true';
}

/** Every route the engine serves, in Qdrant's paths. */
export const routes: Route[] = [
  {
    method: 'GET',
    path: '/collections',
    handle: ({ catalog }) => ({ collections: catalog.names().map((name) => ({ name })) }),
  },
  {
    method: 'PUT',
    path: '/collections/{name}',
    handle: ({ catalog, params, body }) => createCollection(catalog, params.name, body),
  },
  {
    method: 'GET',
    path: '/collections/{name}',
    handle: ({ catalog, params }) => presentCollectionInfo(catalog.get(params.name)),
  },
  {
    method: 'DELETE',
    path: '/collections/{name}',
    handle: ({ catalog, params }) => catalog.delete(params.name),
  },
  {
    method: 'GET',
    path: '/collections/{name}/exists',
    handle: ({ catalog, params }) => {
      validateCollectionName(params.name);
      return { exists: catalog.has(params.name) };
    },
  },
  {
    method: 'PUT',
    path: '/collections/{name}/index',
    handle: ({ catalog, params, body, query }) =>
      createPayloadIndex(catalog, params.name, parseWith(createIndexSchema, body), waitOf(query)),
  },
  {
    method: 'DELETE',
    path: '/collections/{name}/index/{field}',
    handle: ({ catalog, params, query }) =>
      deletePayloadIndex(catalog, params.name, params.field, waitOf(query)),
  },
  {
    method: 'PUT',
    path: '/collections/{name}/points',
    handle: ({ catalog, params, body, query }) =>
      upsertPoints(catalog, params.name, parseWith(upsertSchema, body), waitOf(query)),
  },
  {
    method: 'POST',
    path: '/collections/{name}/points',
    handle: ({ catalog, params, body }) =>
      retrievePoints(catalog.get(params.name), parseWith(retrieveSchema, body)),
  },
  {
    method: 'GET',
    path: '/collections/{name}/points/{id}',
    handle: ({ catalog, params }) => {
      const collection = catalog.get(params.name);
      const id = parsePointId(/^\d+$/.test(params.id) ? Number(params.id) : params.id);
      const point = collection.get(id);
      if (!point) throw pointNotFound(id);
      return presentRecord(collection, point, true, true);
    },
  },
  {
    method: 'POST',
    path: '/collections/{name}/points/delete',
    handle: ({ catalog, params, body, query }) =>
      deletePoints(catalog, params.name, parseWith(pointsSelectorSchema, body), waitOf(query)),
  },
  {
    method: 'POST',
    path: '/collections/{name}/points/payload',
    handle: ({ catalog, params, body, query }) =>
      writePayload(catalog, params.name, parseWith(setPayloadSchema, body), 'set_payload', waitOf(query)),
  },
  {
    method: 'PUT',
    path: '/collections/{name}/points/payload',
    handle: ({ catalog, params, body, query }) =>
      writePayload(
        catalog,
        params.name,
        parseWith(setPayloadSchema, body),
        'overwrite_payload',
        waitOf(query),
      ),
  },
  {
    method: 'POST',
    path: '/collections/{name}/points/scroll',
    handle: ({ catalog, params, body }) =>
      scrollPoints(catalog.get(params.name), parseWith(scrollSchema, body ?? {})),
  },
  {
    method: 'POST',
    path: '/collections/{name}/points/count',
    handle: ({ catalog, params, body }) =>
      countPoints(catalog.get(params.name), parseWith(countSchema, body ?? {})),
  },
  {
    method: 'POST',
    path: '/collections/{name}/points/search',
    handle: ({ catalog, params, body }) =>
      searchPoints(catalog.get(params.name), parseWith(searchSchema, body)),
  },
  {
    method: 'POST',
    path: '/collections/{name}/points/query',
    handle: ({ catalog, params, body }) =>
      queryPoints(catalog.get(params.name), parseWith(querySchema, body ?? {})),
  },
];
