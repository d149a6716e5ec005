// The service worker of the feedback PWA. It replaces go-app's default
// (see GOAPP.md): it waits until the cache is filled, caches only local
// resources, answers navigations network-first with a cached copy of any
// route as the fallback, and never touches the API, the live socket,
// sign-in, the kiosk device endpoints or any non-GET request. The pages
// open when it installs are cached with the app: the page of a first
// visit was loaded before there was a worker to keep a copy of it.
const cacheName = "app-{{.Version}}";
const resourcesToCache = {{.ResourcesToCache}};
const NETWORK_ONLY = [/^\/api\//, /^\/ws$/, /^\/auth\//, /^\/idp\//, /^\/kiosk\//, /^\/healthz$/, /^\/readyz$/];
const NAVIGATION_TIMEOUT = 4000;
// The dashboard's own build is never precached, so that visitors and
// kiosks never download it; a browser that opens the dashboard keeps the
// copy it fetched, for offline use.
const DASHBOARD = ["/dashboard.js", "/web/dashboard.wasm"];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(cacheName);
    await cache.addAll(resourcesToCache.map((u) => new Request(u, { cache: "reload" })));
    await cacheOpenPages(cache);
    await self.skipWaiting();
  })());
});

// No clients.claim(): it makes go-app report an update on the first visit.
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key !== cacheName) {
        await caches.delete(key);
      }
    }
  })());
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || !cacheable(url)) {
    return;
  }
  if (req.mode === "navigate") {
    event.respondWith(navigate(event, req));
    return;
  }
  if (DASHBOARD.includes(url.pathname)) {
    event.respondWith(networkFirst(event, req));
    return;
  }
  if (resourcesToCache.includes(url.pathname) || url.pathname.startsWith("/web/")) {
    event.respondWith(caches.match(req, { ignoreSearch: true }).then((hit) => hit || fetch(req)));
  }
});

// cacheable reports whether a GET of url may be answered from the cache.
function cacheable(url) {
  return url.origin === location.origin && !NETWORK_ONLY.some((r) => r.test(url.pathname));
}

// cacheOpenPages keeps a copy of every page of the app open in a window,
// fetched again for the cache: the page that installed this worker was
// not controlled by it, so navigate never saw it. Without a copy, that
// page reloaded offline would get the app's shell and not its form. A
// page that cannot be fetched now is left out: the install must not fail.
async function cacheOpenPages(cache) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  await Promise.all(windows.map(async (w) => {
    const url = new URL(w.url);
    url.hash = "";
    if (!cacheable(url)) {
      return;
    }
    try {
      const res = await fetch(url.href, { cache: "no-store" });
      if (res.ok && res.type === "basic" && !res.redirected) {
        await cache.put(url.href, res);
      }
    } catch (err) {
      // offline already: the next visit online caches the page
    }
  }));
}

// networkFirst answers from the network and keeps a copy, or offline
// from the copy.
async function networkFirst(event, req) {
  try {
    const res = await fetch(req);
    if (res.ok) {
      const copy = res.clone();
      event.waitUntil(caches.open(cacheName).then((c) => c.put(req, copy)));
    }
    return res;
  } catch (err) {
    const hit = await caches.match(req, { ignoreSearch: true });
    if (hit) {
      return hit;
    }
    throw err;
  }
}

// navigate asks the network first and keeps a copy of every page it gets,
// so that deep links (a kiosk, a poster's form) reload offline. Offline,
// it answers the cached copy of the page, then the cached shell ("/"),
// whose wasm routes on the location, not on the HTML it came with.
async function navigate(event, req) {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), NAVIGATION_TIMEOUT);
  try {
    const res = await fetch(req, { signal: ctl.signal });
    clearTimeout(timer);
    if (res.ok) {
      const copy = res.clone();
      event.waitUntil(caches.open(cacheName).then((c) => c.put(req, copy)));
    }
    return res;
  } catch (err) {
    clearTimeout(timer);
    const cache = await caches.open(cacheName);
    return (await cache.match(req, { ignoreSearch: true })) ||
      (await cache.match(req)) ||
      (await cache.match("/")) ||
      new Response("You are offline.", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}
