import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BuildInfo {
  version: string;
  commit: string;
  build_date: string;
}

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The version is the root package's; commit and build date come from build-info.json, written
 * by `npm run build` (scripts/write-build-info.mjs), or from DOCQA_COMMIT / DOCQA_BUILD_DATE set by
 * an image build. A source checkout that was never built says "unknown".
 */
export function readBuildInfo(): BuildInfo {
  const rootPackage = JSON.parse(fs.readFileSync(path.resolve(packageRoot, '../../package.json'), 'utf8')) as {
    version: string;
  };
  let written: Partial<BuildInfo> = {};
  const file = path.join(packageRoot, 'build-info.json');
  if (fs.existsSync(file)) written = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<BuildInfo>;
  return {
    version: rootPackage.version,
    commit: process.env.DOCQA_COMMIT ?? written.commit ?? 'unknown',
    build_date: process.env.DOCQA_BUILD_DATE ?? written.build_date ?? 'unknown',
  };
}
