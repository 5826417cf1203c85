import { BlankQueryError } from '../../ai/retrieval/blankQueryError';
import { SearchService, type SearchRequest, type SearchResponse } from '../../ai/retrieval/searchService';
import {
  RoutedSearchService,
  type RoutedSearchRequest,
  type RoutedSearchResponse,
} from '../../ai/router/routedSearchService';
import { brainError } from './errors';

/**
 * The brain's edge over the retrieval machinery: `ai/` raises its own errors (no status, no request location), and
 * this maps them to the brain's codes and the request fields its routes read. Anything else passes unchanged.
 */
export function brainErrorOf(error: unknown): unknown {
  if (error instanceof BlankQueryError) {
    return brainError('BRAIN_QUERY_EMPTY', error.message, {
      errors: [{ path: `body.${error.field}`, message: error.reason }],
    });
  }
  return error;
}

/** `SearchService` (POST /brain/search) with its refusals in the brain's codes. */
export class BrainSearchService extends SearchService {
  override async search(request: SearchRequest): Promise<SearchResponse> {
    try {
      return await super.search(request);
    } catch (error) {
      throw brainErrorOf(error);
    }
  }
}

/** `RoutedSearchService` (POST /brain/search/v2) with its refusals in the brain's codes. */
export class BrainRoutedSearchService extends RoutedSearchService {
  override async search(request: RoutedSearchRequest): Promise<RoutedSearchResponse> {
    try {
      return await super.search(request);
    } catch (error) {
      throw brainErrorOf(error);
    }
  }
}
