// Package alerts runs the evaluation of alert rules: every instance of
// feedbackd runs a [Worker], which evaluates a workspace's rules right
// after this instance commits its events (Wake, from the store's OnEvent
// hook), polls for the commits of other instances every [PollInterval],
// and raises the alerts of kiosk_offline rules every [KioskInterval]. The
// store sees to it that each event is evaluated once and each incident
// raises one alert, whichever instances run (see [server.AlertStore]).
package alerts

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/internal/wake"
)

// PollInterval is how often a worker evaluates every workspace with
// rules, for the events that other instances committed.
const PollInterval = time.Second

// KioskInterval is how often a worker raises the alerts of kiosks gone
// offline.
const KioskInterval = 15 * time.Second

// Store is what the worker needs of the store.
type Store interface {
	// AlertWorkspaces returns the workspaces with rules to evaluate.
	AlertWorkspaces(ctx context.Context) ([]string, error)
	// EvaluateAlerts evaluates a workspace's rules on its new events.
	EvaluateAlerts(ctx context.Context, workspaceID string) (int, error)
	// CheckKiosksOffline raises the alerts of kiosk_offline rules.
	CheckKiosksOffline(ctx context.Context) (int, error)
	// ClaimAlertMails leases the alert mails that are due.
	ClaimAlertMails(ctx context.Context, lease time.Duration, limit int) ([]server.AlertMail, error)
	// FinishAlertMail records the outcome of sending a mail.
	FinishAlertMail(ctx context.Context, m *server.AlertMail, sendErr error) error
}

// Worker evaluates alert rules; make one with [New] or [Start].
type Worker struct {
	store  Store
	log    *slog.Logger
	mailer *Mailer // nil: alert mails wait unsent

	mu    sync.Mutex
	known map[string]bool // workspaces with rules, as of the last poll
	woken *wake.Set       // workspaces woken since the last pass
}

// New returns a worker on store that logs to log and sends alert mails
// with mailer (nil: they wait unsent); call Run.
func New(store Store, log *slog.Logger, mailer *Mailer) *Worker {
	return &Worker{store: store, log: log, mailer: mailer, woken: wake.New()}
}

// Start runs a worker on store, sending mails with mailer, in a goroutine until ctx is done or the
// returned stop is called (which waits for it), and returns it; wire its
// Wake to the store's OnEvent hook.
func Start(ctx context.Context, store Store, log *slog.Logger, mailer *Mailer) (w *Worker, stop func()) {
	w = New(store, log, mailer)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	poll, kiosks := time.NewTicker(PollInterval), time.NewTicker(KioskInterval)
	go func() {
		defer close(done)
		w.Run(ctx, poll.C, kiosks.C)
	}()
	return w, func() {
		cancel()
		<-done
		poll.Stop()
		kiosks.Stop()
	}
}

// Wake asks the worker to evaluate the workspace's rules soon; it never
// blocks. Workspaces without rules as of the last poll are ignored (the
// next poll finds a new rule).
func (w *Worker) Wake(workspaceID string) {
	w.mu.Lock()
	known := w.known[workspaceID]
	w.mu.Unlock()
	if known {
		w.woken.Add(workspaceID)
	}
}

// Run polls at once and then evaluates on each wake-up and poll tick,
// and checks kiosks at once and on each kiosk tick, until ctx is done.
// It sends the due mails after each tick and after a wake-up that raised
// an alert. Failures are logged and retried at the next tick.
func (w *Worker) Run(ctx context.Context, poll, kiosks <-chan time.Time) {
	w.poll(ctx)
	w.checkKiosks(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.woken.C():
			if w.evaluate(ctx, w.woken.Take()) == 0 {
				continue // no new mail: spare the outbox a query per commit
			}
		case <-poll:
			w.poll(ctx)
		case <-kiosks:
			w.checkKiosks(ctx)
		}
		w.sendMails(ctx)
	}
}

// poll refreshes the workspaces with rules and evaluates each.
func (w *Worker) poll(ctx context.Context) {
	ids, err := w.store.AlertWorkspaces(ctx)
	if err != nil {
		w.logError(ctx, "listing the workspaces with alert rules", err)
		return
	}
	known := make(map[string]bool, len(ids))
	for _, id := range ids {
		known[id] = true
	}
	w.mu.Lock()
	w.known = known
	w.mu.Unlock()
	w.evaluate(ctx, ids)
}

// evaluate evaluates the rules of each workspace of ids and returns how
// many alerts it raised.
func (w *Worker) evaluate(ctx context.Context, ids []string) (raised int) {
	for _, id := range ids {
		n, err := w.store.EvaluateAlerts(ctx, id)
		if err != nil {
			w.logError(ctx, "evaluating alert rules", err, "workspace", id)
			continue
		}
		if n > 0 {
			w.log.Info("alerts raised", "workspace", id, "count", n)
		}
		raised += n
	}
	return raised
}

// checkKiosks raises the alerts of kiosks gone offline.
func (w *Worker) checkKiosks(ctx context.Context) {
	n, err := w.store.CheckKiosksOffline(ctx)
	if err != nil {
		w.logError(ctx, "raising kiosk alerts", err)
		return
	}
	if n > 0 {
		w.log.Info("kiosk alerts raised", "count", n)
	}
}

// mailLease is how long a claimed mail is this worker's to send.
const mailLease = 2 * time.Minute

// sendMails sends the alert mails that are due, one batch.
func (w *Worker) sendMails(ctx context.Context) {
	if w.mailer == nil {
		return
	}
	mails, err := w.store.ClaimAlertMails(ctx, mailLease, 20)
	if err != nil {
		w.logError(ctx, "claiming alert mails", err)
		return
	}
	for i := range mails {
		m := &mails[i]
		sendErr := w.mailer.Send(ctx, m)
		if sendErr != nil {
			w.logError(ctx, "sending an alert mail", sendErr, "workspace", m.WorkspaceID, "mail", m.ID)
		}
		if err := w.store.FinishAlertMail(ctx, m, sendErr); err != nil {
			w.logError(ctx, "recording an alert mail", err, "mail", m.ID)
		}
	}
}

// logError logs err unless ctx is done (then the error is the shutdown).
func (w *Worker) logError(ctx context.Context, msg string, err error, args ...any) {
	if ctx.Err() == nil {
		w.log.Error(msg, append(args, "err", err)...)
	}
}
