/**
 * A part of an OpenAPI document as the generators read and patch it: plain JSON of any shape,
 * walked by key. Typing every node would restate the OpenAPI 3.1 schema.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;
