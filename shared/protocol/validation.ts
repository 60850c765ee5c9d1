// Turns schema failures into short messages in the spirit of codex's serde errors
// ("missing field `processId`", "unknown variant `kill`, expected ..."), used for -32602 responses.
import type { z } from 'zod';

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'sequence';
  if (typeof value === 'object') return 'map';
  if (typeof value === 'string')
    return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

/** Describes the first issue of `error`, which came from parsing `input`. */
export function describeSchemaError(error: z.ZodError, input: unknown): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid params';
  const field = issue.path.map(String).join('.');
  const leaf = issue.path.length > 0 ? String(issue.path[issue.path.length - 1]) : '';
  const actual = valueAt(input, issue.path);
  const where = field ? ` at \`${field}\`` : '';
  if (issue.code === 'invalid_type' && actual === undefined && leaf) return `missing field \`${leaf}\``;
  if (issue.code === 'invalid_value') {
    const expected = issue.values.map((v) => `\`${String(v)}\``).join(', ');
    return `unknown variant \`${String(actual)}\`, expected ${expected}${where}`;
  }
  if (issue.code === 'invalid_type')
    return `invalid type: ${describeValue(actual)}, expected ${issue.expected}${where}`;
  if (issue.code === 'too_small' || issue.code === 'too_big')
    return `invalid value${where}: ${issue.message}`;
  return `${issue.message}${where}`;
}
