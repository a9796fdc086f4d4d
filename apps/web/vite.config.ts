import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { fullAppPreloadScript } from './src/app/shell/full-app-preload.ts';

// react-router's package exports point every bundler at its development build (warnings and checks kept in);
// its production build is the same API without them. Only for `vite build`: the dev server keeps the warnings.
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

/**
 * Mantine's ESM files import many sibling modules for nothing but their side effects (`import '../Combobox/
 * Combobox.mjs';`), which they do not have: the package declares only its CSS as side effects. The bundler drops
 * the code but keeps the edge when it groups modules into chunks, so a screen with a NativeSelect carried
 * Combobox, Popover and Floating UI (≈ 18 KB) to every screen past the sign-in (issue 32 item 8). Only for
 * `vite build`.
 */
const mantineBareImport = /^import '\.{1,2}\/[^']+\.mjs';$/gm;
function dropMantineBareImports(): Plugin {
  return {
    name: 'propusk:drop-mantine-bare-imports',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]@mantine[\\/]core[\\/]esm[\\/]/.test(id)) return null;
      return { code: code.replace(mantineBareImport, ''), map: null };
    },
  };
}

/**
 * Writes the page's inline script that fetches the whole app's first chunks and stylesheets alongside the entry
 * when the page will need them (src/app/shell/full-app-preload.ts): full-app.tsx's chunk, the chunks it imports
 * statically but the entry (the resident's first screen with the router, his early reads), and their CSS. Placed
 * before the entry's script. Only for `vite build`.
 */
function preloadFullApp(): Plugin {
  return {
    name: 'propusk:preload-full-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return;
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        // full-app.tsx's chunk: the resident's group, which holds it (or its own chunk, were it not grouped).
        const fullApp = chunks.find((chunk) =>
          chunk.moduleIds.some((id) => id.endsWith('/src/app/full-app.tsx')),
        );
        if (!fullApp) throw new Error('preload-full-app: no chunk for src/app/full-app.tsx');
        const files = new Set<string>();
        const add = (fileName: string) => {
          const chunk = chunks.find((candidate) => candidate.fileName === fileName);
          if (!chunk || chunk.isEntry || files.has(fileName)) return;
          files.add(fileName);
          for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
          for (const imported of chunk.imports) add(imported);
        };
        add(fullApp.fileName);
        const names = [...files].map((file) => file.replace(/^assets\//, ''));
        const script = `<script nonce="PROPUSK_CSP_NONCE">${fullAppPreloadScript(names)}</script>\n    `;
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('preload-full-app: no entry script in index.html');
        return html.slice(0, at) + script + html.slice(at);
      },
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [react(), dropMantineBareImports(), preloadFullApp()],
  resolve:
    command === 'build' ? { alias: [{ find: /^react-router$/, replacement: reactRouterProduction }] } : {},
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  // Marks the page's tags and adds <meta property="csp-nonce">; the server writes a fresh nonce over this
  // placeholder on every page load (apps/server/src/plugins/security-headers.ts), and Mantine reads it.
  html: { cspNonce: 'PROPUSK_CSP_NONCE' },
  // The manifest lets scripts/measure-login-js.mjs add up what the login route loads.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    // Every browser the app supports knows modulepreload: no polyfill on the first load.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Everything the first screen loads (the entry's static imports: React, Mantine's core, the sign-in
        // screens) in one chunk rather than two dozen: one request, and gzip sees it whole (~5 KB less than the
        // same modules in separate files; issue 32 item 8). Lazy screens keep their own chunks.
        codeSplitting: {
          groups: [
            { name: 'first-screen', tags: ['$initial'], priority: 2 },
            // What the code step shares with the resident's first screen (Mantine's Paper, the session's home, the
            // navigation state), apart: in the code step's chunk it made a resident's screen load the code step.
            {
              name: 'sign-in-shared',
              test: /(app[\\/]routes[\\/]find-session-home\.ts|hooks[\\/]use-sign-in-state\.ts|components[\\/]Paper[\\/].*)$/,
              priority: 2,
            },
            // A returning resident's early reads (resident-home.ts): main.tsx imports them when the page is past the
            // sign-in, and the page's inline script fetches them alongside the entry; /login does not carry them.
            { name: 'resident-home', test: /app[\\/]routes[\\/]user[\\/]resident-home\.ts$/, priority: 2 },
            // The code step with what it needs beyond the first screen, in one chunk for the same reason.
            { name: 'code-step', test: /routes[\\/]auth[\\/]verify-user\.tsx$/, priority: 1 },
            // A resident's first screen (his barrier) with what it needs beyond the entry, the router's chunk
            // included: one request instead of ≈ 35 in waves over six connections (decision 0028 section 8).
            // The whole error catalogue (every lazy screen past the sign-in waits for it, router.tsx) and the rest of
            // Mantine's styles (styles/full-app.css) come in it too: a round trip fewer before the screen is drawn.
            // So do full-app.tsx itself (which imports all of it) and the query client and privacy reads it shares
            // with other screens: a returning resident's page asked for ten files at once over six connections, now
            // seven (issue 41, Lighthouse: docs/journal/2026-11-29-lighthouse.md).
            {
              name: 'resident-first-screen',
              test: /(routes[\\/]user[\\/]my-barrier\.tsx|contracts[\\/]src[\\/]error-texts\.ts|app[\\/]styles[\\/]full-app\.css|app[\\/]full-app\.tsx|app[\\/]query-client\.ts|features[\\/]privacy[\\/]api[\\/]privacy-api\.ts)$/,
              priority: 0,
            },
          ],
        },
      },
    },
  },
}));
