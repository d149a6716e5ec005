package api

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/live"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func (s *Server) registerLiveRoutes(r chi.Router) {
	r.Get("/live", s.handle(s.handleLive))
}

// liveParams is what GET /live asks for.
type liveParams struct {
	after  *int64
	filter live.Filter
}

// handleLive handles "GET /live": it upgrades to a WebSocket that streams
// the workspace's events (see package live) after the gate has
// authenticated the request and counted it once.
func (s *Server) handleLive(w http.ResponseWriter, r *http.Request) error {
	p := request.PrincipalOf(r.Context())
	if err := s.liveRefusal(w, r, p); err != nil {
		return err
	}
	lp, err := parseLiveParams(r.URL.Query())
	if err != nil {
		return err
	}
	if s.cfg.Live == nil {
		return feedback.Errorf(feedback.EUnavailable, "The live stream is not available.")
	}
	sub, err := s.cfg.Live.Join(r.Context(), p.WorkspaceID, lp.filter, s.liveCredential(r, p))
	if errors.Is(err, live.ErrClosed) {
		return feedback.Errorf(feedback.EUnavailable, "The server is shutting down; connect again.")
	}
	if err != nil {
		return err
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{}) // the server's timeouts are for requests, not for sockets
	_ = rc.SetWriteDeadline(time.Time{})
	// The Origin was checked above for sessions; a Bearer client's Origin
	// does not matter (browsers cannot send the header on a WebSocket).
	c, err := websocket.Accept(leanHijack{w}, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		sub.Leave()
		return nil // Accept answered the client
	}
	openSocket(c, sub, s.log).start(lp.after)
	return nil // the socket goes on without this request's goroutine
}

// liveRefusal refuses, as unauthenticated, a session from another site
// and a token that names another workspace.
func (s *Server) liveRefusal(w http.ResponseWriter, r *http.Request, p *request.Principal) error {
	if p.SessionID != "" && !s.sameOrigin(r) {
		// The browser sent the cookie for a page of another site: the
		// session does not count (cross-site WebSocket hijacking).
		return s.anon.Refuse(w, r, feedback.Errorf(feedback.EUnauthenticated,
			"A dashboard session opens the live stream only from the service's own pages; programs use an API token."))
	}
	ws := r.URL.Query().Get("workspace")
	if p.SessionID == "" && ws != "" && ws != p.WorkspaceID && ws != s.slugOf(r, p.WorkspaceID) {
		return s.anon.Refuse(w, r, feedback.Errorf(feedback.EInvalidToken, "The API token belongs to another workspace."))
	}
	return nil
}

// parseLiveParams reads after, types, location_id and workspace (which
// the session authentication reads).
func parseLiveParams(q url.Values) (liveParams, error) {
	var v feedback.Validator
	var lp liveParams
	for name, vals := range q {
		v.Check(name == "after" || name == "types" || name == "location_id" || name == "workspace",
			name, "is not a parameter of this endpoint")
		v.Check(len(vals) == 1, name, "must be given once")
	}
	if q.Has("after") {
		n, err := strconv.ParseInt(q.Get("after"), 10, 64)
		v.Check(err == nil && n >= 0, "after", "must be a non-negative integer")
		lp.after = &n
	}
	if q.Has("types") {
		lp.filter.Types = map[string]bool{}
		for _, t := range strings.Split(q.Get("types"), ",") {
			v.Check(feedback.KnownEvent(t) && t != "*", "types", "must be event names separated by commas")
			lp.filter.Types[t] = true
		}
	}
	if q.Has("location_id") {
		id, ok := feedback.ParseUUID(q.Get("location_id"))
		v.Check(ok, "location_id", "must be a UUID")
		lp.filter.LocationID = id
	}
	return lp, v.ParamErr()
}

// sameOrigin reports whether the request's Origin is the service's own:
// its base URL's, or, without one, the host the request was sent to.
// A cross-site page cannot open a stream with the visitor's session.
func (s *Server) sameOrigin(r *http.Request) bool {
	o, err := url.Parse(r.Header.Get("Origin"))
	if err != nil || o.Host == "" {
		return false
	}
	if b, err := url.Parse(s.cfg.BaseURL); err == nil && b.Host != "" {
		return o.Scheme == b.Scheme && strings.EqualFold(o.Host, b.Host)
	}
	return strings.EqualFold(o.Host, r.Host)
}

// liveCredential returns what the subscription of r's principal is
// checked against while it lasts: its token not revoked, or its session
// live and its user still a member of the workspace.
func (s *Server) liveCredential(r *http.Request, p *request.Principal) live.Credential {
	if p.SessionID == "" {
		value, _ := request.Bearer(r, secret.APITokenPrefix)
		hash := secret.Hash(value)
		return live.Credential{Key: "token:" + p.TokenID, Check: func(ctx context.Context) (bool, error) {
			t, err := s.store.TokenByHash(ctx, hash)
			if feedback.ErrorCode(err) == feedback.ENotFound {
				return false, nil
			}
			return err == nil && t.RevokedAt == nil && t.WorkspaceID == p.WorkspaceID, err
		}}
	}
	return live.Credential{Key: "session:" + p.SessionID + ":" + p.WorkspaceID, Check: func(ctx context.Context) (bool, error) {
		ses, err := s.store.Sessions(ctx, p.UserID)
		if err != nil {
			return false, err
		}
		if !slices.ContainsFunc(ses, func(x server.Session) bool { return x.ID == p.SessionID }) {
			return false, nil
		}
		ms, err := s.store.Memberships(ctx, p.UserID)
		return slices.ContainsFunc(ms, func(m feedback.Membership) bool { return m.WorkspaceID == p.WorkspaceID }), err
	}}
}

// slugOf returns the slug of the workspace, "" when it cannot be read.
func (s *Server) slugOf(r *http.Request, workspaceID string) string {
	w, err := s.store.Workspace(r.Context(), workspaceID)
	if err != nil {
		return ""
	}
	return w.Slug
}
