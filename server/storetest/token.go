package storetest

import (
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func (f *fixture) token(ws, name string) *server.Token {
	f.t.Helper()
	tok := &server.Token{WorkspaceID: ws, Name: name, Prefix: "fbk_" + name, Hash: []byte("hash-" + name)}
	f.must(f.s.CreateToken(f.ctx(), tok))
	return tok
}

func testToken(t *testing.T, h harness) {
	h.run(t, "Create", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		tok := f.token(ws, "ci")
		want := server.Token{ID: tok.ID, WorkspaceID: ws, Name: "ci", Prefix: "fbk_ci", Hash: []byte("hash-ci"), CreatedAt: f.clock.stored()}
		wantEqual(t, "the argument after CreateToken", want, *tok)
		got, err := f.s.TokenByHash(f.ctx(), []byte("hash-ci"))
		f.must(err)
		wantEqual(t, "TokenByHash", want, *got)
		_, err = f.s.TokenByHash(f.ctx(), []byte("hash-c"))
		wantCode(t, err, feedback.ENotFound)
	})
	h.run(t, "CreateErrors", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		f.token(ws, "ci")
		dup := &server.Token{WorkspaceID: ws, Name: "again", Prefix: "fbk_x", Hash: []byte("hash-ci")}
		wantCode(t, f.s.CreateToken(f.ctx(), dup), feedback.EConflict)
		orphan := &server.Token{WorkspaceID: feedback.NewID(), Name: "orphan", Prefix: "fbk_o", Hash: []byte("hash-o")}
		wantCode(t, f.s.CreateToken(f.ctx(), orphan), feedback.ENotFound)
	})
	h.run(t, "NewestFirst", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		a := f.token(ws, "a")
		f.clock.Add(time.Second)
		b := f.token(ws, "b")
		_, err := f.s.RevokeToken(f.ctx(), ws, a.ID)
		f.must(err)
		list, err := f.s.Tokens(f.ctx(), ws)
		f.must(err)
		var got []string
		for _, tok := range list {
			got = append(got, tok.ID)
		}
		wantEqual(t, "Tokens (revoked ones included)", []string{b.ID, a.ID}, got)
	})
	h.run(t, "Revoke", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		tok := f.token(ws, "ci")
		f.clock.Add(time.Hour)
		revokedAt := f.clock.stored()
		got, err := f.s.RevokeToken(f.ctx(), ws, tok.ID)
		f.must(err)
		if got.RevokedAt == nil || !got.RevokedAt.Equal(revokedAt) {
			t.Errorf("RevokeToken: revoked_at = %v, want %v", got.RevokedAt, revokedAt)
		}
		f.clock.Add(time.Hour)
		got, err = f.s.RevokeToken(f.ctx(), ws, tok.ID)
		f.must(err)
		if got.RevokedAt == nil || !got.RevokedAt.Equal(revokedAt) {
			t.Errorf("second RevokeToken: revoked_at = %v, want the first time %v", got.RevokedAt, revokedAt)
		}
		byHash, err := f.s.TokenByHash(f.ctx(), tok.Hash)
		f.must(err)
		wantEqual(t, "TokenByHash of a revoked token", *got, *byHash)
		_, err = f.s.RevokeToken(f.ctx(), ws, feedback.NewID())
		wantCode(t, err, feedback.ENotFound)
	})
	h.run(t, "Touch", func(t *testing.T, f *fixture) {
		ws := f.workspace("acme")
		tok := f.token(ws, "ci")
		t1 := T0.Add(time.Hour + 123*time.Nanosecond)
		tests := []struct {
			name string
			at   time.Time
			want time.Time
		}{
			{"first use", t1, t1.UTC().Truncate(time.Microsecond)},
			{"within a minute", t1.Add(59 * time.Second), t1.UTC().Truncate(time.Microsecond)},
			{"a minute later", t1.Add(61 * time.Second), t1.Add(61 * time.Second).UTC().Truncate(time.Microsecond)},
		}
		for _, tt := range tests {
			f.must(f.s.TouchToken(f.ctx(), ws, tok.ID, tt.at))
			got, err := f.s.TokenByHash(f.ctx(), tok.Hash)
			f.must(err)
			if got.LastUsedAt == nil || !got.LastUsedAt.Equal(tt.want) || got.LastUsedAt.Location() != time.UTC {
				t.Errorf("%s: last_used_at = %v, want %v", tt.name, got.LastUsedAt, tt.want)
			}
		}
	})
}
