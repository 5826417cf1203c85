import type { z } from 'zod';
import type { Collection } from '../collection';
import { unsupported, validationError } from '../errors';
import { parsePointId, pointKey, comparePointIds } from '../pointId';
import type { countSchema, retrieveSchema, scrollSchema } from '../schemas/pointsSchema';
import { compileFilter } from '../search/filter';
import { presentRecord, type RecordView } from './presenters';

/** `POST /collections/{name}/points`: the requested ids that exist, in request order. */
export function retrievePoints(collection: Collection, body: z.infer<typeof retrieveSchema>): RecordView[] {
  const seen = new Set<string>();
  const records: RecordView[] = [];
  for (const raw of body.ids) {
    const id = parsePointId(raw);
    const point = collection.get(id);
    if (!point || seen.has(pointKey(id))) continue;
    seen.add(pointKey(id));
    records.push(presentRecord(collection, point, body.with_payload ?? true, body.with_vector ?? false));
  }
  return records;
}

/** `POST /collections/{name}/points/scroll`: a page in id order from `offset` (inclusive). */
export function scrollPoints(collection: Collection, body: z.infer<typeof scrollSchema>) {
  if (body.order_by !== undefined && body.order_by !== null) throw unsupported('scroll with order_by');
  const limit = body.limit ?? 10;
  if (limit < 1) throw validationError('JSON body', [`limit: value ${limit} invalid, must be 1 or larger`]);
  const ordered = collection.inIdOrder();
  const start =
    body.offset === undefined || body.offset === null ? 0 : lowerBound(ordered, parsePointId(body.offset));
  const predicate = body.filter ? compileFilter(body.filter, collection.filterContext()) : undefined;
  const page: RecordView[] = [];
  for (let i = start; i < ordered.length; i++) {
    const point = ordered[i];
    if (predicate && !predicate(collection.filterTarget(point))) continue;
    if (page.length === limit) return { points: page, next_page_offset: point.id };
    page.push(presentRecord(collection, point, body.with_payload ?? true, body.with_vector ?? false));
  }
  return { points: page, next_page_offset: null };
}

function lowerBound(ordered: { id: number | string }[], id: number | string): number {
  let low = 0;
  let high = ordered.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (comparePointIds(ordered[mid].id, id) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** `POST /collections/{name}/points/count`: always exact (an exact count is a valid estimate). */
export function countPoints(collection: Collection, body: z.infer<typeof countSchema>): { count: number } {
  return { count: body.filter ? collection.matching(body.filter).length : collection.size };
}
