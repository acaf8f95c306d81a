// Compiles the unit tests (test/*.test.ts, with the pure modules they import) to
// target/tests/ for `node --test`.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';

rmSync('target/tests', { recursive: true, force: true });
const entryPoints = readdirSync('test')
  .filter((n) => n.endsWith('.test.ts'))
  .map((n) => 'test/' + n);
await esbuild.build({
  entryPoints,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outdir: 'target/tests',
  outExtension: { '.js': '.mjs' },
  logLevel: 'warning',
});
