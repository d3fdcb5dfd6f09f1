// The auditor's console: `vite build console` (npm run build:console) writes
// console/dist, which `memledger serve` ships at /console
// (src/api/console/console-route.ts). Everything is bundled: the page loads
// nothing from outside the service and nothing inline (the route's
// Content-Security-Policy allows neither).
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Inlined assets would be data: URLs; the policy allows only files of this origin.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
});
