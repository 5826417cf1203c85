/**
 * A search refused because its query is blank: raised by the search services (`searchService.ts`,
 * `ai/router/routedSearchService.ts`), which sit below HTTP and know no status, error code or request location. The
 * service that called maps it at its edge (the brain: 400 BRAIN_QUERY_EMPTY on the request body's query field,
 * `services/brain/aiErrors.ts`).
 */
export class BlankQueryError extends Error {
  /** The input field at fault, named as the search request names it. */
  readonly field = 'query';
  /** What is wrong with the field. */
  readonly reason = 'blank';

  constructor() {
    super('query must not be blank');
    this.name = 'BlankQueryError';
  }
}
