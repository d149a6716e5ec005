package dashboard

import (
	"context"
	"slices"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// settingsPage is a workspace's settings at /w/{slug}/settings: its time
// zone, whose days, weeks and hours the statistics count in. An owner
// or admin changes it; a viewer reads it.
type settingsPage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership

	api     *client.Client
	zone    string // the zone stored
	chosen  string // the zone chosen in the form
	loaded  bool
	saving  bool
	notice  string // what the last save did, announced
	problem string // why the last read or save failed
}

// timeZones are the zones offered: UTC and one well-known zone for each
// distinct offset people live at, from west to east, with the largest
// cities' zones where several share an offset but not their daylight
// saving rules. A zone stored that is not here is offered too.
var timeZones = []string{
	"UTC",
	"Pacific/Honolulu", "America/Anchorage", "America/Los_Angeles", "America/Denver", "America/Phoenix",
	"America/Chicago", "America/Mexico_City", "America/New_York", "America/Toronto", "America/Bogota",
	"America/Halifax", "America/Santiago", "America/Sao_Paulo", "America/Argentina/Buenos_Aires", "America/St_Johns",
	"Atlantic/Azores", "Europe/London", "Europe/Dublin", "Europe/Lisbon", "Africa/Lagos",
	"Europe/Paris", "Europe/Berlin", "Europe/Madrid", "Europe/Rome", "Europe/Amsterdam", "Europe/Vienna", "Europe/Zurich",
	"Europe/Stockholm", "Europe/Warsaw", "Europe/Prague", "Africa/Cairo", "Africa/Johannesburg", "Europe/Athens",
	"Europe/Helsinki", "Europe/Kyiv", "Europe/Istanbul", "Europe/Moscow", "Asia/Jerusalem", "Asia/Riyadh",
	"Africa/Nairobi", "Asia/Tehran", "Asia/Dubai", "Asia/Kabul", "Asia/Karachi", "Asia/Kolkata", "Asia/Kathmandu",
	"Asia/Dhaka", "Asia/Yangon", "Asia/Bangkok", "Asia/Jakarta", "Asia/Shanghai", "Asia/Hong_Kong", "Asia/Singapore",
	"Australia/Perth", "Asia/Tokyo", "Asia/Seoul", "Australia/Adelaide", "Australia/Darwin", "Australia/Brisbane",
	"Australia/Sydney", "Pacific/Noumea", "Pacific/Auckland", "Pacific/Fiji", "Pacific/Tongatapu", "Pacific/Kiritimati",
}

// OnMount reads the settings.
func (p *settingsPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	if !app.IsClient || p.Workspace == nil {
		return
	}
	p.api = workspaceAPI(p.Workspace)
	p.async(func(c context.Context) func(app.Context) {
		s, err := p.api.WorkspaceSettings(c)
		return func(app.Context) {
			if p.Shell.refused(explain(err), "The settings could not be loaded: ", func(m string) { p.problem = m }) {
				return
			}
			p.zone, p.chosen, p.loaded = s.TimeZone, s.TimeZone, true
		}
	})
}

// OnDismount cancels the page's requests.
func (p *settingsPage) OnDismount() { p.dismount() }

// save stores the chosen zone.
func (p *settingsPage) save(ctx app.Context) {
	if p.saving {
		return
	}
	p.saving, p.notice, p.problem = true, "", ""
	in := feedback.WorkspaceSettings{TimeZone: p.chosen}
	p.async(func(c context.Context) func(app.Context) {
		s, err := p.api.UpdateWorkspaceSettings(c, in)
		return func(ctx app.Context) {
			p.saving = false
			if p.Shell.refused(explain(err), "The time zone was not saved: ", func(m string) { p.problem = m; focusLater(ctx, "settings-problem") }) {
				return
			}
			p.zone, p.chosen = s.TimeZone, s.TimeZone
			p.notice = "Saved: the statistics now count days and hours in " + s.TimeZone + "."
		}
	})
}

// Render renders the zone, as a form for an owner or admin.
func (p *settingsPage) Render() app.UI {
	return app.Section().Class("places").Body(
		title("Workspace settings"),
		problemBox("settings-problem", p.problem),
		app.If(!p.loaded && p.problem == "", func() app.UI { return app.P().Role("status").Text("Loading the settings…") }),
		app.If(p.loaded, func() app.UI {
			return writeOr(p.Workspace, "settings-readonly", "Time zone: "+p.zone+". Viewers can read the settings; an owner or admin changes them.", p.renderForm)
		}),
		app.P().ID("settings-notice").Role("status").Text(p.notice),
	)
}

func (p *settingsPage) renderForm() app.UI {
	zones := timeZones
	if !slices.Contains(zones, p.zone) {
		zones = append([]string{p.zone}, zones...)
	}
	return app.Form().ID("settings-form").Class("create-form").Aria("labelledby", "zone-title").
		OnSubmit(func(ctx app.Context, e app.Event) { e.PreventDefault(); p.save(ctx) }).Body(
		app.H2().ID("zone-title").Text("Time zone"),
		app.Div().Class("field").Body(
			app.Label().For("settings-zone").Text("Time zone of the statistics"),
			app.P().ID("settings-zone-hint").Class("hint").Text("Days, weeks and the hours of the heatmap start at midnight in this zone."),
			app.Select().ID("settings-zone").Aria("describedby", "settings-zone-hint").
				OnChange(func(ctx app.Context, e app.Event) { p.chosen = ctx.JSSrc().Get("value").String() }).Body(
				app.Range(zones).Slice(func(i int) app.UI { return option(zones[i], zones[i], zones[i] == p.chosen) }),
			),
		),
		p.saveButton(),
	)
}

// saveButton is disabled while a save is under way (a false boolean
// attribute would read as true, GOAPP.md section 1).
func (p *settingsPage) saveButton() app.UI {
	b := app.Button().ID("settings-save").Type("submit").Class("primary", "inline").Text("Save the time zone")
	if p.saving {
		b = b.Disabled(true).Text("Saving…")
	}
	return b
}
