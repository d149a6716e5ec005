package sqlstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

const eventColumns = "workspace_id, seq, id, type, occurred_at, data"

// AppendEvent writes an event outside any data change, assigning id,
// timestamp and the next sequence number; e.Type and e.Data must be set.
// Returns feedback.ENotFound if the workspace does not exist.
func (s *Store) AppendEvent(ctx context.Context, workspaceID string, e *feedback.Event) (err error) {
	defer wrap(&err, "AppendEvent(%s, %s)", workspaceID, e.Type)
	if !canonical(&workspaceID) {
		return notFound("workspace", workspaceID)
	}
	if e.Type == "" || !json.Valid(e.Data) {
		return errors.New("an event needs a type and JSON data")
	}
	return s.db.InTx(ctx, func(tx Conn) error {
		return s.insertEvent(ctx, tx, workspaceID, e)
	})
}

// Events returns up to limit events with seq > after, in seq order,
// leaving out those that a later commit could still precede (see
// Dialect.EventHorizon): resuming after the last one returned misses
// none. A limit out of 1..feedback.MaxEventLimit means
// feedback.DefaultEventLimit.
func (s *Store) Events(ctx context.Context, workspaceID string, after int64, limit int) (_ []feedback.Event, err error) {
	defer wrap(&err, "Events(%s, %d)", workspaceID, after)
	if !canonical(&workspaceID) {
		return []feedback.Event{}, nil
	}
	if limit < 1 || limit > feedback.MaxEventLimit {
		limit = feedback.DefaultEventLimit
	}
	if err := s.settleEvents(ctx); err != nil {
		return nil, err
	}
	rows, err := s.db.Query(ctx, `SELECT `+eventColumns+` FROM events
		WHERE workspace_id = $1 AND seq > $2`+s.dialect.EventHorizon+` ORDER BY seq LIMIT $3`, workspaceID, after, limit)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanEvent)
}

// scanEvent reads a row of eventColumns.
func scanEvent(r Row) (feedback.Event, error) {
	var e feedback.Event
	err := r.Scan(&e.WorkspaceID, &e.Seq, &e.ID, &e.Type, at(&e.Timestamp), compactJSON{&e.Data})
	return e, err
}

// EventPosition returns the largest seq of the workspace's events that
// Events could return now, 0 when there is none. Every event committed
// before the call is at or below it (it waits for the transactions then
// running, as Events does), and every event committed later has a
// greater seq (see Dialect.EventHorizon), so resuming after it misses
// none.
func (s *Store) EventPosition(ctx context.Context, workspaceID string) (_ int64, err error) {
	defer wrap(&err, "EventPosition(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return 0, nil
	}
	if err := s.settleEvents(ctx); err != nil { // so that every event committed before the call counts
		return 0, err
	}
	var seq int64
	err = s.db.QueryRow(ctx, `SELECT COALESCE(MAX(seq), 0) FROM events WHERE workspace_id = $1`+s.dialect.EventHorizon,
		workspaceID).Scan(&seq)
	return seq, err
}

// settleWait bounds how long a read of events waits for the
// transactions that were running when it began.
const settleWait = 2 * time.Second

// lockRecord makes tx wait for its turn to change the record id, before
// anything in tx takes a row lock or writes (see Dialect.LockRecord): a
// transaction that changes a record and writes an event about it calls
// it first, so that the events of one record are numbered in the order
// in which their changes commit.
func (s *Store) lockRecord(ctx context.Context, tx Conn, id string) error {
	if s.dialect.LockRecord == "" {
		return nil
	}
	_, err := tx.Exec(ctx, s.dialect.LockRecord, id)
	return err
}

// appendEvent writes an event of kind typ whose data is v as JSON, in
// the transaction that made the change it reports.
func (s *Store) appendEvent(ctx context.Context, tx Conn, workspaceID, typ string, v any) error {
	data, err := recordJSON(v)
	if err != nil {
		return err
	}
	return s.insertEvent(ctx, tx, workspaceID, &feedback.Event{Type: typ, Data: data})
}

// insertEvent writes e, numbered after every event a reader may have
// seen (see Dialect.EventSeq), with its deliveries (see fanOut). It
// takes no lock: a workspace's writers commit side by side.
func (s *Store) insertEvent(ctx context.Context, tx Conn, workspaceID string, e *feedback.Event) error {
	now := s.now()
	e.ID, e.WorkspaceID, e.Timestamp = feedback.NewIDAt(now), workspaceID, feedback.NewTime(now)
	ordinal, err := eventOrdinal(tx)
	if err != nil {
		return err
	}
	err = tx.QueryRow(ctx, `INSERT INTO events (`+eventColumns+`) VALUES ($1, `+s.dialect.EventSeq(strconv.Itoa(ordinal))+`,
		$2, $3, $4, $5) RETURNING seq`, workspaceID, e.ID, e.Type, now, string(e.Data)).Scan(&e.Seq)
	if errors.Is(err, ErrForeignKey) {
		return notFound("workspace", workspaceID)
	}
	if err != nil {
		return err
	}
	noteEvent(tx, workspaceID, e.Seq)
	return s.fanOut(ctx, tx, e)
}

// compactJSON scans a JSON column into *m without insignificant space,
// which jsonb adds to its output. (jsonb also orders object keys its own
// way: compare event data as JSON values, not as bytes.)
type compactJSON struct{ m *json.RawMessage }

// Scan implements sql.Scanner.
func (d compactJSON) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case string:
		b = []byte(v)
	case []byte:
		b = v
	default:
		return fmt.Errorf("sqlstore: cannot scan %T as JSON", src)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return err
	}
	*d.m = buf.Bytes()
	return nil
}
