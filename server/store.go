package server

import (
	"context"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Store is everything the service keeps. The PostgreSQL and SQLite stores
// implement it, and one contract suite (server/storetest) runs against both.
//
// Conventions of every method: ids are UUID strings in canonical lower
// case; a method that creates a record assigns a new UUIDv7 id when the
// given id is empty, sets created/updated times from the store's clock
// (UTC, microsecond precision), and writes both back into the argument.
// An id of another workspace returns feedback.ENotFound, never a different code.
type Store interface {
	WorkspaceStore
	TokenStore
	LocationStore
	PosterStore
	ReviewStore
	SurveyStore
	SubmissionStore
	SummaryStore
	StatsStore
	ExportStore
	WebhookStore
	DeliveryStore
	EventStore
	KioskStore
	AlertStore
	AuthStore
	IdPStore

	// Limiter returns the rate limiter that matches the store: one budget
	// shared by every instance on PostgreSQL, in-process on SQLite.
	Limiter() Limiter
	// Ping reports whether the database answers.
	Ping(ctx context.Context) error
	// Close releases the database.
	Close() error
}

// WorkspaceStore keeps tenants.
type WorkspaceStore interface {
	// CreateWorkspace stores w. Returns feedback.EConflict if the slug is taken.
	CreateWorkspace(ctx context.Context, w *Workspace) error
	// Workspace returns a workspace. Returns feedback.ENotFound.
	Workspace(ctx context.Context, id string) (*Workspace, error)
	// WorkspaceBySlug returns a workspace. Returns feedback.ENotFound.
	WorkspaceBySlug(ctx context.Context, slug string) (*Workspace, error)
	// Workspaces returns every workspace, oldest first.
	Workspaces(ctx context.Context) ([]Workspace, error)
}

// TokenStore keeps API tokens by hash.
type TokenStore interface {
	// CreateToken stores t. Returns feedback.ENotFound if the workspace does not exist.
	CreateToken(ctx context.Context, t *Token) error
	// TokenByHash returns the token, revoked or not, whose hash is hash.
	// Returns feedback.ENotFound.
	TokenByHash(ctx context.Context, hash []byte) (*Token, error)
	// Tokens returns the workspace's tokens, newest first, revoked ones included.
	Tokens(ctx context.Context, workspaceID string) ([]Token, error)
	// RevokeToken marks a token revoked at the store's now; revoking a
	// revoked token keeps the first time. Returns feedback.ENotFound.
	RevokeToken(ctx context.Context, workspaceID, id string) (*Token, error)
	// TouchToken sets last_used_at to at if it is older than a minute.
	TouchToken(ctx context.Context, workspaceID, id string, at time.Time) error
}

// LocationStore keeps locations. Deleted locations are kept for the
// submissions that name them but are invisible to every method.
type LocationStore interface {
	// CreateLocation stores l.
	CreateLocation(ctx context.Context, workspaceID string, l *feedback.Location) error
	// Location returns a location. Returns feedback.ENotFound.
	Location(ctx context.Context, workspaceID, id string) (*feedback.Location, error)
	// Locations returns a page of locations, newest first, and the total.
	Locations(ctx context.Context, workspaceID string, p feedback.ListParams) ([]feedback.Location, int, error)
	// UpdateLocation applies the non-nil fields of in. Returns feedback.ENotFound.
	UpdateLocation(ctx context.Context, workspaceID, id string, in feedback.LocationInput) (*feedback.Location, error)
	// DeleteLocation hides a location and revokes its posters and kiosks in
	// one transaction. Returns feedback.ENotFound.
	DeleteLocation(ctx context.Context, workspaceID, id string) error
}

// PosterStore keeps posters.
type PosterStore interface {
	// CreatePoster stores p (Status active). Returns feedback.ENotFound naming
	// location_id, review_id or survey_id (as an invalid param) when the
	// location or form does not exist in the workspace.
	CreatePoster(ctx context.Context, p *Poster) error
	// Poster returns a poster of the workspace. Returns feedback.ENotFound.
	Poster(ctx context.Context, workspaceID, id string) (*Poster, error)
	// PosterByID returns a poster of any workspace, for visitor links whose
	// signature names it. Returns feedback.ENotFound.
	PosterByID(ctx context.Context, id string) (*Poster, error)
	// Posters returns a page of a location's posters, newest first.
	// Returns feedback.ENotFound if the location does not exist.
	Posters(ctx context.Context, workspaceID, locationID string, p feedback.ListParams) ([]Poster, int, error)
	// RevokePoster revokes a poster at the store's now; revoking twice keeps
	// the first time. Returns feedback.ENotFound.
	RevokePoster(ctx context.Context, workspaceID, id string) (*Poster, error)
}

// ReviewStore keeps reviews.
type ReviewStore interface {
	// CreateReview stores r as a draft.
	CreateReview(ctx context.Context, workspaceID string, r *feedback.Review) error
	// Review returns a review. Returns feedback.ENotFound.
	Review(ctx context.Context, workspaceID, id string) (*feedback.Review, error)
	// Reviews returns a page of reviews, newest first, and the total.
	Reviews(ctx context.Context, workspaceID string, p feedback.ListParams) ([]feedback.Review, int, error)
	// UpdateReview applies the non-nil fields of in. A status change must
	// follow the state machine (feedback.EInvalidTransition otherwise), sets
	// status_changed_at and writes a review.status_changed event in the
	// same transaction; setting the current status changes nothing.
	// Returns feedback.ENotFound.
	UpdateReview(ctx context.Context, workspaceID, id string, in feedback.ReviewInput) (*feedback.Review, error)
}

// SurveyStore keeps surveys.
type SurveyStore interface {
	// CreateSurvey stores s as a draft.
	CreateSurvey(ctx context.Context, workspaceID string, s *feedback.Survey) error
	// Survey returns a survey with its questions. Returns feedback.ENotFound.
	Survey(ctx context.Context, workspaceID, id string) (*feedback.Survey, error)
	// Surveys returns a page of surveys, newest first, and the total.
	Surveys(ctx context.Context, workspaceID string, p feedback.ListParams) ([]feedback.Survey, int, error)
	// UpdateSurvey applies the non-nil fields of in, with the review state
	// machine for status. Questions change only while the survey is a
	// draft (feedback.EConflict otherwise). Returns feedback.ENotFound, feedback.EInvalidTransition.
	UpdateSurvey(ctx context.Context, workspaceID, id string, in feedback.SurveyInput) (*feedback.Survey, error)
}

// SubmissionStore keeps what visitors submit. Each Add method inserts the
// record and its *.created event in one transaction, idempotently by id:
// it reports created=true for a new record; for an existing id with the
// same hash it fills s with the stored record and reports false; for an
// existing id with a different hash it returns feedback.EIdempotencyConflict.
type SubmissionStore interface {
	AddHygiene(ctx context.Context, workspaceID string, s *feedback.HygieneSubmission, hash []byte) (created bool, err error)
	AddReviewResponse(ctx context.Context, workspaceID string, r *feedback.ReviewResponse, hash []byte) (created bool, err error)
	AddSurveyResponse(ctx context.Context, workspaceID string, r *feedback.SurveyResponse, hash []byte) (created bool, err error)

	// HygieneSubmissions returns a page (created_at desc, id desc) filtered
	// by p.From, p.To and p.LocationID, and the total of the filter.
	HygieneSubmissions(ctx context.Context, workspaceID string, p feedback.ListParams) ([]feedback.HygieneSubmission, int, error)
	// ReviewResponses returns a page of a review's responses filtered by
	// p.From and p.To. Returns feedback.ENotFound if the review does not exist.
	ReviewResponses(ctx context.Context, workspaceID, reviewID string, p feedback.ListParams) ([]feedback.ReviewResponse, int, error)
	// SurveyResponses returns a page of a survey's responses filtered by
	// p.From and p.To. Returns feedback.ENotFound if the survey does not exist.
	SurveyResponses(ctx context.Context, workspaceID, surveyID string, p feedback.ListParams) ([]feedback.SurveyResponse, int, error)
}

// SummaryStore counts what visitors submitted.
type SummaryStore interface {
	// Summary returns, per location (deleted ones included; by id), the
	// count and rating sum of the hygiene submissions and review
	// responses and the count of the survey responses created in [from,
	// to). Locations without one are left out.
	Summary(ctx context.Context, workspaceID string, from, to time.Time) ([]feedback.LocationSummary, error)
}

// StatsStore answers the statistics of what visitors submitted, for the
// dashboard's charts, from hourly counters that a rollup of the
// submissions' events keeps (RollupStats, which every instance runs; see
// server/rollup), plus the events it has not counted yet: a statistic
// holds every submission committed before it is read. Submissions count in the hour of their captured_at (when
// the visitor rated), not of their created_at; days, weeks and heatmap
// hours are those of the workspace's time zone, and an hour counts in
// the local bucket of its first instant. A query covers the hours whose
// first instant lies in [q.From, q.To).
//
// Each method returns feedback.EValidation for a bad range (from not
// before to, longer than feedback.MaxStatsSpan) or bucket, and
// feedback.ENotFound for a location, review or survey that is not the
// workspace's (a deleted location is still found).
type StatsStore interface {
	// HygieneStats returns the hygiene ratings of q: total, buckets and
	// the weekday × hour heatmap, of q.LocationID or the whole workspace.
	HygieneStats(ctx context.Context, workspaceID string, q feedback.StatsQuery) (*feedback.HygieneStats, error)
	// LocationStats returns the hygiene series of every location with a
	// rating in q's range (q.LocationID is ignored).
	LocationStats(ctx context.Context, workspaceID string, q feedback.StatsQuery) (*feedback.LocationStats, error)
	// ReviewStats returns a review's rating statistics of q.
	ReviewStats(ctx context.Context, workspaceID, reviewID string, q feedback.StatsQuery) (*feedback.ReviewStats, error)
	// SurveyStats returns a survey's response counts and per-question
	// statistics of q.
	SurveyStats(ctx context.Context, workspaceID, surveyID string, q feedback.StatsQuery) (*feedback.SurveyStats, error)
	// StatsWorkspaces returns the workspaces with events that the
	// counters do not hold yet.
	StatsWorkspaces(ctx context.Context) ([]string, error)
	// RollupStats adds a workspace's events after its cursor to the
	// counters, each event once whichever instances run it at once, and
	// returns how many events it read.
	RollupStats(ctx context.Context, workspaceID string) (int, error)
	// WorkspaceSettings returns a workspace's settings. Returns
	// feedback.ENotFound.
	WorkspaceSettings(ctx context.Context, workspaceID string) (*feedback.WorkspaceSettings, error)
	// UpdateWorkspaceSettings stores a workspace's settings. Returns
	// feedback.EValidation for a time zone that is not an IANA name.
	UpdateWorkspaceSettings(ctx context.Context, workspaceID string, in feedback.WorkspaceSettings) (*feedback.WorkspaceSettings, error)
}

// ExportStore walks whole lists for exports.
type ExportStore interface {
	// EachHygiene calls fn with every hygiene submission that
	// HygieneSubmissions lists for p's filters and cursor, in its order,
	// a batch at a time, and stops at fn's first error. Memory stays
	// that of one batch, and no statement is open while fn runs.
	EachHygiene(ctx context.Context, workspaceID string, p feedback.ListParams, fn func([]feedback.HygieneSubmission) error) error
	// EachReviewResponse is EachHygiene for a review's responses.
	// Returns feedback.ENotFound if the review does not exist.
	EachReviewResponse(ctx context.Context, workspaceID, reviewID string, p feedback.ListParams, fn func([]feedback.ReviewResponse) error) error
	// EachSurveyResponse is EachHygiene for a survey's responses.
	// Returns feedback.ENotFound if the survey does not exist.
	EachSurveyResponse(ctx context.Context, workspaceID, surveyID string, p feedback.ListParams, fn func([]feedback.SurveyResponse) error) error
}

// WebhookStore keeps webhook subscriptions.
type WebhookStore interface {
	// CreateWebhook stores w.
	CreateWebhook(ctx context.Context, w *Webhook) error
	// Webhook returns a subscription. Returns feedback.ENotFound.
	Webhook(ctx context.Context, workspaceID, id string) (*Webhook, error)
	// Webhooks returns a page of subscriptions, newest first, and the total.
	Webhooks(ctx context.Context, workspaceID string, p feedback.ListParams) ([]Webhook, int, error)
	// DeleteWebhook removes a subscription and its pending deliveries
	// (their log goes with it). Returns feedback.ENotFound.
	DeleteWebhook(ctx context.Context, workspaceID, id string) error
}

// DeliveryStore is the durable webhook queue. Appending an event (with
// its data, see SubmissionStore and ReviewStore, or through AppendEvent)
// creates, in the same transaction, one pending delivery per enabled
// subscription of the workspace whose events include the event's type or
// "*", unique per (event, subscription), due at once. webhook.test events
// go only to the subscription pinged.
type DeliveryStore interface {
	// UpdateWebhook applies c and returns the subscription. Re-enabling
	// clears disabled_at and disabled_reason. Returns feedback.ENotFound.
	UpdateWebhook(ctx context.Context, workspaceID, id string, c WebhookChange) (*Webhook, error)
	// ClaimDeliveries leases up to limit due deliveries (pending, next
	// attempt at or before now, not leased or lease expired) of any
	// workspace to worker until now+lease: ClaimDue without a cap per
	// subscription.
	ClaimDeliveries(ctx context.Context, worker string, lease time.Duration, limit int) ([]Delivery, error)
	// ClaimDue leases up to c.Limit due deliveries to worker until
	// now+c.Lease, so that no other worker takes them meanwhile (FOR NO
	// KEY UPDATE SKIP LOCKED on PostgreSQL). It takes turns across
	// subscriptions: each subscription's oldest due delivery first, then
	// each one's second, and so on, so that one subscription's backlog
	// never holds back another's. A subscription never has more than
	// c.PerWebhook deliveries leased at once after the claim (two claims
	// committing at the same moment on PostgreSQL may each fill it).
	// Deliveries of disabled or deleted subscriptions and of c.Skip are
	// never claimed.
	ClaimDue(ctx context.Context, worker string, c Claim) ([]Delivery, error)
	// FinishAttempt records attempt a of a delivery leased by worker and
	// applies o, in one transaction: the attempt joins the log, attempts
	// and last status/error are updated, the lease is released. When the
	// lease is no longer worker's (it expired and another worker took the
	// delivery) nothing changes and feedback.EConflict is returned.
	FinishAttempt(ctx context.Context, worker string, d *Delivery, a feedback.DeliveryAttempt, o Outcome) error
	// FinishAttempts records many attempts as FinishAttempt does and
	// releases the leases of deliveries in release without an attempt
	// (they are due again at once), all in one transaction. It returns
	// the ids of the deliveries, of either list, whose lease was no longer
	// worker's: those are left as they are.
	FinishAttempts(ctx context.Context, worker string, done []Finished, release []*Delivery) (lost []string, err error)
	// Deliveries returns a page of a subscription's deliveries, newest
	// first, each with its attempt log. Returns feedback.ENotFound if the
	// subscription does not exist.
	Deliveries(ctx context.Context, workspaceID, webhookID string, p feedback.ListParams) ([]feedback.WebhookDelivery, int, error)
	// Redeliver makes a delivery pending and due now again, whatever its
	// state (its id, hence its webhook-id, stays). Returns
	// feedback.ENotFound, and feedback.EConflict when the subscription is
	// disabled.
	Redeliver(ctx context.Context, workspaceID, webhookID, deliveryID string) (*feedback.WebhookDelivery, error)
	// PingWebhook appends a webhook.test event whose data is data and a
	// delivery of it to this subscription only. Returns feedback.ENotFound.
	PingWebhook(ctx context.Context, workspaceID, webhookID string, data []byte) (*feedback.WebhookDelivery, error)
	// NextDue returns the earliest next attempt later than after of a
	// pending delivery, and false when there is none; workers sleep until
	// then. (Disabled subscriptions' deliveries count too, which at worst
	// wakes a worker that finds nothing to claim; expiring leases do not:
	// workers poll for them.)
	NextDue(ctx context.Context, after time.Time) (time.Time, bool, error)
	// OnDue sets fn to be called after each commit that created
	// deliveries or made one due now (events with subscribers,
	// redeliveries, tests), so that a dispatcher in this process starts
	// at once; a commit that created none calls nothing. Set it before
	// use.
	OnDue(fn func())
}

// AuthStore keeps the users who sign in to the dashboard, their
// sessions and the audit log.
type AuthStore interface {
	// SignIn records a sign-in of the user named by u.Issuer and
	// u.Subject: it creates the user or updates email, name and
	// last_sign_in_at, and fills in u. The first user of the installation
	// becomes its platform owner.
	SignIn(ctx context.Context, u *User) error
	// User returns a user. Returns feedback.ENotFound.
	User(ctx context.Context, id string) (*User, error)
	// Memberships returns the workspaces the user can open with their
	// role, by name: every workspace, as feedback.RoleOwner, for a
	// platform owner.
	Memberships(ctx context.Context, userID string) ([]feedback.Membership, error)
	// CreateSession stores s, with a new id unless set.
	CreateSession(ctx context.Context, s *Session) error
	// SessionByAccess returns the session, revoked or not, whose access
	// hash is hash. Returns feedback.ENotFound.
	SessionByAccess(ctx context.Context, hash []byte) (*Session, error)
	// RotateSession replaces the access and refresh values of the live
	// session whose refresh hash is refresh, retiring the old refresh
	// hash, and returns the session. A refresh hash retired less than
	// grace ago (another request of the same browser renewed first)
	// returns the live session unchanged: its RefreshHash is not
	// next.RefreshHash, so the caller sets no cookies. One retired earlier
	// (a stolen cookie) revokes its session ("refresh token reused"),
	// audits session.refresh_reused, and returns feedback.ETokenRevoked.
	// An unknown, expired or revoked one is feedback.ENotFound. The
	// provider tokens of next replace the session's when not nil, and
	// the renewal claim ends.
	RotateSession(ctx context.Context, refresh []byte, next Rotation, grace time.Duration) (*Session, error)
	// ClaimRenewal starts the renewal of the session whose current
	// refresh hash is refresh: it returns the live session and true when
	// this call claimed it, that is when no other claim on the session is
	// younger than grace, so that only the claimant asks the identity
	// provider for new tokens before it calls RotateSession. A session
	// that a concurrent request claimed, or a refresh hash retired less
	// than grace ago, returns the live session and false (renewed
	// already or being renewed: go on without new cookies). A refresh hash
	// retired earlier, unknown, expired or revoked: as RotateSession.
	ClaimRenewal(ctx context.Context, refresh []byte, grace time.Duration) (*Session, bool, error)
	// TouchSession sets last_seen_at and the client IP.
	TouchSession(ctx context.Context, id string, at time.Time, ip string) error
	// Sessions returns the user's live sessions (not revoked, refresh not
	// expired), newest first.
	Sessions(ctx context.Context, userID string) ([]Session, error)
	// RevokeSession revokes one of the user's sessions with reason.
	// Returns feedback.ENotFound if the user has no such live session.
	RevokeSession(ctx context.Context, userID, id, reason string) error
	// Members returns the workspace's members, by email.
	Members(ctx context.Context, workspaceID string) ([]feedback.Member, error)
	// SetMemberRole changes a member's role. Returns feedback.ENotFound.
	SetMemberRole(ctx context.Context, workspaceID, userID, role string) error
	// RemoveMember removes a member. Returns feedback.ENotFound.
	RemoveMember(ctx context.Context, workspaceID, userID string) error
	// CreateInvite stores an invitation whose code hashes to hash.
	CreateInvite(ctx context.Context, workspaceID, role, createdBy string, hash []byte, expires time.Time) (*feedback.Invite, error)
	// AcceptInvite makes userID a member with the role of the unused,
	// unexpired invitation whose code hashes to hash (a member keeps the
	// higher of both roles), and returns the membership. Returns
	// feedback.ENotFound.
	AcceptInvite(ctx context.Context, hash []byte, userID string) (*feedback.Membership, error)
	// AppendAudit stores e with a new id and created_at.
	AppendAudit(ctx context.Context, e *feedback.AuditEntry) error
	// AuditLog returns a page of the audit log, newest first, and the
	// total; from and to filter created_at.
	AuditLog(ctx context.Context, p feedback.ListParams) ([]feedback.AuditEntry, int, error)
}

// EventStore reads and appends the outbox.
type EventStore interface {
	// AppendEvent writes an event outside any data change (webhook.test,
	// kiosk.online, ...), assigning id, timestamp and the next sequence
	// number; e.Type and e.Data must be set.
	AppendEvent(ctx context.Context, workspaceID string, e *feedback.Event) error
	// Events returns up to limit events with seq > after, in seq order.
	Events(ctx context.Context, workspaceID string, after int64, limit int) ([]feedback.Event, error)
	// EventPosition returns the largest seq that Events could return now
	// (0 when there is none): every event committed before the call is at
	// or below it, every event committed later above it.
	EventPosition(ctx context.Context, workspaceID string) (int64, error)
	// OnEvent adds fn to the functions called after each commit that
	// wrote events, once per workspace with the largest seq written
	// there, so that the live stream and the alert worker of this
	// process read them at once. Add them before use.
	OnEvent(fn func(workspaceID string, seq int64))
}

// AlertStore keeps alert rules, the alerts they raise and the cursor of
// their evaluation (see server/alerts, which runs the evaluation).
type AlertStore interface {
	// CreateAlertRule stores a validated rule; the workspace's first one
	// starts its cursor at EventPosition (history is not evaluated).
	// Returns feedback.ENotFound for an unknown workspace or location.
	CreateAlertRule(ctx context.Context, workspaceID string, r *feedback.AlertRule) error
	// AlertRule returns a rule. Returns feedback.ENotFound.
	AlertRule(ctx context.Context, workspaceID, id string) (*feedback.AlertRule, error)
	// AlertRules returns a page of rules, newest first, and the total.
	AlertRules(ctx context.Context, workspaceID string, p feedback.ListParams) ([]feedback.AlertRule, int, error)
	// UpdateAlertRule stores what change makes of the rule, in one
	// transaction. Returns feedback.ENotFound or change's error.
	UpdateAlertRule(ctx context.Context, workspaceID, id string, change func(*feedback.AlertRule) error) (*feedback.AlertRule, error)
	// DeleteAlertRule removes a rule; its alerts stay. Returns
	// feedback.ENotFound.
	DeleteAlertRule(ctx context.Context, workspaceID, id string) error
	// Alerts returns a page of alerts, newest first, and the total.
	Alerts(ctx context.Context, workspaceID string, p feedback.ListParams, f feedback.AlertFilter) ([]feedback.Alert, int, error)
	// Alert returns an alert. Returns feedback.ENotFound.
	Alert(ctx context.Context, workspaceID, id string) (*feedback.Alert, error)
	// AcknowledgeAlert acknowledges an open alert, with its
	// alert.acknowledged event. Returns feedback.ENotFound or
	// feedback.EInvalidTransition.
	AcknowledgeAlert(ctx context.Context, workspaceID, id, by string) (*feedback.Alert, error)
	// ResolveAlert resolves an open or acknowledged alert, with its
	// alert.resolved event. Returns feedback.ENotFound or
	// feedback.EInvalidTransition.
	ResolveAlert(ctx context.Context, workspaceID, id, by, note string) (*feedback.Alert, error)
	// AlertStats returns per location the response times of the alerts
	// triggered in [from, to).
	AlertStats(ctx context.Context, workspaceID string, from, to time.Time) ([]feedback.AlertResponseTimes, error)
	// AlertWorkspaces returns the workspaces with enabled rules that
	// submissions fire.
	AlertWorkspaces(ctx context.Context) ([]string, error)
	// EvaluateAlerts evaluates the workspace's rules on the events after
	// its cursor, once across instances, and returns the alerts raised.
	EvaluateAlerts(ctx context.Context, workspaceID string) (int, error)
	// CheckKiosksOffline raises the alerts of kiosk_offline rules, one per
	// silence of a kiosk, and returns how many.
	CheckKiosksOffline(ctx context.Context) (int, error)
	// ClaimAlertMails leases up to limit alert mails that are due, for
	// lease: no other claim returns them until it ends.
	ClaimAlertMails(ctx context.Context, lease time.Duration, limit int) ([]AlertMail, error)
	// FinishAlertMail records the outcome of sending a claimed mail: sent
	// when sendErr is nil, otherwise due again after a backoff, or given
	// up after MaxMailAttempts.
	FinishAlertMail(ctx context.Context, m *AlertMail, sendErr error) error
}

// MaxMailAttempts is how many times an alert mail is tried before it is
// given up.
const MaxMailAttempts = 10

// AlertMail is the mail of one alert to its rule's emails, with what the
// message names: the workspace's slug (for the link) and the location's
// name.
type AlertMail struct {
	WorkspaceID   string
	ID            string
	Recipients    []string
	Attempts      int // attempts before this one
	WorkspaceSlug string
	LocationName  string // "" for an alert without a location
	Alert         feedback.Alert
}

// KioskStore keeps kiosks and their pairing codes.
type KioskStore interface {
	// CreatePairingCode stores c. Returns feedback.ENotFound naming location_id,
	// review_id or survey_id when they do not exist in the workspace.
	CreatePairingCode(ctx context.Context, c *PairingCode) error
	// PairKiosk consumes the unexpired, unused code with hash codeHash and
	// stores k for the code's workspace, location and form, filling them
	// into k. Returns feedback.ENotFound if there is no such code.
	PairKiosk(ctx context.Context, codeHash []byte, k *Kiosk) error
	// KioskByCredential returns the kiosk, revoked or not, whose
	// credential hash is hash. Returns feedback.ENotFound.
	KioskByCredential(ctx context.Context, hash []byte) (*Kiosk, error)
	// Kiosks returns a page of kiosks, newest first, and the total.
	Kiosks(ctx context.Context, workspaceID string, p feedback.ListParams) ([]Kiosk, int, error)
	// RevokeKiosk revokes a kiosk's credential; a kiosk marked online
	// goes offline with a kiosk.offline event. Returns feedback.ENotFound.
	RevokeKiosk(ctx context.Context, workspaceID, id string) error
	// KioskHeartbeat records that the kiosk was seen at the store's now.
	// A kiosk neither marked online nor revoked is marked online, with a
	// kiosk.online event in the same transaction: of concurrent
	// heartbeats (or syncs) one marks it and writes the event. Returns
	// feedback.ENotFound.
	KioskHeartbeat(ctx context.Context, workspaceID, id string, hb feedback.Heartbeat) error
	// KioskSynced records that the kiosk was seen at the store's now, after
	// a sync in which left of its queued submissions were answered for
	// good (stored, or refused so that they leave its queue): its queue
	// depth becomes depth (the queue the kiosk reported with the sync, the
	// batch included) minus left, or without a report the depth it had
	// minus left, never below 0. It marks the kiosk online as
	// KioskHeartbeat does. Returns feedback.ENotFound.
	KioskSynced(ctx context.Context, workspaceID, id string, depth *int, left int) error
	// MarkKiosksOffline marks offline every kiosk of every workspace that
	// is marked online and whose last heartbeat or sync is three minutes
	// (three missed heartbeats) or more before the store's now, with one
	// kiosk.offline event each, written in the transaction that marks it.
	// Every instance runs it periodically: when several run it at once,
	// each kiosk is marked, and its event written, by exactly one. It
	// returns how many kiosks it marked.
	MarkKiosksOffline(ctx context.Context) (int, error)
}

// Limiter counts requests in fixed windows.
type Limiter interface {
	// Take counts one request against key's budget of limit per window and
	// reports whether it is allowed, with the headers' numbers. Every call
	// counts, allowed or not, so exactly limit calls per window succeed.
	Take(ctx context.Context, key string, limit int, window time.Duration) (Quota, error)
}

// TokenLimiter is what a store whose rate limits live in its database
// (PostgreSQL) offers besides [Limiter]: an API request's token lookup
// and its workspace's rate limit in one round trip.
type TokenLimiter interface {
	// TakeToken returns the token, revoked or not, whose hash is hash, as
	// TokenByHash does, and, unless it is revoked, counts one request
	// against the budget of limit per window of the key prefix plus its
	// workspace id, as Limiter().Take would; a revoked token's quota is the
	// zero Quota. Returns feedback.ENotFound.
	TakeToken(ctx context.Context, hash []byte, prefix string, limit int, window time.Duration) (*Token, Quota, error)
	// TakeKnownToken is TakeToken without the token's read, for a token
	// this process has read before: it returns what does not change of
	// the token (its workspace, id and name; RevokedAt and LastUsedAt are
	// unset) and counts the request as TakeToken would, when that takes
	// no round trip. ok is false, and nothing counted, otherwise. The
	// caller must then read the token (a [TokenCheck]) before it answers,
	// and give the request back with RefundToken if the token is revoked
	// or gone.
	TakeKnownToken(hash []byte, prefix string, limit int, window time.Duration) (t *Token, q Quota, ok bool)
	// RefundToken gives back a request that TakeKnownToken counted for t.
	RefundToken(t *Token, prefix string, window time.Duration)
}
