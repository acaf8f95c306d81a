// Builds the site into dist/ (or the directory given as the first argument): type-checking is
// done before by `tsc --noEmit` (npm run build). The bundle and its CSS get content-hashed names,
// index.html refers to them, and each asset also gets a gzip and a brotli copy so the server can
// send the compressed bytes without compressing anything itself.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const out = process.argv[2] ?? 'dist';
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const banner =
  '/*! Umpire web site, GPL-3.0-or-later. Includes chessground (lichess.org), ' +
  'GPL-3.0-or-later: see /assets/LICENSE.txt */';

const result = await esbuild.build({
  entryPoints: ['src/main.ts'],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  outdir: out,
  entryNames: 'assets/[name]-[hash]',
  assetNames: 'assets/[name]-[hash]',
  banner: { js: banner, css: banner },
  legalComments: 'none',
  metafile: true,
  write: true,
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => relative(resolve(out), resolve(p)));
const js = outputs.find((p) => p.endsWith('.js'));
const css = outputs.find((p) => p.endsWith('.css'));
if (!js || !css) throw new Error('the bundle has no JS or no CSS');

// The licence of this site and of chessground, served beside the bundle.
const licence =
  'The Umpire web site is free software under the GNU General Public License, version 3 or\n' +
  '(at your option) any later version. It includes chessground (https://github.com/lichess-org/chessground),\n' +
  'also GPL-3.0-or-later, whose notice follows.\n\n' +
  readFileSync('node_modules/@lichess-org/chessground/LICENSE', 'utf8');
writeFileSync(join(out, 'assets/LICENSE.txt'), licence);

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Umpire: Kriegspiel</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/${css}">
<script type="module" src="/${js}"></script>
</head>
<body>
<noscript>This site needs JavaScript. The command-line client, umpire connect, plays without it.</noscript>
<div id="app" aria-busy="true">Loading…</div>
</body>
</html>
`;
writeFileSync(join(out, 'index.html'), html);

// The bundle's hash: the service worker names it, so a new build is a new worker (and a new cache).
const hash = createHash('sha256');
for (const o of outputs.sort()) hash.update(readFileSync(join(out, o)));
const version = hash.digest('hex').slice(0, 12);

// The service worker, at a stable address (/sw.js): the app shell of this build (the page, its
// script, its styles) kept for when the server does not answer.
await esbuild.build({
  entryPoints: ['src/sw/worker.ts'],
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2022',
  outfile: join(out, 'sw.js'),
  banner: { js: banner },
  legalComments: 'none',
  define: {
    UMPIRE_SHELL: JSON.stringify(['/', '/' + js, '/' + css]),
    UMPIRE_VERSION: JSON.stringify(version),
  },
  write: true,
  logLevel: 'warning',
});

// Compressed copies of every text file.
function compress(path) {
  const bytes = readFileSync(path);
  writeFileSync(path + '.gz', gzipSync(bytes, { level: 9 }));
  writeFileSync(
    path + '.br',
    brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
}
for (const name of readdirSync(join(out, 'assets'))) compress(join(out, 'assets', name));
compress(join(out, 'index.html'));
compress(join(out, 'sw.js'));

console.log(`built ${out}: ${js}, ${css}, sw.js (${version})`);
