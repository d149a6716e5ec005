package oidctest

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"net/http"
	"net/http/httptest"
)

// login is the sign-in form: GET shows it, or signs a browser with a
// session in again at once; POST checks the credentials, starts the
// browser's session and continues the authorization request.
func (p *Provider) login(callback func(context.Context, string) string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.FormValue("authRequestID")
		if r.Method == http.MethodPost {
			id = r.FormValue("id")
			s := browserSession{username: r.FormValue("username"), password: r.FormValue("password")}
			if p.st.CheckUsernamePassword(s.username, s.password, id) == nil {
				p.startSession(w, s)
				http.Redirect(w, r, callback(r.Context(), id), http.StatusFound)
				return
			}
		} else if s, ok := p.session(r); ok && p.st.CheckUsernamePassword(s.username, s.password, id) == nil {
			http.Redirect(w, r, callback(r.Context(), id), http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_ = form.Execute(w, id)
	}
}

var form = template.Must(template.New("login").Parse(`<!doctype html><html lang="en"><title>Sign in</title>
<h1>Test provider</h1><form id="op-login" method="post" action="/login/username"><input type="hidden" name="id" value="{{.}}">
<label>User <input id="op-username" name="username" autocomplete="username"></label>
<label>Password <input id="op-password" name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form></html>`))

// startSession keeps s as the browser's session, in a cookie.
func (p *Provider) startSession(w http.ResponseWriter, s browserSession) {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	value := base64.RawURLEncoding.EncodeToString(b)
	s.userID = p.userID(s.username)
	p.mu.Lock()
	p.sessions[value] = s
	p.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: p.cookie, Value: value, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
}

// session returns the browser's live session.
func (p *Provider) session(r *http.Request) (browserSession, bool) {
	c, err := r.Cookie(p.cookie)
	if err != nil {
		return browserSession{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.sessions[c.Value]
	return s, ok
}

// endSessions ends the browser sessions of a user.
func (p *Provider) endSessions(userID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, s := range p.sessions {
		if s.userID == userID {
			delete(p.sessions, k)
		}
	}
}

// userID returns the example user's id of a username, "" for none.
func (p *Provider) userID(username string) string {
	if u := p.users.GetUserByUsername(username); u != nil {
		return u.ID
	}
	return ""
}

// discovery serves o's discovery document with what c advertises.
func (p *Provider) discovery(o http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		o.ServeHTTP(rec, r)
		var doc map[string]any
		if json.Unmarshal(rec.Body.Bytes(), &doc) != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		if p.c.ACRValues != nil {
			doc["acr_values_supported"] = p.c.ACRValues
		}
		if p.c.ClaimsParameter {
			doc["claims_parameter_supported"] = true
		}
		if p.c.NoEndSession {
			delete(doc, "end_session_endpoint")
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(doc)
	})
}
