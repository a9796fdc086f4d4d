/** Where the light entry starts a visitor without a session (shell-history.ts: `/` and SHELL_PATHS, a trailing slash allowed). */
const SHELL_START = String.raw`^\/((login|verifyuser)\/*)?$`;

/**
 * The page's one inline script (written into index.html by vite.config.ts, run before the entry): when main.tsx
 * will load the whole app (a stored session, or any path but `/`, /login and /verifyuser: the opposite of
 * `startsInShell`), it asks the browser for the whole app's first chunks and stylesheets at once, alongside the
 * entry, instead of after the entry has been fetched and run (issue 32 item 8; decision 0028 section 8).
 * On /start with an access token stored (a returning resident) it first runs `startReads`, the file of
 * `startReadsScript` under /assets/, at high priority: his first screen's reads go out while the entry is still coming.
 * A visitor of the sign-in screens gets nothing more. Inline, not a file: a file would be one more request
 * before /login's first paint. `files` are names under /assets/ (chunks `.js`, stylesheets `.css`).
 * Written small by hand (it is in every page and counted in /login's budget); no imports (vite.config.ts loads it).
 * `full-app-preload.test.ts` runs it against `startsInShell`.
 */
export function fullAppPreloadScript(files: readonly string[], startReads: string): string {
  return (
    `try{let s=localStorage,t=s.getItem('access_token'),p=location.pathname,d=document,e=(n,a)=>d.head.append(Object.assign(d.createElement(n),a));` +
    `if(t&&/^\\/start\\/*$/.test(p))e('script',{src:'/assets/${startReads}',fetchPriority:'high'});` +
    `if(t||s.getItem('refresh_token')||!/${SHELL_START}/.test(p))for(let f of '${files.join(' ')}'.split(' '))` +
    `e('link',/css$/.test(f)?{rel:'preload',as:'style',crossOrigin:'',href:'/assets/'+f}:{rel:'modulepreload',crossOrigin:'',href:'/assets/'+f})}catch{}`
  );
}

/**
 * A returning resident's first screen's reads, sent before the entry has arrived (issue 41, Lighthouse: they were
 * two round trips after the entry's evaluation on the way to his barrier's card): /start's three
 * (routes/user/resident-home.ts) and, when his list holds one barrier, that barrier screen's five. A file of its
 * own (vite.config.ts writes it to /assets/), run by the page's inline script on /start only, so that /login
 * carries none of it. Skipped when the stored access token has expired (the app refreshes it first, as ever).
 * Kept in `self.propuskPageReads` (url → [token, time sent, answer]), which lib/page-reads.ts hands to the app's early
 * reads; the list's answer is handed over only once the barrier's reads are in that map (else the app, taking the
 * list, would send them too). The same URLs as the app's own (full-app-preload.test.ts runs both and counts the
 * requests).
 */
export function startReadsScript(): string {
  return (
    `try{let t=localStorage.getItem('access_token'),r=self.propuskPageReads={},b='/api/barriers/',u=b+'my/?page=1&page_size=2',` +
    `f=u=>fetch(u,{headers:{accept:'application/json',authorization:'Bearer '+t}}),h=(u,a)=>{r[u]=[t,Date.now(),a];a.catch(()=>{})},g=u=>h(u,f(u));` +
    `if(JSON.parse(atob(t.split('.')[1].replace(/-/g,'+').replace(/_/g,'/'))).exp*1e3>Date.now()){` +
    `g('/api/users/me/');g('/api/access_requests/my/?type=incoming&status=pending&page=1&page_size=1');` +
    `h(u,f(u).then(a=>a.ok?a.clone().json().then(l=>{if(l.total_count==1)for(let u of ` +
    `['','limits/','phones/my/?page_size=100','guest-passes/?page_size=100','openings/?page=1&page_size=10'])` +
    `g(b+l.barriers[0].id+'/'+u)}).catch(()=>{}).then(()=>a):a))}}catch{}`
  );
}
