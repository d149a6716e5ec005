package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/feedbackhq/feedback/server/sqlstore"
)

// TestGroupCommit: transactions that wait for the writer commit together,
// and each caller gets its own outcome: a failed one leaves nothing and
// the others stay, one whose context ends before its turn runs nothing,
// and after the group every row that was acknowledged is there.
func TestGroupCommit(t *testing.T) {
	ctx := context.Background()
	p := rowsPool(t)

	// The first transaction holds the writer until the others wait.
	release, held := make(chan struct{}), make(chan struct{})
	var first sync.WaitGroup
	first.Go(func() {
		err := p.InTx(ctx, func(tx sqlstore.Conn) error {
			close(held)
			<-release
			_, err := tx.Exec(ctx, `INSERT INTO rows (n) VALUES (0)`)
			return err
		})
		if err != nil {
			t.Errorf("the first transaction: %v", err)
		}
	})
	<-held
	const n = 30
	errs := make([]error, n)
	canceled, cancel := context.WithCancel(ctx)
	var rest sync.WaitGroup
	for i := 1; i <= n; i++ {
		c := ctx
		if i == 7 {
			c = canceled
		}
		rest.Go(func() {
			errs[i-1] = p.InTx(c, func(tx sqlstore.Conn) error {
				if _, err := tx.Exec(c, `INSERT INTO rows (n) VALUES ($1)`, i); err != nil {
					return err
				}
				if i%3 == 0 {
					return fmt.Errorf("refused %d", i)
				}
				return nil
			})
		})
	}
	for len(p.commits.queue) < n { // every one waits for the writer
		runtime.Gosched()
	}
	cancel()
	close(release)
	first.Wait()
	rest.Wait()

	want := map[int]bool{0: true}
	for i := 1; i <= n; i++ {
		err := errs[i-1]
		switch {
		case i == 7:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("transaction 7, whose context ended while it waited: %v", err)
			}
		case i%3 == 0:
			if err == nil || err.Error() != fmt.Sprintf("refused %d", i) {
				t.Errorf("transaction %d: %v, want its own refusal", i, err)
			}
		case err != nil:
			t.Errorf("transaction %d: %v", i, err)
		default:
			want[i] = true
		}
	}
	rows, err := p.Query(ctx, `SELECT n FROM rows ORDER BY n`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		got[v] = true
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows %v, want %v", got, want)
	}
}

// TestGroupCommitPanic: a transaction whose function panics panics in
// its caller, writes nothing, and leaves the writer working.
func TestGroupCommitPanic(t *testing.T) {
	ctx := context.Background()
	p := rowsPool(t)
	func() {
		defer func() {
			if v := recover(); v != "boom" {
				t.Errorf("recovered %v, want the transaction's own panic", v)
			}
		}()
		_ = p.InTx(ctx, func(tx sqlstore.Conn) error {
			if _, err := tx.Exec(ctx, `INSERT INTO rows (n) VALUES (1)`); err != nil {
				return err
			}
			panic("boom")
		})
	}()
	if err := p.InTx(ctx, func(tx sqlstore.Conn) error {
		_, err := tx.Exec(ctx, `INSERT INTO rows (n) VALUES (2)`)
		return err
	}); err != nil {
		t.Fatalf("the next transaction: %v", err)
	}
	var n, sum int
	if err := p.QueryRow(ctx, `SELECT count(*), sum(n) FROM rows`).Scan(&n, &sum); err != nil || n != 1 || sum != 2 {
		t.Errorf("rows: %d with sum %d (%v), want only the second", n, sum, err)
	}
}

// rowsPool opens a pool on a new file holding one table, rows (n),
// closed when t ends.
func rowsPool(t *testing.T) pool {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "group.db")
	writer, err := open(ctx, path, writerDSN, 1)
	if err != nil {
		t.Fatal(err)
	}
	readers, err := open(ctx, path, readerDSN, 2)
	if err != nil {
		t.Fatal(err)
	}
	p := newPool(writer, readers)
	t.Cleanup(func() { p.Close() })
	if _, err := p.Exec(ctx, `CREATE TABLE rows (n INTEGER PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	return p
}
