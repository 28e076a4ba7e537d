/**
 * Imported first by the library entry: on a Node older than 24 the HTTP client (undici 8) fails
 * to load with an unrelated error, so say what is needed before anything else is evaluated.
 */
export const REQUIRED_NODE_MAJOR = 24;

export function nodeVersionProblem(version = process.version): string | undefined {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  return major >= REQUIRED_NODE_MAJOR
    ? undefined
    : `testcycle needs Node.js ${REQUIRED_NODE_MAJOR} or later; this is ${version}. Use a node:${REQUIRED_NODE_MAJOR} image, or actions/setup-node with node-version: ${REQUIRED_NODE_MAJOR}.`;
}

const problem = nodeVersionProblem();
if (problem) throw new Error(problem);
