package visitor

// ShowOutcome and SetQueued give a page the state its outbox gives it in
// the browser, where OnMount runs; go-app's test engine never calls it.
func (p *Page) ShowOutcome(s SendState) { p.sent, p.state = true, s }

// SetQueued sets how many submissions wait on the device.
func (p *Page) SetQueued(n int) { p.queued = n }
