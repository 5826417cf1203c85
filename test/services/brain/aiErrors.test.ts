import { BlankQueryError } from '../../../ai/retrieval/blankQueryError';
import { SearchService } from '../../../ai/retrieval/searchService';
import { AppError } from '../../../platform/errors';
import { BrainSearchService, brainErrorOf } from '../../../services/brain/aiErrors';

describe("the brain's edge over ai/ errors", () => {
  it('answers a blank query as 400 BRAIN_QUERY_EMPTY at body.query, as the routes always have', () => {
    const error = brainErrorOf(new BlankQueryError());

    expect(error).toBeInstanceOf(AppError);
    const { status, code, title, detail, errors } = error as AppError;
    expect({ status, code, title, detail, errors }).toEqual({
      status: 400,
      code: 'BRAIN_QUERY_EMPTY',
      title: 'Invalid request',
      detail: 'query must not be blank',
      errors: [{ path: 'body.query', message: 'blank' }],
    });
  });

  it('passes every other error through unchanged', () => {
    const other = new Error('store down');
    expect(brainErrorOf(other)).toBe(other);
  });

  it("maps the search service's refusal, and searches the same otherwise", async () => {
    const strategy = jest.fn(async () => []);
    const brain = new BrainSearchService({ fulltext: strategy, semantic: strategy, hybrid: strategy });

    const error = await brain.search({ query: '  ' }).catch((e: unknown) => e);

    expect((error as AppError).code).toBe('BRAIN_QUERY_EMPTY');
    expect(brain).toBeInstanceOf(SearchService);
    await expect(brain.search({ query: 'breaker', strategy: 'fulltext' })).resolves.toMatchObject({
      hits: [],
    });
    expect(strategy).toHaveBeenCalledTimes(1);
  });
});
