/**
 * The link routes, found in the server's own description before anything is written through them
 * (docs/design.md "Traceability: links"): the service's description shows no route for links
 * (docs/service-api.md 2.12), so the client asks the server which it offers and never guesses one.
 */
import type { ServiceClient } from '../client/index.js';

/** A route the links need: its path template as /openapi.json writes it, and its methods. */
interface Needed {
  path: string;
  methods: readonly string[];
}

/** Requirement links: the linkage of a case read, members added and removed (JSON:API 1.1). */
export const REQUIREMENT_ROUTES: readonly Needed[] = [
  { path: '/test_cases/{id}/relationships/requirements', methods: ['get', 'post', 'delete'] },
];

/** Work-item links: the `links` resource, listed, created and deleted. */
export const WORK_ITEM_ROUTES: readonly Needed[] = [
  { path: '/links', methods: ['get', 'post'] },
  { path: '/links/{id}', methods: ['delete'] },
];

export interface LinkRoutes {
  requirements: boolean;
  workItems: boolean;
  /** What the server does not offer, in words (`POST /links`), for the one line that says so. */
  missing: string[];
}

/** `METHOD path` of each needed route the description lacks. */
function lacking(paths: Record<string, unknown>, needed: readonly Needed[]): string[] {
  return needed.flatMap(({ path, methods }) => {
    const item = paths[path];
    const offered = item && typeof item === 'object' ? (item as Record<string, unknown>) : {};
    return methods.filter((m) => !(m in offered)).map((m) => `${m.toUpperCase()} ${path}`);
  });
}

/** The link routes the server describes (one request; a server without a description offers none). */
export async function findLinkRoutes(client: ServiceClient): Promise<LinkRoutes> {
  const described = await client.openApi();
  const paths = described?.paths;
  if (!paths || typeof paths !== 'object')
    return {
      requirements: false,
      workItems: false,
      missing: ['GET /openapi.json (the server describes no routes)'],
    };
  const requirements = lacking(paths as Record<string, unknown>, REQUIREMENT_ROUTES);
  const workItems = lacking(paths as Record<string, unknown>, WORK_ITEM_ROUTES);
  return {
    requirements: requirements.length === 0,
    workItems: workItems.length === 0,
    missing: [...requirements, ...workItems],
  };
}
