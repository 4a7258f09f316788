/**
 * Who caused a change: an API key of the workspace, a member of the workspace signed in to the
 * dashboard (by user id: the member's name is personal data, kept sealed elsewhere), or the
 * operator (admin API / CLI): with the id of the operator credential used, none for the bootstrap
 * ADMIN_TOKEN and the service's own background work.
 */
export type Actor =
  | { readonly type: 'api_key'; readonly id: string; readonly name: string }
  | { readonly type: 'member'; readonly id: string }
  | { readonly type: 'operator'; readonly id?: string };

export const OPERATOR: Actor = { type: 'operator' };

/** A fresh copy of an actor with the fields of its type only (whatever else a stored one carries). */
export function actorFields(actor: Actor): Actor {
  switch (actor.type) {
    case 'api_key':
      return { type: 'api_key', id: actor.id, name: actor.name };
    case 'member':
      return { type: 'member', id: actor.id };
    default:
      return typeof actor.id === 'string' ? { type: 'operator', id: actor.id } : { type: 'operator' };
  }
}

/** The `created_by` object of docs/api.md, Projects for a resource created through an API key. */
export interface CreatedBy {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  profile_picture: string | null;
}

export function createdByOf(actor: Actor): CreatedBy {
  switch (actor.type) {
    case 'api_key':
      return { id: actor.id, email: null, first_name: actor.name, last_name: null, profile_picture: null };
    case 'member':
      return { id: actor.id, email: null, first_name: null, last_name: null, profile_picture: null };
    default:
      return { id: 'operator', email: null, first_name: 'Operator', last_name: null, profile_picture: null };
  }
}
