/** Report discovery: globs with `!` excludes; a pattern that matches nothing is an error by default. */
import fg from 'fast-glob';
import { ReportError } from './model.js';

export interface DiscoverOptions {
  cwd?: string;
  /** Default true: a glob that matches no file is a ReportError naming it. */
  failOnEmpty?: boolean;
}

export async function discoverReports(
  patterns: readonly string[],
  options: DiscoverOptions = {},
): Promise<string[]> {
  const cwd = options.cwd ?? process.cwd();
  const includes = patterns.filter((p) => !p.startsWith('!'));
  const excludes = patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  if (includes.length === 0)
    throw new ReportError('--report', 'needs at least one pattern that is not an exclude (!).');
  const found = new Set<string>();
  for (const pattern of includes) {
    const matches = await fg(pattern, {
      cwd,
      ignore: excludes,
      onlyFiles: true,
      dot: true,
      followSymbolicLinks: true,
      unique: true,
    });
    if (matches.length === 0 && (options.failOnEmpty ?? true)) {
      throw new ReportError(
        pattern,
        `matches no file (in ${cwd}${excludes.length ? `, excluding ${excludes.join(', ')}` : ''}); check the path or the step that writes the reports.`,
      );
    }
    for (const m of matches.sort()) found.add(m);
  }
  return [...found];
}
