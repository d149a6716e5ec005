package storetest

import (
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func testWorkspace(t *testing.T, h harness) {
	h.run(t, "Create", func(t *testing.T, f *fixture) {
		w := &server.Workspace{Workspace: feedback.Workspace{Name: "Acme", Slug: "acme"}, PosterKey: []byte{0, 1, 2, 255}}
		f.must(f.s.CreateWorkspace(f.ctx(), w))
		if _, ok := feedback.ParseUUID(w.ID); !ok {
			t.Errorf("CreateWorkspace set id %q, want a UUID", w.ID)
		}
		want := server.Workspace{Workspace: feedback.Workspace{ID: w.ID, Name: "Acme", Slug: "acme",
			CreatedAt: feedback.Time{Time: f.clock.stored()}}, PosterKey: []byte{0, 1, 2, 255}}
		wantEqual(t, "the argument after CreateWorkspace", want, *w)
		got, err := f.s.Workspace(f.ctx(), w.ID)
		f.must(err)
		wantEqual(t, "Workspace", want, *got)
		got, err = f.s.WorkspaceBySlug(f.ctx(), "acme")
		f.must(err)
		wantEqual(t, "WorkspaceBySlug", want, *got)
	})
	h.run(t, "CreateWithID", func(t *testing.T, f *fixture) {
		id := feedback.NewID()
		w := &server.Workspace{Workspace: feedback.Workspace{ID: strings.ToUpper(id), Name: "Acme", Slug: "acme"}, PosterKey: []byte("k")}
		f.must(f.s.CreateWorkspace(f.ctx(), w))
		if w.ID != id {
			t.Errorf("CreateWorkspace kept id %q, want it in canonical lower case %q", w.ID, id)
		}
		if _, err := f.s.Workspace(f.ctx(), id); err != nil {
			t.Errorf("Workspace(%s): %v", id, err)
		}
		bad := &server.Workspace{Workspace: feedback.Workspace{ID: "not-a-uuid", Name: "B", Slug: "b"}, PosterKey: []byte("k")}
		wantCode(t, f.s.CreateWorkspace(f.ctx(), bad), feedback.EValidation)
	})
	h.run(t, "SlugTaken", func(t *testing.T, f *fixture) {
		f.workspace("acme")
		w := &server.Workspace{Workspace: feedback.Workspace{Name: "Other", Slug: "acme"}, PosterKey: []byte("k")}
		wantCode(t, f.s.CreateWorkspace(f.ctx(), w), feedback.EConflict)
		all, err := f.s.Workspaces(f.ctx())
		f.must(err)
		if len(all) != 1 {
			t.Errorf("after a refused create there are %d workspaces, want 1", len(all))
		}
	})
	h.run(t, "NotFound", func(t *testing.T, f *fixture) {
		f.workspace("acme")
		for _, id := range []string{feedback.NewID(), "not-a-uuid", ""} {
			_, err := f.s.Workspace(f.ctx(), id)
			wantCode(t, err, feedback.ENotFound)
		}
		_, err := f.s.WorkspaceBySlug(f.ctx(), "acm")
		wantCode(t, err, feedback.ENotFound)
	})
	h.run(t, "OldestFirst", func(t *testing.T, f *fixture) {
		var want []string
		for _, slug := range []string{"c", "a", "b"} {
			want = append(want, f.workspace(slug))
			f.clock.Add(time.Millisecond)
		}
		all, err := f.s.Workspaces(f.ctx())
		f.must(err)
		var got []string
		for _, w := range all {
			got = append(got, w.ID)
		}
		wantEqual(t, "Workspaces", want, got)
	})
}
