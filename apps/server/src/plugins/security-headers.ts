/**
 * Security headers on every answer: the web app's page and files, the API, its JSON errors (404, 400, 500)
 * and the API docs, set in an `onRequest` hook, before any handler or error, so no path leaves without them.
 * Helmet writes them, once at start-up: its headers depend on the options only, so they are computed then and
 * each request gets a copy (issue 44 part 5). @fastify/helmet ran Helmet's whole middleware chain on every
 * request (the policy's directives parsed again, each header set and checked one by one on the raw
 * response): ~7% of the server's CPU on GET /api/health/.
 *
 * The Content-Security-Policy allows only this origin: scripts from our files and the page's one inline script
 * (it fetches the whole app's first chunks alongside the entry: apps/web/src/app/shell/full-app-preload.ts), no
 * plugins, no framing, calls to our own API only (the app polls; it opens no SSE or WebSocket).
 * Styles come from our files plus the `<style>` elements Mantine writes at run time (its CSS variables,
 * responsive style props). Those and the inline script carry a per-response nonce instead of `'unsafe-inline'`: the page is
 * served with a fresh nonce (`PageContentSecurityPolicy`, used by web-app.ts), Vite marks the build with a placeholder that the
 * server replaces (apps/web/vite.config.ts), and MantineProvider reads it (`getStyleNonce`). Inline `style`
 * attributes stay forbidden; React sets the `style` prop through the CSSOM, which CSP allows.
 *
 * HTTPS is the reverse proxy's (README, "Production"): HSTS and `upgrade-insecure-requests` are sent only
 * when HSTS_MAX_AGE_SECONDS is set, because on plain HTTP they would make browsers refuse the site.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** What the web build writes where the nonce goes (`html.cspNonce` in apps/web/vite.config.ts). */
export const CSP_NONCE_PLACEHOLDER = 'PROPUSK_CSP_NONCE';

type Directives = Record<string, string[]>;

function contentSecurityPolicyDirectives(options: { https: boolean }): Directives {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'none'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    ...(options.https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

function serialize(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join(';');
}

export interface SecurityHeadersOptions {
  /** Seconds of Strict-Transport-Security; 0 sends none (the site is not known to be on HTTPS). */
  hstsMaxAgeSeconds: number;
}

/** A fresh nonce (styles and the page's inline script) and the Content-Security-Policy of the web app's page that allows it. */
export type PageContentSecurityPolicy = () => { nonce: string; header: string };

/**
 * The headers Helmet sets for these options, in its order: its middleware run once on a stand-in response
 * that records them (Helmet only sets and removes headers; its one removal, X-Powered-By, Node never sends).
 */
export function helmetHeaders(options: Readonly<HelmetOptions>): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers.set(name.toLowerCase(), String(value));
    },
    removeHeader: (name: string) => {
      headers.delete(name.toLowerCase());
    },
  };
  let failure: unknown;
  helmet(options)({} as never, recorder as never, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return [...headers];
}

export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: SecurityHeadersOptions,
): Promise<PageContentSecurityPolicy> {
  const https = options.hstsMaxAgeSeconds > 0;
  const directives = contentSecurityPolicyDirectives({ https });
  const headers = helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives },
    xFrameOptions: { action: 'deny' },
    xContentTypeOptions: true,
    // Our URLs carry ids (barriers, users); no other site needs to see them.
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: https
      ? { maxAge: options.hstsMaxAgeSeconds, includeSubDomains: false, preload: false }
      : false,
  });
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.header(name, value);
    done();
  });
  return () => {
    const nonce = randomBytes(16).toString('base64');
    const withNonce = (name: string) => [...(directives[name] ?? []), `'nonce-${nonce}'`];
    return {
      nonce,
      header: serialize({
        ...directives,
        'script-src': withNonce('script-src'),
        'style-src': withNonce('style-src'),
      }),
    };
  };
}
