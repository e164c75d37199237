// JSON API client: same-origin fetches with the session cookie; every state-changing request
// carries the session's CSRF token (kept in memory only, never in storage).

let csrfToken = null;

export function setCsrf(token) {
  csrfToken = token || null;
}

export class ApiError extends Error {
  constructor(status, message, retryAfter = null, field = null, errors = []) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
    this.field = field; // the request field the server refused ("password", "url", ...), if it said
    this.errors = errors; // 422: every refused field, [{field, message}], the first one as field/message
  }
}

function query(params) {
  if (!params) return '';
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v != null && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? '?' + s : '';
}

async function handle(res) {
  let body = null;
  const text = await res.text();
  try { body = text ? JSON.parse(text) : null; } catch { body = null; }
  if (!res.ok) {
    const msg = (body && body.error) || text || res.statusText || 'HTTP ' + res.status;
    if (res.status === 401) window.dispatchEvent(new CustomEvent('strata:unauthorized'));
    throw new ApiError(res.status, msg, res.headers.get('Retry-After'),
      (body && typeof body.field === 'string') ? body.field : null,
      (body && Array.isArray(body.errors)) ? body.errors.filter((e) => e && typeof e.field === 'string' && typeof e.message === 'string') : []);
  }
  return body;
}

export async function get(path, params) {
  const res = await fetch('/api/v1/' + path + query(params), {
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
    cache: 'no-store',
  });
  return handle(res);
}

export async function post(path, body) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (csrfToken) headers['X-CSRF-Token'] = csrfToken;
  const res = await fetch('/api/v1/' + path, {
    method: 'POST',
    credentials: 'same-origin',
    headers,
    body: JSON.stringify(body ?? {}),
  });
  return handle(res);
}

/// Calls fn() again while the server answers 429 with a Retry-After of at most maxWaitS seconds,
/// up to `attempts` times in all; onWait(seconds) tells the user before each wait. For requests
/// that change nothing (a prediction), so a repeat is harmless.
export async function retryWhenBusy(fn, onWait, attempts = 4, maxWaitS = 30) {
  for (let attempt = 1; ; ++attempt) {
    try {
      return await fn();
    } catch (err) {
      const wait = err instanceof ApiError && err.status === 429 ? Number(err.retryAfter) : NaN;
      if (attempt >= attempts || !(wait >= 0 && wait <= maxWaitS)) throw err;
      onWait?.(wait);
      await new Promise((resolve) => setTimeout(resolve, Math.max(wait, 1) * 1000));
    }
  }
}

export async function del(path) {
  const headers = { Accept: 'application/json' };
  if (csrfToken) headers['X-CSRF-Token'] = csrfToken;
  const res = await fetch('/api/v1/' + path, { method: 'DELETE', credentials: 'same-origin', headers });
  return handle(res);
}
