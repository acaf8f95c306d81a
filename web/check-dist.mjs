// Fails when the committed dist/ is not what `npm run build` makes from the sources: builds into
// a temporary directory and compares every file byte for byte; a compressed copy (.gz, .br) is
// compared by what it decompresses to, since compressors may differ between Node versions.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

function files(dir) {
  const all = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) all.push(...files(path));
    else all.push(path);
  }
  return all;
}

function plain(path) {
  const bytes = readFileSync(path);
  if (path.endsWith('.gz')) return gunzipSync(bytes);
  if (path.endsWith('.br')) return brotliDecompressSync(bytes);
  return bytes;
}

const fresh = mkdtempSync(join(tmpdir(), 'umpire-web-'));
try {
  execFileSync(process.execPath, ['build.mjs', fresh], { stdio: 'inherit' });
  const want = files(fresh).map((p) => relative(fresh, p)).sort();
  const have = files('dist').map((p) => relative('dist', p)).sort();
  const problems = [];
  for (const name of want) if (!have.includes(name)) problems.push(`missing from dist: ${name}`);
  for (const name of have) if (!want.includes(name)) problems.push(`stale in dist: ${name}`);
  for (const name of want.filter((n) => have.includes(n))) {
    if (!plain(join(fresh, name)).equals(plain(join('dist', name)))) problems.push(`differs: ${name}`);
  }
  if (problems.length > 0) {
    console.error('web/dist is not the build of web/src: run `npm run build` in web/ and commit dist/');
    for (const p of problems) console.error('  ' + p);
    process.exit(1);
  }
  console.log(`web/dist matches a fresh build (${want.length} files)`);
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
