package dashboard

import (
	"context"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// locationsPage is a workspace's locations at /w/{slug}/locations: each
// with today's feedback and its kiosks online, and the ways to create,
// rename and delete one. Shell is the frame it is shown in, told when
// the session turns out to be gone.
type locationsPage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership

	api     *client.Client
	locs    []feedback.Location
	loaded  bool // locs holds an answer
	loading bool
	today   today
	kiosks  kioskList
	notice  string // what the last action did, announced
	problem string // why the last read failed

	newName   string
	creating  bool
	createErr map[string]string // the service's reasons by field
	createMsg string            // why the creation failed

	renaming  string // the id of the location being renamed
	renameTo  string
	renameErr string
	saving    bool

	deleting string // the id of the location whose deletion is asked
	posters  int    // its active posters; -1 while they are counted
	removing bool   // the deletion is under way
}

// OnMount reads the locations, today's counts and the kiosks.
func (p *locationsPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	if !app.IsClient || p.Workspace == nil {
		return
	}
	p.api = workspaceAPI(p.Workspace)
	p.load()
}

// OnDismount cancels the page's requests.
func (p *locationsPage) OnDismount() { p.dismount() }

// load reads the list, then the counts and the kiosks; the list on
// screen stays until the answer replaces it.
func (p *locationsPage) load() {
	if p.loading {
		return
	}
	p.loading = true
	p.today.startDay(localDay(time.Now()))
	from, to := p.today.from, p.today.to
	p.async(func(c context.Context) func(app.Context) {
		locs, err := p.api.Locations(c, allOf)
		var s *feedback.Summary
		var ks *feedback.Page[feedback.Kiosk]
		if err == nil {
			s, err = p.api.Summary(c, from, to)
		}
		if err == nil {
			ks, err = p.api.Kiosks(c, allOf)
		}
		return func(ctx app.Context) {
			p.loading = false
			if p.failed(explain(err)) {
				return
			}
			p.locs, p.loaded, p.problem = locs.Data, true, ""
			p.today.set(s, time.Now())
			p.kiosks.set(ks.Data)
		}
	})
}

// failed handles a request's error and reports whether there was one.
func (p *locationsPage) failed(err error) bool {
	return p.Shell.refused(err, "The locations could not be loaded: ", func(msg string) { p.problem = msg })
}

// create adds the location named in the form.
func (p *locationsPage) create(ctx app.Context) {
	if p.creating {
		return
	}
	p.creating, p.createErr, p.createMsg, p.notice = true, nil, "", ""
	name := p.newName
	p.async(func(c context.Context) func(app.Context) {
		l, err := p.api.CreateLocation(c, name, "")
		return func(ctx app.Context) {
			p.creating = false
			if err != nil {
				p.Shell.refusedForm(ctx, err, "The location was not created: ", "new-location-name", &p.createErr, &p.createMsg)
				return
			}
			p.newName = ""
			clearInput("new-location-name")
			p.notice = "Created the location " + l.Name + "."
			p.load()
		}
	})
}

// rename saves the new name of the location being renamed.
func (p *locationsPage) rename(ctx app.Context) {
	if p.saving {
		return
	}
	id, name := p.renaming, p.renameTo
	p.saving, p.renameErr, p.notice = true, "", ""
	p.async(func(c context.Context) func(app.Context) {
		l, err := p.api.UpdateLocation(c, id, feedback.LocationInput{Name: &name})
		return func(ctx app.Context) {
			p.saving = false
			if err != nil {
				reason := fieldErrors(err)["name"]
				p.Shell.refused(explain(err), "", func(msg string) {
					p.renameErr = msg
					if reason != "" {
						p.renameErr = "The name " + reason + "."
					}
					focusLater(ctx, "rename-input")
				})
				return
			}
			p.renaming, p.notice = "", "Renamed the location to "+l.Name+"."
			focusLater(ctx, statusID)
			p.load()
		}
	})
}

// askDelete asks to confirm the deletion of l, counting its posters to
// say what the deletion revokes.
func (p *locationsPage) askDelete(ctx app.Context, l feedback.Location) {
	p.deleting, p.posters, p.notice = l.ID, -1, ""
	focusLater(ctx, "confirm-delete")
	p.async(func(c context.Context) func(app.Context) {
		page, err := p.api.Posters(c, l.ID, allOf)
		return func(ctx app.Context) {
			if p.deleting != l.ID {
				return
			}
			p.posters = 0
			if err != nil {
				return // the confirmation then speaks of "its posters"
			}
			for _, ps := range page.Data {
				if ps.Status == feedback.PosterActive {
					p.posters++
				}
			}
		}
	})
}

// remove deletes the location whose deletion was confirmed.
func (p *locationsPage) remove(ctx app.Context, l feedback.Location) {
	if p.removing {
		return
	}
	p.removing = true
	posters, kiosks := p.posters, len(p.kiosksAt(l.ID))
	p.async(func(c context.Context) func(app.Context) {
		err := explain(p.api.DeleteLocation(c, l.ID))
		return func(ctx app.Context) {
			p.removing, p.deleting = false, ""
			switch {
			case p.Shell.gone(err):
				return
			case err != nil && !hasStatus(err, 404):
				p.notice = "The location was not deleted: " + err.Error()
			default:
				p.notice = "Deleted the location " + l.Name + revokedText(posters, kiosks) + "."
			}
			focusLater(ctx, statusID)
			p.load()
		}
	})
}

// revokedText tells what a deletion revoked.
func revokedText(posters, kiosks int) string {
	if posters <= 0 && kiosks == 0 {
		return ""
	}
	return ": " + plural(max(posters, 0), "poster", "posters") + " revoked, " + plural(kiosks, "kiosk", "kiosks") + " unpaired"
}

// kiosksAt returns the kiosks in service at the location id.
func (p *locationsPage) kiosksAt(id string) []feedback.Kiosk {
	var out []feedback.Kiosk
	for _, k := range p.kiosks.items {
		if k.LocationID == id {
			out = append(out, k)
		}
	}
	return out
}
