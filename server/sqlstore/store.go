package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Dialect holds the few words of SQL that differ between databases.
type Dialect struct {
	// ForUpdate ends a SELECT that reads a row the transaction is about
	// to change, so that concurrent changes take turns: on PostgreSQL
	// " FOR NO KEY UPDATE" (which, unlike FOR UPDATE, lets inserts that
	// reference the row through a foreign key go on), on SQLite "", as a
	// write transaction there already excludes every other writer.
	ForUpdate string
	// SkipLocked ends the SELECT of the rows that a claim leases, so that
	// concurrent claims pass over each other's rows instead of waiting
	// for them: on PostgreSQL " FOR NO KEY UPDATE SKIP LOCKED", on SQLite
	// "", whose single writer runs one claim at a time.
	SkipLocked string
	// LockRecord is a statement that makes the transactions that change
	// one record ($1, its id) and write an event about it take turns
	// before any of them has a transaction id: on PostgreSQL a
	// transaction-scoped advisory lock on the id. A row lock is not
	// enough there: a writer that waits for a row, or follows the row's
	// updates after waiting, may already hold the id that numbers its
	// event (see EventSeq), so a third writer that drew a later id could
	// commit first and write the earlier-numbered event last. "" on
	// SQLite, whose single writer already orders every change.
	LockRecord string
	// RowID is an expression that gives each row of an INSERT ... SELECT
	// a new UUIDv7 in the type of id columns. Its one verb, %s, is a text
	// parameter holding the first 19 characters of a UUIDv7 of the
	// store's now ("tttttttt-tttt-7xxx-": the millisecond, the version and
	// 12 random bits); the expression appends the variant and 62 random
	// bits drawn anew for each row.
	RowID string
	// EventSeq returns the expression of a new event's seq, given the
	// expression (a literal or a placeholder) of the event's ordinal
	// within its transaction, from 0; $1 is the workspace. Numbers only
	// increase in the order in which readers may see them (see EventHorizon) and never take a lock that orders
	// a workspace's writers: on PostgreSQL the transaction's id times
	// [MaxTxEvents] plus the ordinal, on SQLite, whose single writer
	// already orders every write, the workspace's greatest seq plus one.
	EventSeq func(ordinal string) string
	// EventHorizon ends the condition of every read of events that a
	// reader resumes after: it leaves out the events that an earlier
	// number could still precede when it commits. On PostgreSQL those
	// are the events of transactions from the oldest one still running
	// on: every transaction below it has ended. On SQLite "".
	EventHorizon string
	// EventSnapshot is a query of two numbers that tell when a read of
	// events sees what committed before it began: the first is the
	// horizon's transaction (the oldest still running), the second the
	// first transaction not yet begun, which the first must reach (see
	// Store.Events). "" where the horizon is always current (SQLite).
	EventSnapshot string
	// CountShard is the expression of the shard of list_counts that a
	// new submission adds to. On PostgreSQL it is the connection's
	// backend process id modulo 64: connections opened together have
	// consecutive ids, so concurrent writers add to different rows
	// instead of waiting for each other's commits (two that share a shard
	// only take turns), and an hour has at most 64 rows a series. On
	// SQLite, whose writers take turns anyway, "0".
	CountShard string
	// WritableCTE is set where a WITH clause may hold INSERTs
	// (PostgreSQL): a submission, its event, its deliveries and its
	// counters are then one statement, one round trip (see addInOne),
	// and concurrent ones commit in groups on the DB's pipeline, which
	// such a DB must have (see grouper).
	WritableCTE bool
	// SeekPages is set where a page that skips rows finds its first row
	// by a scan of the index alone, then reads the page from it
	// (PostgreSQL, whose OFFSET reads every skipped row from the table;
	// see pageQuery). SQLite skips an OFFSET's rows without reading the
	// table, and bounds the anchored form's scan by the list's range, not
	// by the anchor: 2.5 ms against 0.2 ms to skip 3,000 rows.
	SeekPages bool
	// LimitParam is the form (fmt, one %s: the placeholder) in which a
	// list's LIMIT and OFFSET are bound, "" for the placeholder alone.
	// SQLite reads the value bound to a bare LIMIT or OFFSET placeholder
	// when it plans, and so plans the statement again at every execution
	// that binds one; "(%s + 0)" keeps the value out of the plan (56 µs
	// against 46 µs a page of 50 rows, in isolation).
	LimitParam string
	// JSONHas returns the condition that the JSON array in column holds
	// the text in the parameter param: on PostgreSQL containment (@>) of
	// jsonb, on SQLite a search of json_each.
	JSONHas func(column, param string) string
}

