import type { z } from 'zod';

/** One problem in the world data: the file (relative to the world directory), the field path and what is wrong. */
export interface ContentIssue {
  file: string;
  path: string;
  message: string;
}

/**
 * Thrown by `loadWorld` when world data is invalid. Carries every issue found (not just the first), and its
 * message lists them one per line as `file: path: message`.
 */
export class WorldContentError extends Error {
  readonly code = 'WORLD_CONTENT_INVALID';

  constructor(readonly issues: ContentIssue[]) {
    super(`Invalid world data:\n${issues.map(formatIssue).join('\n')}`);
    this.name = 'WorldContentError';
  }
}

/** `village/area.yml: rooms.square.exits.north: unknown room "village:nowhere"`. */
export function formatIssue(issue: ContentIssue): string {
  return issue.path ? `${issue.file}: ${issue.path}: ${issue.message}` : `${issue.file}: ${issue.message}`;
}

/** Dotted field path with array indexes in brackets: `rooms.square.spawns[0].creature`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** Turns zod issues into content issues for `file`, one per unknown key so each names its field. */
export function issuesFromZod(file: string, error: z.ZodError, prefix: PropertyKey[] = []): ContentIssue[] {
  return error.issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ file, path: formatPath([...path, key]), message: 'unknown field' }));
    }
    return [{ file, path: formatPath(path), message: issue.message }];
  });
}
