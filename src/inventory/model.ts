/** The names sync's results and settings share (docs/design.md "Sync"). */
/**
 * `case-names` (docs/design.md "Sync: what sync owns"): `key` names a case after its key while
 * its name is the one sync gave it (a name a person wrote stays); `keep` names a case only when
 * it is created; `replace` names every matched case after its key.
 */
export type CaseNames = 'key' | 'keep' | 'replace';

/** A case as results list it. */
export interface CaseRef {
  key: string | null;
  name: string;
}
