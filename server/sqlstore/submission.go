package sqlstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// addition is one idempotent insert of what a visitor submitted.
type addition struct {
	id        string    // the record's id
	createdAt time.Time // its created_at
	event     string    // the kind of the *.created event
	insert    string    // INSERT ... ON CONFLICT (workspace_id, id) DO NOTHING (see submissionInsert)
	args      []any     // insert's arguments
	find      string    // SELECT the record's columns, then body_hash, WHERE workspace_id = $1 AND id = $2
	counters  []counter // the series of list_counts that count the record
}

// add runs a: it inserts the record and its *.created event (whose data is
// *rec), and counts it in a.counters, in one transaction and reports
// true; when the id is taken by a record with the same hash it fills *rec
// with the stored record and reports false; with another hash it returns
// feedback.EIdempotencyConflict. The store's clock has already set
// created_at; a missing location, poster or form is feedback.ENotFound.
func add[T any](ctx context.Context, s *Store, workspaceID string, rec *T, hash []byte, a addition,
	scan func(Row) (T, error)) (bool, error) {
	created, err := addOnce(ctx, s, workspaceID, rec, hash, a, scan)
	if created {
		s.hours.written(a.createdAt)
	}
	return created, err
}

// addOnce is add but for telling the cache of closed hours.
func addOnce[T any](ctx context.Context, s *Store, workspaceID string, rec *T, hash []byte, a addition,
	scan func(Row) (T, error)) (bool, error) {
	if s.dialect.WritableCTE {
		return addInOne(ctx, s, workspaceID, rec, hash, a, scan)
	}
	created := false
	err := s.db.InTx(ctx, func(tx Conn) error {
		n, err := tx.Exec(ctx, a.insert, a.args...)
		if errors.Is(err, ErrForeignKey) {
			return feedback.Errorf(feedback.ENotFound,
				"The location, poster or form of submission %s does not exist in the workspace.", a.id)
		}
		if err != nil {
			return err
		}
		if n > 0 {
			created = true
			if err := s.appendEvent(ctx, tx, workspaceID, a.event, rec); err != nil {
				return err
			}
			return countAdded(ctx, tx, s.dialect, workspaceID, a.createdAt, a.counters)
		}
		var stored []byte
		v, err := scan(hashRow{tx.QueryRow(ctx, a.find, workspaceID, a.id), &stored})
		if errors.Is(err, ErrNoRows) {
			return errRefused
		}
		if err != nil {
			return err
		}
		if !bytes.Equal(stored, hash) {
			return feedback.Errorf(feedback.EIdempotencyConflict,
				"A submission with id %s was already stored with a different body.", a.id)
		}
		*rec = v
		return nil
	})
	return created && err == nil, err
}

// submissionInsert returns the INSERT of a submission into table: the
// workspace and columns, then body_hash, from parameters $1 to $n; $n+1
// is the grace cutoff (see graceCutoff), $poster and $captured hold the
// poster and captured_at. It inserts nothing when the poster was
// revoked and the submission is not late but valid (captured before the
// revocation, within feedback.RevokedGrace of it): the database refuses
// it on every instance, whatever a cached view of the poster said. A
// missing poster still breaks the foreign key.
func submissionInsert(table, columns string, n, poster, captured int) string {
	params := make([]string, n)
	for i := range params {
		params[i] = fmt.Sprintf("$%d", i+1)
	}
	return fmt.Sprintf(`INSERT INTO %s (workspace_id, %s, body_hash)
			SELECT %s WHERE NOT EXISTS (SELECT 1 FROM posters WHERE workspace_id = $1 AND id = $%d
				AND (revoked_at <= $%d OR revoked_at <= $%d))
			ON CONFLICT (workspace_id, id) DO NOTHING`, table, columns, strings.Join(params, ", "), poster, captured, n+1)
}

// graceCutoff is the revocation time before which a poster takes no
// submission at createdAt, however early it was captured.
func graceCutoff(createdAt feedback.Time) time.Time {
	return createdAt.Add(-feedback.RevokedGrace)
}

// errRefused is the error of a submission that its INSERT refused (see
// submissionInsert).
var errRefused = feedback.Errorf(feedback.EPosterRevoked, "This poster has been revoked and takes no new feedback.")

// hashRow scans one more column after the record's: its body hash.
type hashRow struct {
	Row
	hash *[]byte
}

// Scan implements Row.
func (r hashRow) Scan(dest ...any) error {
	return r.Row.Scan(append(dest, r.hash)...)
}

// stamp gives a new submission its id (unless set) and created_at, and
// truncates captured_at as the store truncates every time.
func (s *Store) stamp(id *string, createdAt, capturedAt *feedback.Time) {
	*id = s.newID(*id)
	*createdAt = feedback.NewTime(s.now())
	*capturedAt = feedback.NewTime(capturedAt.Time)
}

// checkSubmission canonicalises the ids of a submission. The workspace,
// the optional poster and the required references must be UUIDs
// (feedback.ENotFound otherwise); the record's own id must be a UUID or
// empty (feedback.EValidation).
func checkSubmission(workspaceID, id, posterID *string, required ...*string) error {
	if err := canonicalNew(id); err != nil {
		return err
	}
	if *posterID != "" {
		required = append(required, posterID)
	}
	for _, ref := range append(required, workspaceID) {
		if !canonical(ref) {
			return feedback.Errorf(feedback.ENotFound, "No record with id %q exists.", *ref)
		}
	}
	return nil
}
