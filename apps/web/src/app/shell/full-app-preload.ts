/** Where the light entry starts a visitor without a session (shell-history.ts: `/` and SHELL_PATHS, a trailing slash allowed). */
const SHELL_START = String.raw`^\/((login|verifyuser)\/*)?$`;

/**
 * The page's one inline script (written into index.html by vite.config.ts, run before the entry): when main.tsx
 * will load the whole app (a stored session, or any path but `/`, /login and /verifyuser: the opposite of
 * `startsInShell`), it asks the browser for the whole app's first chunks and stylesheets at once, alongside the
 * entry, instead of after the entry has been fetched and run (issue 32 item 8; decision 0028 section 8).
 * A visitor of the sign-in screens gets nothing more. Inline, not a file: a file would be one more request
 * before /login's first paint. `files` are names under /assets/ (chunks `.js`, stylesheets `.css`).
 * Written small by hand (it is in every page and counted in /login's budget); no imports (vite.config.ts loads it).
 * `full-app-preload.test.ts` runs it against `startsInShell`.
 */
export function fullAppPreloadScript(files: readonly string[]): string {
  return (
    `try{let s=localStorage;if(s.getItem('access_token')||s.getItem('refresh_token')||!/${SHELL_START}/.test(location.pathname))` +
    `for(let f of '${files.join(' ')}'.split(' ')){let l=document.createElement('link'),c=/css$/.test(f);` +
    `l.rel=c?'preload':'modulepreload';if(c)l.as='style';l.crossOrigin='';l.href='/assets/'+f;document.head.append(l)}}catch{}`
  );
}
