// Package workspace provisions workspaces and their API tokens, and
// holds what several audiences of the HTTP server read about a
// workspace: its poster-signing key, opened once and cached
// ([PosterKeys]), and the form a location shows ([FormView]).
//
// The command line, the tests and the HTTP packages
// (server/api, server/device) share it.
package workspace
