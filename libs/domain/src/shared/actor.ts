/** Who caused a change: an API key of the workspace, or the operator (admin API / CLI). */
export type Actor =
  { readonly type: 'api_key'; readonly id: string; readonly name: string } | { readonly type: 'operator' };

export const OPERATOR: Actor = { type: 'operator' };

/** The `created_by` object of docs/api.md, Projects for a resource created through an API key. */
export interface CreatedBy {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  profile_picture: string | null;
}

export function createdByOf(actor: Actor): CreatedBy {
  return actor.type === 'api_key'
    ? { id: actor.id, email: null, first_name: actor.name, last_name: null, profile_picture: null }
    : { id: 'operator', email: null, first_name: 'Operator', last_name: null, profile_picture: null };
}
