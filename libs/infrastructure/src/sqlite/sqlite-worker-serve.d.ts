export function serveRequests<Request, Result>(handle: (request: Request) => Result, close: () => void): void;
