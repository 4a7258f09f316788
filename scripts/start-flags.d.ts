/** `npm start`'s Node flags, as written in package.json (scripts/start-flags.js). */
export function startFlags(): string[];
