// Package live fans the outbox out to the live stream's subscribers in
// this process: the dashboards and the integrators connected to
// GET /api/v1/live.
//
// A [Hub] runs one feed per workspace that has subscribers. A feed reads
// the workspace's new events from the store once per wake-up — a local
// commit, a notification from another instance, or a poll that bounds
// the delay when a notification is lost — and offers each, encoded once,
// to every subscriber. A subscriber that resumes (after=) replays from
// the store on its own and joins the feed when it has caught up with it,
// under the feed's lock, so that nothing is lost or doubled across the
// seam. A subscriber whose buffer is full is dropped rather than slowing
// the feed; it resumes with after=.
package live