// Store implements the queries of server.Store (all but Limiter) on a
// [DB]. The dialect packages embed it.
type Store struct {
	// Now is the store's clock, time.Now unless set before first use.
	// Stored times are its value in UTC, truncated to microseconds.
	Now func() time.Time

	db      DB
	dialect Dialect
	hours   closedHours // the list counters' closed hours
	pipe    Pipeliner   // db's pipeline, or nil
	onDue   atomic.Pointer[func()]
	onEvent atomic.Pointer[[]func(string, int64)]
	settle  settler  // the shared waits of readers of events
	addSQL  sync.Map // addInOne's statement of each kind of record (see addOneSQL)
	group   *grouper // addInOne's group commits
}

// New returns a Store that runs its queries on db.
func New(db DB, d Dialect) *Store {
	s := &Store{Now: time.Now, dialect: d}
	s.db = dueDB{DB: db, onDue: &s.onDue, onEvent: &s.onEvent}
	s.pipe, _ = db.(Pipeliner)
	s.group = &grouper{s: s}
	return s
}

// Ping reports whether the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.db.Ping(ctx) }

// Close releases the database.
func (s *Store) Close() error { return s.db.Close() }

// now returns the clock's time as the store keeps it.
func (s *Store) now() time.Time {
	return s.Now().UTC().Truncate(time.Microsecond)
}

// newID returns id if it is set, and a new UUIDv7 otherwise.
func (s *Store) newID(id string) string {
	if id != "" {
		return id
	}
	return feedback.NewIDAt(s.now())
}

// wrap adds the operation to an internal error. A *feedback.Error is
// returned as it is: its code and message are meant for the client.
func wrap(err *error, format string, args ...any) {
	var fe *feedback.Error
	if *err == nil || errors.As(*err, &fe) {
		return
	}
	*err = fmt.Errorf("sqlstore: %s: %w", fmt.Sprintf(format, args...), *err)
}

// canonical rewrites each id in place to its canonical lower-case form
// and reports whether all of them are UUIDs. An id that is not a UUID
// names nothing, on every database.
func canonical(ids ...*string) bool {
	for _, id := range ids {
		c, ok := feedback.ParseUUID(*id)
		if !ok {
			return false
		}
		*id = c
	}
	return true
}

// canonicalNew is canonical for the id of a record being created: an
// empty id is left for [Store.newID], and a malformed one is a
// validation error.
func canonicalNew(id *string) error {
	if *id == "" || canonical(id) {
		return nil
	}
	return &feedback.Error{Code: feedback.EValidation, Message: "The id must be a UUID.",
		Params: []feedback.InvalidParam{{Name: "id", Reason: "must be a UUID"}}}
}

// notFound returns the error for a record that does not exist.
func notFound(kind, id string) error {
	return feedback.Errorf(feedback.ENotFound, "No %s with id %s exists.", kind, id)
}

// orNotFound turns "no rows" into notFound(kind, id).
func orNotFound(err error, kind, id string) error {
	if errors.Is(err, ErrNoRows) {
		return notFound(kind, id)
	}
	return err
}

// createError translates the error of an INSERT: a missing parent is
// feedback.ENotFound, a taken id feedback.EConflict.
func createError(err error, parent, parentID string) error {
	switch {
	case errors.Is(err, ErrForeignKey):
		return notFound(parent, parentID)
	case errors.Is(err, ErrUnique):
		return feedback.Errorf(feedback.EConflict, "A record with this id exists.")
	}
	return err
}

// SQL returns the database the store runs on, for tests and benchmarks
// that read or tune it directly.
func (s *Store) SQL() DB { return s.db }

// Dialect returns the store's dialect.
func (s *Store) Dialect() Dialect { return s.dialect }
