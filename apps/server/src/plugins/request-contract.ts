/**
 * What every route does with a request before its own code runs (DESIGN.md section 2):
 * - authentication comes before validation: a route that needs a login answers 401 to a missing or bad token
 *   whatever its body (its `authenticate` / `requireAdmin` preHandler is moved to preValidation);
 * - a JSON content type with an empty body is an empty object;
 * - text with control characters (NUL and the like; tab and line breaks are text) is a 400 on its field,
 *   checked here once for every body and query string, never a 500 further on.
 * Registered before the routes: the onRoute hook sees each of them as it is added.
 */
import type {
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
  preValidationHookHandler,
} from 'fastify';
import { FieldError } from '../lib/errors.ts';

export const CONTROL_CHARACTER_MESSAGE = 'Must not contain control characters.';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here
const controlCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * Field paths (`full_name`, `replies.add.0`) of every string holding a control character. Walked with a
 * stack of its own, not by recursion: a body nested thousands of levels deep (a few kilobytes of `[[[…`) must
 * be a 400 of the validation, not a stack overflow (a 500).
 */
export function fieldsWithControlCharacters(value: unknown, path = ''): string[] {
  const found: string[] = [];
  const stack: { value: unknown; path: string; key?: string }[] = [{ value, path }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item.key !== undefined && controlCharacters.test(item.key)) found.push(item.path);
    const current = item.value;
    if (typeof current === 'string') {
      if (controlCharacters.test(current)) found.push(item.path || 'non_field_errors');
    } else if (Array.isArray(current)) {
      // Pushed last first, so that the paths come out in the body's order.
      for (let index = current.length - 1; index >= 0; index--)
        stack.push({ value: current[index], path: join(item.path, index) });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, child] = entries[index] as [string, unknown];
        stack.push({ value: child, path: join(item.path, key), key });
      }
    }
  }
  return found;
}

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/**
 * Whether any string (or key) in the value holds a control character: the walk above without its paths, so
 * that a clean request (nearly all of them) builds no path strings; the paths are made for a refusal only.
 */
function hasControlCharacters(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return controlCharacters.test(value);
  if (typeof value !== 'object') return false;
  const stack: unknown[] = [value];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    if (typeof current === 'string') {
      if (controlCharacters.test(current)) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
    } else if (current !== null && typeof current === 'object') {
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        if (controlCharacters.test(key)) return true;
        stack.push((current as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** Synchronous (issue 44 part 5): an async hook costs every request a promise and a microtask. */
const rejectControlCharacters: preValidationHookHandler = (request: FastifyRequest, _reply, done) => {
  if (!hasControlCharacters(request.body) && !hasControlCharacters(request.query)) {
    done();
    return;
  }
  const fields = [
    ...fieldsWithControlCharacters(request.body),
    ...fieldsWithControlCharacters(request.query),
  ];
  done(new FieldError(Object.fromEntries(fields.map((field) => [field, [CONTROL_CHARACTER_MESSAGE]]))));
};

type Hook = onRequestHookHandler | preValidationHookHandler;
const asList = (hooks: Hook | Hook[] | undefined): Hook[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

export function installRequestContract(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, {});
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      const malformed = error as Error & { statusCode?: number };
      malformed.statusCode = 400;
      done(malformed, undefined);
    }
  });

  app.addHook('onRoute', (route) => {
    const authHooks = new Set<unknown>([app.authenticate, app.requireAdmin]);
    const preHandlers = asList(route.preHandler as Hook | Hook[] | undefined);
    const auth = preHandlers.filter((hook) => authHooks.has(hook));
    const rest = preHandlers.filter((hook) => !authHooks.has(hook));
    route.preValidation = [
      ...auth,
      ...asList(route.preValidation as Hook | Hook[] | undefined),
      rejectControlCharacters,
    ] as preValidationHookHandler[];
    route.preHandler = rest as preValidationHookHandler[];
  });
}
