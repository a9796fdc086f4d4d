/**
 * The page's head as a search engine and Lighthouse's SEO check read it (issue 41: Lighthouse ≥ 95 on /login,
 * which scored 90 without a description): Russian language, a title and a description in plain Russian.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const page = readFileSync(path.resolve(import.meta.dirname, '../index.html'), 'utf8');

describe('index.html', () => {
  it('says what the app is in Russian: language, title and description', () => {
    expect(page).toContain('<html lang="ru">');
    expect(page).toMatch(/<title>Пропуск<\/title>/);
    const description = /<meta\s+name="description"\s+content="([^"]+)"/.exec(page)?.[1] ?? '';
    expect(description.length).toBeGreaterThan(50);
    expect(description).not.toMatch(/[A-Za-z]/);
  });
});
