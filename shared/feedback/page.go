package feedback

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Paging defaults and limits for every list endpoint.
const (
	DefaultPerPage = 50
	MaxPerPage     = 200
	// MaxPage bounds page so that (page-1)*per_page cannot overflow.
	MaxPage = 1_000_000
)

// Page is the envelope of every list response.
type Page[T any] struct {
	Data []T  `json:"data"`
	Meta Meta `json:"meta"`
}

// Meta is the paging information of a list response.
type Meta struct {
	Total   int `json:"total"`
	Page    int `json:"page"`
	PerPage int `json:"per_page"`
	Pages   int `json:"pages"`
	// NextCursor is the cursor of the page after this one, on the lists
	// of [Keyed] items, when this page is full.
	NextCursor string `json:"next_cursor,omitempty"`
}

// NewPage wraps items into an envelope. A nil slice becomes an empty array.
func NewPage[T any](items []T, total int, p ListParams) Page[T] {
	if items == nil {
		items = []T{}
	}
	pages := 0
	if total > 0 {
		pages = (total + p.PerPage - 1) / p.PerPage
	}
	m := Meta{Total: total, Page: p.Page, PerPage: p.PerPage, Pages: pages}
	if n := len(items); n > 0 && n == p.PerPage {
		if k, ok := any(items[n-1]).(Keyed); ok {
			m.NextCursor = k.Key().String()
		}
	}
	return Page[T]{Data: items, Meta: m}
}

// ListParams are the parsed query parameters of a list request.
// From is inclusive and To exclusive; both filter created_at.
type ListParams struct {
	Page       int
	PerPage    int
	From       *time.Time
	To         *time.Time
	LocationID string
	// Ratings keeps only the hygiene ratings among them (nil: any).
	Ratings []int
	// Tag keeps only the hygiene submissions that carry it ("": any).
	Tag string
	// After is the cursor of the item before the page (then Page is 1).
	After *Cursor
}

// Offset returns the number of rows before the requested page.
func (p ListParams) Offset() int { return (p.Page - 1) * p.PerPage }

// Values encodes p as query parameters, leaving out defaults.
func (p ListParams) Values() url.Values {
	v := url.Values{}
	if p.Page > 1 {
		v.Set("page", strconv.Itoa(p.Page))
	}
	if p.PerPage > 0 && p.PerPage != DefaultPerPage {
		v.Set("per_page", strconv.Itoa(p.PerPage))
	}
	if p.From != nil {
		v.Set("from", p.From.UTC().Format(time.RFC3339Nano))
	}
	if p.To != nil {
		v.Set("to", p.To.UTC().Format(time.RFC3339Nano))
	}
	if p.LocationID != "" {
		v.Set("location_id", p.LocationID)
	}
	if len(p.Ratings) > 0 {
		v.Set(ParamRating, joinInts(p.Ratings))
	}
	if p.Tag != "" {
		v.Set(ParamTag, p.Tag)
	}
	if p.After != nil {
		v.Set(ParamCursor, p.After.String())
	}
	return v
}

// List parameter names, for ParseListParams' allowed list.
const (
	ParamPage       = "page"
	ParamPerPage    = "per_page"
	ParamFrom       = "from"
	ParamTo         = "to"
	ParamLocationID = "location_id"
	ParamCursor     = "cursor"
	// ParamRating filters the hygiene submissions by rating: one rating
	// or several separated by commas ("1,2").
	ParamRating = "rating"
	// ParamTag filters the hygiene submissions by one of [HygieneTags].
	ParamTag = "tag"
)

// ParseListParams parses q, accepting only the parameters named in allowed
// (page and per_page are always allowed). Every problem is reported in one
// [*Error] with code [EInvalidParameter] and one InvalidParam per name.
func ParseListParams(q url.Values, allowed ...string) (ListParams, error) {
	p := ListParams{Page: 1, PerPage: DefaultPerPage}
	var v Validator
	ok := map[string]bool{ParamPage: true, ParamPerPage: true}
	for _, a := range allowed {
		ok[a] = true
	}
	for name, vals := range q {
		switch {
		case !ok[name]:
			v.Add(name, "is not a parameter of this endpoint")
		case len(vals) != 1:
			v.Add(name, "must be given once")
		}
	}
	if !v.Valid() {
		return p, v.ParamErr()
	}
	p.Page = parseInt(&v, q, ParamPage, 1, 1, MaxPage)
	p.PerPage = parseInt(&v, q, ParamPerPage, DefaultPerPage, 1, MaxPerPage)
	p.From = parseBound(&v, q, ParamFrom)
	p.To = parseBound(&v, q, ParamTo)
	if p.From != nil && p.To != nil && p.From.After(*p.To) {
		v.Add(ParamFrom, "must not be after to")
	}
	if s := q.Get(ParamLocationID); s != "" || q.Has(ParamLocationID) {
		id, good := ParseUUID(s)
		v.Check(good, ParamLocationID, "must be a UUID")
		p.LocationID = id
	}
	if q.Has(ParamRating) {
		p.Ratings = parseRatings(&v, q.Get(ParamRating))
	}
	if q.Has(ParamTag) {
		p.Tag = q.Get(ParamTag)
		v.Check(slices.Contains(HygieneTags, p.Tag), ParamTag, "must be one of "+strings.Join(HygieneTags, ", "))
	}
	if q.Has(ParamCursor) {
		c, err := ParseCursor(q.Get(ParamCursor))
		v.Check(err == nil, ParamCursor, errCursor.Error())
		v.Check(!q.Has(ParamPage), ParamCursor, "cannot be combined with page")
		p.After = &c
	}
	if !v.Valid() {
		return p, v.ParamErr()
	}
	return p, nil
}

func parseInt(v *Validator, q url.Values, name string, def, min, max int) int {
	if !q.Has(name) {
		return def
	}
	n, err := strconv.Atoi(q.Get(name))
	if err != nil || n < min || n > max {
		v.Addf(name, "must be an integer from %d to %d", min, max)
		return def
	}
	return n
}

func parseBound(v *Validator, q url.Values, name string) *time.Time {
	if !q.Has(name) {
		return nil
	}
	t, err := ParseTimeBound(q.Get(name))
	if err != nil {
		v.Add(name, err.Error())
		return nil
	}
	return &t
}

// parseRatings parses the rating filter: distinct ratings from 1 to 5,
// separated by commas, returned in ascending order.
func parseRatings(v *Validator, s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 5 {
			v.Add(ParamRating, "must be ratings from 1 to 5, separated by commas")
			return nil
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// joinInts writes ns separated by commas.
func joinInts(ns []int) string {
	b := make([]byte, 0, 2*len(ns))
	for i, n := range ns {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return string(b)
}
