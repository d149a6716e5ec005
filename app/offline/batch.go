package offline

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// batchFrom takes the kiosk items from items[i] on, up to the batch size,
// marking them taken.
func (p *pass) batchFrom(items []Item, taken []bool, i int) []Item {
	var batch []Item
	for ; i < len(items) && len(batch) < p.q.batch; i++ {
		if !taken[i] && items[i].Kind == KindKiosk {
			taken[i] = true
			batch = append(batch, items[i])
		}
	}
	return batch
}

// kiosk sends a batch of kiosk items, or holds every kiosk item back when
// the kiosk has no credential.
func (p *pass) kiosk(batch []Item) error {
	p.kioskSeen = true
	cred := p.q.cred()
	if cred == "" {
		p.unpaired, p.noKiosk = true, true
		return nil
	}
	return p.sync(batch, cred)
}

// sync posts batch to the sync endpoint and applies the answer: per item
// for a 2xx, for the whole batch otherwise. A batch the service finds too
// large or malformed (413, 400, 422) is split in half until the item at
// fault is alone, and that item becomes a dead letter.
func (p *pass) sync(batch []Item, cred string) error {
	headers := map[string]string{"Content-Type": "application/json", "Accept": "application/json",
		"Authorization": "Bearer " + cred}
	res, err := p.q.sender.Send(p.ctx, "POST", p.q.syncURL, headers, syncBody(batch, p.kioskLeft))
	p.rep.Requests++
	if err != nil {
		if p.ctx.Err() != nil {
			return p.ctx.Err()
		}
		return p.apply(batch, retry, 0, "network error: "+err.Error(), time.Time{})
	}
	code, detail := problemOf(res.Status, res.Body)
	switch res.Status {
	case 401:
		p.unpaired = true
		return p.apply(batch, retry, res.Status, detail, time.Time{})
	case 400, 413, 422:
		if len(batch) == 1 {
			return p.apply(batch, dead, res.Status, detail, time.Time{})
		}
		h := len(batch) / 2
		if err := p.sync(batch[:h], cred); err != nil || p.stop {
			return err
		}
		return p.sync(batch[h:], cred)
	}
	v := classify(res.Status, code)
	switch v {
	case remove:
		var out feedback.SyncResponse
		if json.Unmarshal(res.Body, &out) != nil {
			return p.apply(batch, retry, res.Status, "the sync answer is not a list of results", time.Time{})
		}
		return p.results(batch, out.Results)
	case dead:
		// The batch was refused as a whole (403, 404, ...): the items are
		// not at fault, so they wait for the service or the app to change.
		v = retry
	}
	return p.apply(batch, v, res.Status, detail, res.Reset)
}

// syncBody returns {"submissions":[…],"queue_depth":waiting} with each
// item's body as is; waiting counts the kiosk items still queued, the
// batch included, so that the service shows what is left at once.
func syncBody(batch []Item, waiting int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"submissions":[`)
	for i, it := range batch {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it.Body)
	}
	b.WriteString(`],"queue_depth":`)
	b.WriteString(strconv.Itoa(max(waiting, len(batch))))
	b.WriteString(`}`)
	return b.Bytes()
}

// results applies each item's own result. A result is found by position
// (the service answers in order) or else by id; an item without a result
// is kept.
func (p *pass) results(batch []Item, results []feedback.SyncResult) error {
	byID := make(map[string]*feedback.SyncResult, len(results))
	for i := range results {
		byID[strings.ToLower(results[i].ID)] = &results[i]
	}
	for i, it := range batch {
		var r *feedback.SyncResult
		if i < len(results) && (results[i].ID == "" || strings.EqualFold(results[i].ID, it.ID)) {
			r = &results[i]
		} else {
			r = byID[strings.ToLower(it.ID)]
		}
		var err error
		if r == nil {
			err = p.apply([]Item{it}, retry, 0, "the sync answer has no result for this item", time.Time{})
		} else {
			code, detail := problemText(r.Status, r.Problem)
			err = p.apply([]Item{it}, classify(r.Status, code), r.Status, detail, time.Time{})
		}
		if err != nil {
			return err
		}
	}
	return nil
}
