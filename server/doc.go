// Package server holds what the server's packages share and the browser
// never sees: the [Store] contract that the PostgreSQL and SQLite stores
// implement (with [IdPStore], what the embedded OpenID provider keeps),
// the rate-limit [Limiter], and the server-only records that carry
// hashes and sealed secrets (workspaces, tokens, posters, webhooks,
// kiosks, the provider's accounts, tokens, keys and federations).
//
// Store methods take a context first and, for workspace-owned data, the
// workspace id second; every query is scoped by it, and an id of another
// workspace behaves exactly like an id that does not exist. Errors are
// [*feedback.Error] values whose codes each method documents; any other
// error is internal.
package server
