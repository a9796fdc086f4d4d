import { afterEach, describe, expect, it } from 'vitest';
import { fullAppPreloadScript } from './full-app-preload';
import { startsInShell } from './shell-history';

const FILES = ['full-app-abc.js', 'full-app-abc.css', 'resident-first-screen-def.js', 'resident-home-ghi.js'];

function preloadLinks(): { rel: string; href: string; as: string; crossOrigin: string | null }[] {
  return [...document.head.querySelectorAll('link')].map((link) => ({
    rel: link.rel,
    href: link.getAttribute('href') ?? '',
    // jsdom does not reflect `as` as an attribute: the property the script set.
    as: link.as ?? '',
    crossOrigin: link.getAttribute('crossorigin'),
  }));
}

/** The page's inline script (issue 32 item 8): the whole app's first files, fetched when main.tsx will need them. */
describe('the page’s inline preload of the whole app', () => {
  afterEach(() => {
    document.head.innerHTML = '';
    window.localStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('asks for the files exactly when the entry will load the whole app (the opposite of startsInShell)', () => {
    const cases: { path: string; session: boolean }[] = [];
    for (const path of [
      '/',
      '/login',
      '/login/',
      '/verifyuser',
      '/verifyuser//',
      '/start',
      '/mybarrier',
      '/guest/abc',
      '/loginx',
      '/admin',
    ])
      for (const session of [false, true]) cases.push({ path, session });
    for (const { path, session } of cases) {
      window.history.replaceState(null, '', path);
      if (session) window.localStorage.setItem('refresh_token', 'r-1');
      new Function(fullAppPreloadScript(FILES))();
      const fetched = preloadLinks().length > 0;
      expect({ path, session, fetched }).toEqual({ path, session, fetched: !startsInShell() });
      document.head.innerHTML = '';
      window.localStorage.clear();
    }
  });

  it('asks for a returning resident’s chunks as module preloads and his stylesheets as style preloads', () => {
    window.history.replaceState(null, '', '/start');
    window.localStorage.setItem('access_token', 'a-1');
    new Function(fullAppPreloadScript(FILES))();
    expect(preloadLinks()).toEqual([
      { rel: 'modulepreload', href: '/assets/full-app-abc.js', as: '', crossOrigin: '' },
      { rel: 'preload', href: '/assets/full-app-abc.css', as: 'style', crossOrigin: '' },
      { rel: 'modulepreload', href: '/assets/resident-first-screen-def.js', as: '', crossOrigin: '' },
      { rel: 'modulepreload', href: '/assets/resident-home-ghi.js', as: '', crossOrigin: '' },
    ]);
  });
});
