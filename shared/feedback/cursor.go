package feedback

import (
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Cursor is the key (created_at, id) of the last item of a page: the
// next page starts after it in list order (created_at desc, id desc), so
// a client that walks a list by cursor sees every item that existed when
// it started exactly once however many are added meanwhile.
type Cursor struct {
	CreatedAt time.Time
	ID        string
}

// Keyed is an item of a list that a cursor can walk.
type Keyed interface {
	// Key returns the item's cursor.
	Key() Cursor
}

// String encodes c opaquely: base64url of its microseconds and its id.
func (c Cursor) String() string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(c.CreatedAt.UnixMicro(), 10) + "." + c.ID))
}

// errCursor is the reason of every malformed cursor.
var errCursor = errors.New("is not a cursor this service gave")

// ParseCursor decodes what [Cursor.String] encoded.
func ParseCursor(s string) (Cursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return Cursor{}, errCursor
	}
	us, id, _ := strings.Cut(string(b), ".")
	n, err := strconv.ParseInt(us, 10, 64)
	id, ok := ParseUUID(id)
	if err != nil || !ok {
		return Cursor{}, errCursor
	}
	return Cursor{CreatedAt: time.UnixMicro(n).UTC(), ID: id}, nil
}

// Key implements [Keyed].
func (h HygieneSubmission) Key() Cursor { return Cursor{h.CreatedAt.Time, h.ID} }

// Key implements [Keyed].
func (r ReviewResponse) Key() Cursor { return Cursor{r.CreatedAt.Time, r.ID} }

// Key implements [Keyed].
func (r SurveyResponse) Key() Cursor { return Cursor{r.CreatedAt.Time, r.ID} }
