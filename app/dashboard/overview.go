package dashboard

import (
	"context"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// overviewPage is a workspace's overview at /w/{slug}/: its feedback as
// it arrives (the live stream, see live.go), today's counts per location
// and the kiosks. Shell is the frame it is shown in: it shows the live
// status and is told when the session turns out to be gone.
type overviewPage struct {
	app.Compo
	requests
	Shell     *Shell
	Workspace *feedback.Membership

	api       *client.Client // the REST API in the workspace
	feed      feed
	today     today
	todaySoon bool // a read of today's counts is planned
	kiosks    kioskList
	ins       insights          // the statistics (insights.go)
	names     map[string]string // location names by id
	locs      []feedback.Location
	forms     map[string]string // review and survey titles by id
	sources   []source          // the lists the feed reads

	filter      filter
	gen         int       // counts the reads of the forms and the feed: an answer for an older one is dropped
	loading     bool      // the feed's first page is being read
	loadedOnce  bool      // the feed has been read
	wanted      bool      // the view is to be read once the forms are known
	readStarted time.Time // when the feed's last first-page read started
	older       bool      // an older page is being read
	problem     string    // why the last read failed

	live    liveState
	stop    context.CancelFunc // ends the live client
	mu      sync.Mutex
	pending []liveUpdate // updates the live client emitted, not yet applied
	changed *signal      // the browser went online or offline
	release []func()     // removes the page's window listeners
}

// filter is what the person chose to see in the feed.
type filter struct {
	location string // a location id, or "" for all
	kind     string // kindHygiene, kindReview, kindSurvey, or "" for all
}

// keep reports whether the filter shows it.
func (f filter) keep(it *feedItem) bool {
	return (f.location == "" || it.LocationID == f.location) && (f.kind == "" || it.Kind == f.kind)
}

// How much the feed reads and keeps.
const (
	pageSize     = 50              // items per source and read
	maxFeedLimit = 1000            // the most items "Show older" lets the list hold
	highlightFor = 4 * time.Second // how long an item that arrived live stands out
	refreshEvery = time.Minute     // the kiosks and today's counts are read again
)

// OnMount starts the live stream and, in the browser, the reads.
func (p *overviewPage) OnMount(ctx app.Context) {
	p.mount(ctx)
	if !app.IsClient || p.Workspace == nil {
		return // go-app's test engine renders the page without a network
	}
	c := *api
	c.Workspace = p.Workspace.Slug
	p.api = &c
	p.today.startDay(localDay(time.Now()))
	p.startLive(ctx) // the view is read once the stream is live (see reload)
	go p.tick(p.context())
}

// OnDismount stops the live stream and the reads.
func (p *overviewPage) OnDismount() {
	if p.stop != nil {
		p.stop()
	}
	for _, r := range p.release {
		r()
	}
	p.release = nil
	p.Shell.setLive(liveEnded, "")
	p.dismount()
}

// tick refreshes the kiosks and today's counts every minute, and starts a
// new day at midnight.
func (p *overviewPage) tick(c context.Context) {
	t := time.NewTicker(refreshEvery)
	defer t.Stop()
	for {
		select {
		case <-c.Done():
			return
		case <-t.C:
			p.ui.Dispatch(func(ctx app.Context) {
				if !p.wanted {
					return // the view has not been read yet
				}
				p.loadKiosks()
				if !p.startDay() {
					p.loadToday()
				}
			})
		}
	}
}

// startDay moves today's counts to the local day, reading them when it
// changed, and reports whether it did.
func (p *overviewPage) startDay() bool {
	if !p.today.startDay(localDay(time.Now())) {
		return false
	}
	p.loadToday()
	p.loadInsights()
	return true
}

// setFilter shows the feed of f, read anew.
func (p *overviewPage) setFilter(f filter) {
	if f == p.filter {
		return
	}
	p.filter = f
	p.feed.reset(nil)
	p.loadFeed()
}

// locationName returns the name of a location, for people.
func (p *overviewPage) locationName(id string) string {
	if n, ok := p.names[id]; ok {
		return n
	}
	if p.names == nil {
		return "…"
	}
	return "A deleted location"
}
