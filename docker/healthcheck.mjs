// The image's HEALTHCHECK: GET /api/health on this container's own port. DocQA answers 200 when it
// and its database are up, 503 when the database is down; anything else, or no answer in time, is
// unhealthy. Node's fetch, because the slim image has neither curl nor wget.
const port = process.env.PORT || '8000';
try {
  const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(4000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
