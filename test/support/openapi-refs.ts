/** A part of an OpenAPI document, walked by key in the specs. */
export type Json = Record<string, any>;

/** `object` with its `$ref` (a local `#/...` pointer, followed through chains) replaced by what it names. */
export const resolveRef = (document: Json, object: Json): Json =>
  object?.$ref
    ? resolveRef(
        document,
        object.$ref
          .slice(2)
          .split('/')
          .reduce((node: Json, key: string) => node?.[key], document),
      )
    : object;
