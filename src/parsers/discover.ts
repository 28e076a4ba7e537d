/**
 * Report discovery: globs with `!` excludes; a directory stands for the report files in it; a
 * pattern that matches nothing is an error by default.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import fg from 'fast-glob';
import { FORMATS } from './registry.js';
import { ConfigError } from '../shared/errors.js';
import { ReportError } from './base/model.js';

export interface DiscoverOptions {
  cwd?: string;
  /** Default true: a glob that matches no file is a ReportError naming it. */
  failOnEmpty?: boolean;
  /** Backslashes separate path parts (default: on Windows), as people write paths there. */
  windowsPaths?: boolean;
}

/**
 * The report files the patterns match (globs, directories, `!` excludes), sorted and without
 * repeats; a pattern that matches nothing is a ReportError unless `failOnEmpty` is false.
 */
export async function discoverReports(
  patterns: readonly string[],
  options: DiscoverOptions = {},
): Promise<string[]> {
  return (await discoverReportFiles(patterns, options)).map((f) => f.file);
}

/** A file to read, and whether only a directory pattern named it (then it may be skipped). */
export interface FoundReport {
  file: string;
  /** Found by walking a directory, not named explicitly or by a glob. */
  fromDirectory: boolean;
}

export async function discoverReportFiles(
  patterns: readonly string[],
  options: DiscoverOptions = {},
): Promise<FoundReport[]> {
  const cwd = options.cwd ?? process.cwd();
  // Globs use / only (a backslash escapes); on Windows people write paths with backslashes.
  const slashes =
    (options.windowsPaths ?? process.platform === 'win32')
      ? (p: string) => p.replace(/\\/g, '/')
      : (p: string) => p;
  const includes = patterns.filter((p) => !p.startsWith('!')).map(slashes);
  const excludes = patterns.filter((p) => p.startsWith('!')).map((p) => slashes(p.slice(1)));
  if (includes.length === 0)
    // A setting's mistake, named in each adapter's words (--report, input reports).
    throw new ConfigError('reports', 'needs at least one pattern that is not an exclude (!).');
  // A file named explicitly or by a glob is strict even when a directory pattern also finds it.
  const found = new Map<string, boolean>();
  for (const pattern of includes) {
    const directory = await isDirectory(resolve(cwd, pattern));
    const glob = directory
      ? `${fg.convertPathToPattern(pattern.replace(/[\\/]+$/, '') || '/')}/${REPORT_FILES}`
      : pattern;
    const matches = await fg(glob, {
      cwd,
      ignore: excludes,
      onlyFiles: true,
      // Hidden files inside a directory are tool state (Playwright's .last-run.json), not reports.
      dot: !directory,
      followSymbolicLinks: true,
      unique: true,
    });
    if (matches.length === 0 && (options.failOnEmpty ?? true)) {
      throw new ReportError(
        pattern,
        `${directory ? `is a directory with no report files (${REPORT_FILES}) in it` : 'matches no file'} (in ${cwd}${excludes.length ? `, excluding ${excludes.join(', ')}` : ''}); check the path or the step that writes the reports.`,
      );
    }
    for (const m of matches.sort()) found.set(m, (found.get(m) ?? true) && directory);
  }
  return [...found].map(([file, fromDirectory]) => ({ file, fromDirectory }));
}

/** The extensions the formats declare (src/parsers/base/format.ts), once each. */
const REPORT_FILES = `**/*.{${[...new Set(FORMATS.flatMap((f) => f.extensions))].join(',')}}`;

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
