import { z } from 'zod';
import { MudAction } from './actions';

interface FieldSchema {
  const?: string;
  enum?: string[];
}

interface OptionSchema {
  properties: Record<string, FieldSchema>;
  required?: string[];
}

/**
 * The action union in one line, read off the zod union (zod's JSON Schema of it), so what the API documents cannot
 * drift from what the rooms accept: `look | move {direction: north|south|...} | ... | command {line}`. Each action
 * with its fields; `?` marks an optional one, `a|b` the values an enumerated one takes.
 */
export function actionSummary(): string {
  const { oneOf } = z.toJSONSchema(MudAction, { io: 'input' }) as { oneOf: OptionSchema[] };
  return oneOf
    .map(({ properties, required = [] }) => {
      const { action, ...fields } = properties;
      const listed = Object.entries(fields).map(([name, field]) => {
        const optional = required.includes(name) ? '' : '?';
        return `${name}${optional}${field.enum ? `: ${field.enum.join('|')}` : ''}`;
      });
      return listed.length > 0 ? `${action.const} {${listed.join(', ')}}` : action.const;
    })
    .join(' | ');
}
