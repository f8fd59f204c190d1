/**
 * @module The docs site (VitePress): built by `npm run docs:build` into `docs/dist/`. Nothing is loaded from a CDN,
 * at build or view time: fonts and the search index (VitePress's local search) are part of the build.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';
import { guideSidebar, isPendingGuide, sidebar } from './sidebar.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
// The nav's Guide link opens the first guide that exists (guides arrive from several branches).
const firstGuide = guideSidebar(root)[0]?.items[0]?.link ?? '/';

export default defineConfig({
  title: 'restgen',
  description: 'Versioned Fastify routes, zod validators, a typed client, OpenAPI and a breaking-change report from a small TypeScript DSL.',
  lang: 'en',
  // RESTGEN_DOCS_DIST: another folder to build into and preview from (the site's tests use a temporary one).
  outDir: process.env['RESTGEN_DOCS_DIST'] ?? 'dist',
  cacheDir: '.vitepress/cache',
  // Sources of the generated reference and the README are not pages.
  srcExclude: ['dist/**', 'README.md'],
  cleanUrls: false,
  lastUpdated: false,
  // Every link between pages is checked by test/docs; the build fails on one it cannot resolve too, except a link to
  // a guide of the sidebar's order that has not arrived yet (see isPendingGuide).
  ignoreDeadLinks: [(link: string) => isPendingGuide(root, link)],
  markdown: { theme: { light: 'github-light', dark: 'github-dark' } },
  // esbuild-wasm stands in for esbuild (no install script); minifying with it is slow and buys nothing here.
  vite: { build: { minify: false, chunkSizeWarningLimit: 2000 } },
  themeConfig: {
    nav: [
      { text: 'Guide', link: firstGuide, activeMatch: '/guide/' },
      { text: 'Reference', link: '/reference/dsl', activeMatch: '/reference/' },
      { text: 'Performance', link: '/performance' },
    ],
    sidebar: sidebar(root),
    outline: { level: [2, 3] },
    search: { provider: 'local' },
    footer: { message: 'MIT licensed.' },
  },
});
