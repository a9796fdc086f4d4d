/**
 * Serves the built SPA (apps/web/dist). Paths under /api/ (and /metrics) never fall through to it: an unknown
 * API path is a JSON 404; any other unknown path is a client-side route and gets index.html.
 *
 * index.html is never served as a plain file: each answer carries a fresh style nonce, written into the page
 * where the build left its placeholder and into that answer's Content-Security-Policy (security-headers.ts).
 * So the page is not cached either: a cached copy would hold a nonce that no later header allows.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { METRICS_PATH } from '../lib/metrics.ts';
import { errorBody } from './error-handler.ts';
import { CSP_NONCE_PLACEHOLDER, type PageContentSecurityPolicy } from './security-headers.ts';

export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  pageContentSecurityPolicy: PageContentSecurityPolicy,
): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const hasBuild = existsSync(indexFile);
  const sendPage = async (reply: FastifyReply) => {
    const { nonce, header } = pageContentSecurityPolicy();
    // Read on every page load (a small file, in the OS cache): a rebuild is served without a restart.
    const page = (await readFile(indexFile, 'utf8')).replaceAll(CSP_NONCE_PLACEHOLDER, nonce);
    return reply
      .header('content-security-policy', header)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(page);
  };
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      allowedPath: (pathname) => pathname !== '/index.html',
      // The build writes .br/.gz beside each asset (apps/web/scripts/compress-dist.mjs).
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        // Hashed file names never change content: cache them for a year.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // An API path, or a missing file (an asset of an older build), is a real 404, never the page.
    const isPage = pathname === '/index.html';
    const isFile = /\.[a-z0-9]+$/i.test(pathname) && !isPage;
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    // /metrics is the server's (Prometheus), never a page: without METRICS_TOKEN it does not exist.
    const isServerPath =
      pathname === '/api' || pathname.startsWith('/api/') || pathname.replace(/\/$/, '') === METRICS_PATH;
    if (isServerPath || !isRead || isFile) {
      return reply.status(404).send(errorBody('not_found'));
    }
    if (!hasBuild) {
      return reply
        .status(200)
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><html lang="ru"><meta charset="utf-8"><title>Пропуск</title><p>Пропуск: веб-приложение не собрано (npm run build -w @propusk/web).</p></html>',
        );
    }
    return sendPage(reply);
  });
}
